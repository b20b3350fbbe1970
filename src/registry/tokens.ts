import { createHash, randomBytes } from 'node:crypto';

/** A new bearer token: 256 random bits, recognisable by its prefix. */
export function generateToken(): string {
  return `sb_${randomBytes(32).toString('base64url')}`;
}

/** What is stored instead of the token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
