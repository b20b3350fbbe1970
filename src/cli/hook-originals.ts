/**
 * What each Claude Code settings file held before `hooks install` first wrote to it (its text,
 * or null when there was no file), so `hooks uninstall` can put it back exactly. Kept beside
 * the profiles: $XDG_CONFIG_HOME/switchboard/hook-originals.json.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { configDir } from '../client/profiles.ts';

type Originals = Record<string, string | null>;

const file = () => path.join(configDir(), 'hook-originals.json');

export function readOriginals(): Originals {
  try {
    return JSON.parse(readFileSync(file(), 'utf8')) as Originals;
  } catch {
    return {};
  }
}

export function writeOriginals(originals: Originals): void {
  mkdirSync(configDir(), { recursive: true, mode: 0o700 });
  const temporary = `${file()}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(originals, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, file());
}
