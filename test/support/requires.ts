/**
 * The real parts some tests drive, and the Debian package that brings each. A describe block
 * whose part is missing on this machine is skipped with one line saying what to install, so
 * `npm test` on a fresh machine runs everything it can. With SWITCHBOARD_REQUIRE_REAL_PARTS=1
 * (.ci/run sets it) a missing part fails the run instead: CI skips nothing.
 */
import { execFileSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import path from 'node:path';
import { describe } from 'vitest';
import { CHROMIUM } from './browser.ts';

const executable = (file: string) => {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};
const onPath = (command: string) =>
  (process.env.PATH ?? '').split(path.delimiter).some((dir) => executable(path.join(dir, command)));

export const MCP_CONFORMANCE_SUMMARY = 'test-results/mcp-conformance/summary.json';

/** Each part: why it is missing here, with what brings it, or undefined when it is present. */
const PARTS = {
  chromium: () =>
    executable(CHROMIUM)
      ? undefined
      : `chromium not found at ${CHROMIUM} — apt-get install chromium`,
  tmux: () => (onPath('tmux') ? undefined : 'tmux not found — apt-get install tmux'),
  /** The doorbell's NATS faults run a NATS server of their own. */
  'nats-server': () =>
    onPath('nats-server') ? undefined : 'nats-server not found — apt-get install nats-server',
  /** The fault suite creates, kills and restarts a Postgres cluster of its own. */
  'postgres cluster': () => {
    if (!onPath('pg_createcluster'))
      return 'pg_createcluster not found — apt-get install postgresql';
    if (process.getuid?.() !== 0) return 'not root — the fault suite creates a Postgres cluster';
    return undefined;
  },
  /** The fleet (test/support/fleet.ts): namespaces, veth, its impaired wire, its own Postgres. */
  'network namespaces': () => {
    if (process.getuid?.() !== 0) return 'not root — the fleet builds network namespaces';
    const missing = ['ip', 'ethtool', 'python3', 'runuser'].filter((command) => !onPath(command));
    if (missing.length)
      return `${missing.join(', ')} not found — apt-get install iproute2 ethtool python3-minimal util-linux`;
    if (!executable('/usr/lib/postgresql/15/bin/initdb'))
      return '/usr/lib/postgresql/15/bin/initdb not found — apt-get install postgresql-15';
    const probe = `sbf-probe-${process.pid}`;
    try {
      execFileSync('ip', ['netns', 'add', probe], { stdio: 'pipe' });
      execFileSync('ip', ['netns', 'del', probe], { stdio: 'pipe' });
    } catch (error) {
      return `network namespaces cannot be made here: ${String((error as Error).message).split('\n')[0]}`;
    }
    return undefined;
  },
  /** What `npm run mcp:conformance` (run by .ci/run before the tests) wrote. */
  'mcp conformance result': () =>
    existsSync(MCP_CONFORMANCE_SUMMARY)
      ? undefined
      : `no ${MCP_CONFORMANCE_SUMMARY} — npm run mcp:conformance`,
} satisfies Record<string, () => string | undefined>;

export type Part = keyof typeof PARTS;

const said = new Set<string>();

/**
 * `describe`, skipped with the reason on stderr when a part is missing here; throws instead
 * when SWITCHBOARD_REQUIRE_REAL_PARTS=1.
 */
export function requires(...parts: Part[]) {
  const reason = parts
    .map((part) => PARTS[part]())
    .filter((missing) => missing !== undefined)
    .join('; ');
  if (reason) {
    if (process.env.SWITCHBOARD_REQUIRE_REAL_PARTS === '1')
      throw new Error(`${reason} (SWITCHBOARD_REQUIRE_REAL_PARTS=1: nothing may be skipped)`);
    if (!said.has(reason)) console.warn(`skipped: ${reason}`);
    said.add(reason);
  }
  return describe.skipIf(reason !== '');
}
