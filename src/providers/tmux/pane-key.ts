/**
 * The pane key a hook proves its pane with (docs/architecture.md, "How a hook proves its
 * pane"): a random key handed to the pane's process in its environment by `switchboard run` or
 * `attach`, of which the pane option @switchboard_key keeps only the occupant's pid and the
 * key's hash.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** The environment variable a pane's key is handed to its process in. */
export const PANE_KEY_ENV = 'SWITCHBOARD_PANE_KEY';

/** A new pane key, for the pane's process environment, and its hash. */
export function newPaneKey(): { key: string; hash: string } {
  const key = randomBytes(24).toString('base64url');
  return { key, hash: keyHash(key) };
}

/**
 * What the pane option @switchboard_key keeps of a key: the occupant's pid and the key's hash
 * (never the key), so an occupant that replaces it in the pane does not inherit it.
 */
export const paneKeyOption = (panePid: number, hash: string) => `${panePid}:${hash}`;

const keyHash = (key: string) => createHash('sha256').update(key).digest('hex');

/** The key's hash, when the @switchboard_key option is for this occupant's pid. */
export function paneKeyHash(option: string | undefined, panePid: number): string | undefined {
  const match = /^(\d+):([0-9a-f]{64})$/.exec(option ?? '');
  return match && Number(match[1]) === panePid ? match[2] : undefined;
}

/** Whether the key is the one whose hash the pane keeps. */
export function keyProves(key: string | undefined, hash: string | undefined): boolean {
  if (!key || !hash) return false;
  return timingSafeEqual(Buffer.from(keyHash(key), 'hex'), Buffer.from(hash, 'hex'));
}
