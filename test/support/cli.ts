/**
 * Fixtures for the client and CLI tests: the only file of those tests that imports server-side
 * test support (harness.ts, and through it src/), so a restructure fixes paths here alone.
 * The client and the CLI themselves are exercised only through their public faces: the
 * src/client API and the bundled `switchboard` binary run as a subprocess.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  createGoal,
  driver,
  eventually,
  issueCredential,
  openTestDatabase,
  registerAgent,
  registerProvider,
  startTestGateway,
  type TestGateway,
  uid,
} from './harness.ts';
import { team } from './team.ts';

export type { TestGateway };
export {
  createGoal,
  driver,
  eventually,
  issueCredential,
  registerAgent,
  registerProvider,
  team,
  uid,
};

export const BIN = path.resolve('bin/switchboard.js');

/**
 * A gateway over its own database that can be restarted on the same port and database (a
 * gateway restart as a client sees it).
 */
export async function startGateway() {
  const database = await openTestDatabase();
  let t = await startTestGateway(database);
  const port = Number(new URL(t.url).port);
  const adminToken = t.adminToken;
  return {
    get t() {
      return t;
    },
    get url() {
      return t.url;
    },
    adminToken,
    async stop() {
      await t.stop();
    },
    async start() {
      t = await startTestGateway(database, { port, adminToken });
    },
    async close() {
      await t.stop().catch(() => {});
      await database.close();
    },
  };
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON. */
  json<T = any>(): T;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  input?: string;
  timeoutMs?: number;
  /** Called with the child's stderr as it grows (to wait for a spinner line, etc.). */
  onStderr?: (all: string) => void;
}

/** A fresh HOME / XDG_CONFIG_HOME, so no test reads or writes a real config. */
export const tempHome = () => mkdtempSync(path.join(tmpdir(), 'switchboard-cli-home-'));

/**
 * Runs the real `switchboard` binary (node bin/switchboard.js → dist/cli) as a subprocess.
 * The token goes through the environment, never argv.
 */
export function runCli(
  args: string[],
  options: RunOptions = {},
): Promise<RunResult> & {
  kill(): void;
} {
  const home = options.env?.HOME ?? tempHome();
  const child = spawn(process.execPath, [BIN, ...args], {
    env: {
      PATH: process.env.PATH,
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, '.config'),
      NO_COLOR: '1',
      ...options.env,
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
    options.onStderr?.(stderr);
  });
  child.stdin.end(options.input ?? '');
  const timeoutMs = options.timeoutMs ?? 15_000;
  const promise = new Promise<RunResult>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(`switchboard ${args.join(' ')} ran over ${timeoutMs} ms; stderr: ${stderr}`),
      );
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({
        code,
        stdout,
        stderr,
        json: () => {
          try {
            return JSON.parse(stdout);
          } catch {
            throw new Error(`not JSON (exit ${code}): ${stdout}\nstderr: ${stderr}`);
          }
        },
      });
    });
  });
  return Object.assign(promise, { kill: () => void child.kill('SIGTERM') });
}

/** Environment for a CLI run as `token` against `url` (optionally in `goal`). */
export const asCaller = (url: string, token: string, goal?: string) => ({
  SWITCHBOARD_URL: url,
  SWITCHBOARD_TOKEN: token,
  ...(goal ? { SWITCHBOARD_GOAL: goal } : {}),
});
