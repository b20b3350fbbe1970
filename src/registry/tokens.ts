import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, checkAdminToken } from '../config.ts';
import { ensureDataFolder, octal, shellWord } from '../db/data-folder.ts';
import type { Logger } from '../log.ts';

/** A new bearer token: 256 random bits, recognisable by its prefix. */
export function generateToken(): string {
  return `sb_${randomBytes(32).toString('base64url')}`;
}

/** What is stored instead of the token. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * The operator token when SWITCHBOARD_ADMIN_TOKEN is unset: read from `<dataDir>/admin-token`,
 * or generated there (mode 0600) on first start. A file that group or others may read or
 * write, or that holds a weak token, is refused with the fix. The path is logged, never the
 * token.
 */
export function ensureAdminTokenFile(dataDir: string, log: Logger): string {
  ensureDataFolder(dataDir);
  const file = path.join(dataDir, 'admin-token');
  let text: string | null = null;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (text !== null) {
    const mode = fs.statSync(file).mode;
    if (mode & 0o077) {
      throw new ConfigError(
        `${file} is open to group or others (mode ${octal(mode)}); it holds the operator token: run chmod 600 ${shellWord(file)}`,
      );
    }
    const token = checkAdminToken(file, text.trim());
    log.info('using the admin token in the data folder', { file });
    return token;
  }
  const token = generateToken();
  fs.writeFileSync(file, `${token}\n`, { mode: 0o600, flag: 'wx' });
  log.info('generated an admin token', { file });
  return token;
}
