/**
 * Real tmux for the provider and hook tests: a private server per test (tmux -S <tmpdir>/sock),
 * the `switchboard provider tmux` binary as a subprocess, and directory reads with a deadline.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DirectoryDocument } from '../../src/client/generated/graphql.ts';
import { asCaller, eventually, issueCredential, runCli, type startGateway, uid } from './cli.ts';

export const STANDIN = path.resolve('test/fixtures/standin-agent.mjs');
export const STANDIN_PATTERNS = path.resolve('test/fixtures/standin-patterns.json');

export type Gw = Awaited<ReturnType<typeof startGateway>>;

export interface Sandbox {
  dir: string;
  sock: string;
  hookSock: string;
  tmux(...args: string[]): Promise<string>;
  cleanup(): Promise<void>;
}

export function sandbox(): Sandbox {
  const dir = mkdtempSync(path.join(tmpdir(), 'sb-tmux-'));
  const sock = path.join(dir, 'sock');
  const run = (...args: string[]) =>
    new Promise<string>((resolve, reject) =>
      execFile('tmux', ['-S', sock, ...args], { encoding: 'utf8' }, (error, stdout, stderr) =>
        error
          ? reject(new Error(`tmux ${args.join(' ')}: ${stderr || error.message}`))
          : resolve(stdout),
      ),
    );
  return {
    dir,
    sock,
    hookSock: path.join(dir, 'hook.sock'),
    tmux: run,
    async cleanup() {
      await run('kill-server').catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A PROVIDER credential for the goals, and `switchboard provider tmux` running with it (on the
 * sandbox's hook socket unless `hookSocket` is false; `env` over the caller's environment).
 */
export async function startProvider(
  gw: Gw,
  box: Sandbox,
  goalIds: string[],
  extra: string[] = [],
  options: { hookSocket?: boolean; env?: Record<string, string | undefined> } = {},
) {
  const providerId = uid('tmux');
  const { token } = await issueCredential(gw.t, { kind: 'PROVIDER', providerId, goalIds });
  let stderr = '';
  const child = runCli(
    [
      'provider',
      'tmux',
      '--socket',
      box.sock,
      '--patterns',
      STANDIN_PATTERNS,
      ...(options.hookSocket === false ? [] : ['--hook-socket', box.hookSock]),
      ...goalIds.flatMap((g) => ['--goal', g]),
      ...extra,
    ],
    {
      env: { ...asCaller(gw.url, token), ...options.env },
      timeoutMs: 600_000,
      onStderr: (all) => {
        stderr = all;
      },
    },
  );
  child.catch(() => {});
  await eventually(
    () => (/tmux provider .*; hook socket /.test(stderr) ? true : undefined),
    'provider start',
    10_000,
  ).catch((error: Error) => {
    child.kill();
    throw new Error(`${error.message}; provider stderr: ${stderr}`);
  });
  return {
    providerId,
    token,
    get stderr() {
      return stderr;
    },
    async stop() {
      child.kill();
      await child.catch(() => {});
    },
  };
}

/** The agent's directory row (as admin). */
export async function presenceOf(gw: Gw, goalId: string, agentId: string) {
  const { directory } = await gw.t.ok(DirectoryDocument, { goalId });
  return directory.rows.find((r: any) => r.agentId === agentId)?.presence ?? null;
}

/** Waits (with a deadline) until the agent's presence satisfies `test`. */
export function presenceUntil(
  gw: Gw,
  goalId: string,
  agentId: string,
  test: (presence: any) => boolean,
  what: string,
  timeoutMs = 20_000,
) {
  return eventually(
    async () => {
      const p = await presenceOf(gw, goalId, agentId);
      return test(p) ? (p ?? {}) : undefined;
    },
    `${agentId}: ${what}`,
    timeoutMs,
  );
}

export const liveness = (value: string) => (p: any) => p?.liveness === value;

/** Starts the stand-in agent in a new pane bound to the agent, with the real `switchboard run`. */
export function runStandin(
  gw: Gw,
  box: Sandbox,
  goalId: string,
  agentId: string,
  env: Record<string, string> = {},
  kind = 'standin',
) {
  const prefix = Object.keys(env).length
    ? ['env', ...Object.entries(env).map(([k, v]) => `${k}=${v}`)]
    : [];
  return runInPane(gw, box, goalId, agentId, [...prefix, 'node', STANDIN], kind);
}

/** Starts a command in a new pane bound to the agent (of the kind, else the kind its command names). */
export async function runInPane(
  gw: Gw,
  box: Sandbox,
  goalId: string,
  agentId: string,
  command: string[],
  kind?: string,
) {
  const result = await runCli(
    [
      ...['run', agentId, '--socket', box.sock, ...(kind ? ['--kind', kind] : []), '--json'],
      ...['--', ...command],
    ],
    { env: { SWITCHBOARD_URL: gw.url, SWITCHBOARD_GOAL: goalId } },
  );
  if (result.code !== 0) throw new Error(`switchboard run failed: ${result.stderr}`);
  return result.json<{ pane: string }>().pane;
}

/** Types a line into a pane, as a person would. */
export const type = (box: Sandbox, pane: string, text: string) =>
  box
    .tmux('send-keys', '-t', pane, '-l', text)
    .then(() => box.tmux('send-keys', '-t', pane, 'Enter'));

/** The environment of the pane's process, as a hook started in that pane inherits it. */
export async function paneEnv(box: Sandbox, pane: string): Promise<Record<string, string>> {
  const pid = (await box.tmux('display-message', '-p', '-t', pane, '#{pane_pid}')).trim();
  return Object.fromEntries(
    readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .filter(Boolean)
      .map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]),
  );
}
