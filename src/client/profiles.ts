/**
 * Named connection profiles (url, token, goal) in $XDG_CONFIG_HOME/switchboard/config.json
 * (default ~/.config/switchboard), written with mode 0600 in a 0700 folder. Node only: the
 * dashboard never imports this file.
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

export interface Profile {
  url?: string;
  token?: string;
  goal?: string;
}

export interface ProfileFile {
  /** The profile used when none is named. */
  current?: string;
  profiles: Record<string, Profile>;
}

export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || path.join(env.HOME || homedir(), '.config');
  return path.join(base, 'switchboard');
}

export const configFile = (env: NodeJS.ProcessEnv = process.env) =>
  path.join(configDir(env), 'config.json');

export function readProfiles(env: NodeJS.ProcessEnv = process.env): ProfileFile {
  let text: string;
  try {
    text = readFileSync(configFile(env), 'utf8');
  } catch {
    return { profiles: {} };
  }
  try {
    const parsed = JSON.parse(text) as ProfileFile;
    return { current: parsed.current, profiles: parsed.profiles ?? {} };
  } catch {
    throw new Error(`${configFile(env)} is not valid JSON: fix or delete it`);
  }
}

/** Writes the whole file atomically, readable by its owner only. */
export function writeProfiles(file: ProfileFile, env: NodeJS.ProcessEnv = process.env): string {
  const dir = configDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const target = configFile(env);
  const temporary = `${target}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, target);
  return target;
}

export function saveProfile(
  name: string,
  profile: Profile,
  options: { makeCurrent?: boolean; env?: NodeJS.ProcessEnv } = {},
): string {
  const file = readProfiles(options.env);
  file.profiles[name] = profile;
  if (options.makeCurrent || !file.current) file.current = name;
  return writeProfiles(file, options.env);
}

export function removeProfile(name: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const file = readProfiles(env);
  if (!(name in file.profiles)) return false;
  delete file.profiles[name];
  if (file.current === name) file.current = Object.keys(file.profiles)[0];
  writeProfiles(file, env);
  return true;
}
