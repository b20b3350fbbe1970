/**
 * Start-up on the embedded database, as a new user meets it: `npm start` with a fresh data
 * folder (first start: the database is created), then `npm start` again on that folder (later
 * start). Each run is its own process; median of 5 of each. Two clocks: in-process (the
 * gateway's own `startupMs` in its "switchboard ready" log line: from config to listening) and
 * wall clock (spawning `npm start` until GET /readyz answers 200, polled every 10 ms); and the
 * CPU time the process tree (npm, its shell, the gateway) used until then, from /proc: on a
 * shared machine wall clock follows the load, CPU time much less, so it is the closer
 * estimate of the wall clock on an idle machine.
 * Targets (issue 16, on an idle machine): first start ≤ 2 s in-process, later start ≤ 1 s,
 * `npm start` to ready ≤ 3 s.
 *
 *   npm run bench:startup
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { figure, printReport, progress, setting, summary } from './support.ts';

const RUNS = setting('RUNS', 5, 2);
const root = new URL('..', import.meta.url).pathname;

/** A port free right now (the gateway's address must be known before its log says it). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

interface Start {
  wallMs: number;
  inProcessMs: number | null;
  cpuMs: number;
}

/** User + system CPU time of `pid` and its descendants so far, in ms (Linux /proc). */
function treeCpuMs(pid: number): number {
  let ticks = 0;
  const visit = (id: number) => {
    try {
      // Fields after the command's closing parenthesis; utime and stime are the 12th and 13th.
      const stat = readFileSync(`/proc/${id}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
      const children = readFileSync(`/proc/${id}/task/${id}/children`, 'utf8').trim();
      for (const child of children ? children.split(' ') : []) visit(Number(child));
    } catch {} // it has exited
  };
  visit(pid);
  return ticks * 10; // USER_HZ is 100 on Linux
}

/** `npm start` on `dataDir` until /readyz is 200, then SIGTERM to its process group. */
async function start(dataDir: string): Promise<Start> {
  const port = await freePort();
  const began = performance.now();
  const child = spawn('npm', ['start', '--silent'], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: '',
      SWITCHBOARD_DATA_DIR: dataDir,
      SWITCHBOARD_ADMIN_TOKEN: '',
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  let exited: number | null | undefined;
  const gone = new Promise<void>((resolve) =>
    child.once('exit', (code) => {
      exited = code;
      resolve();
    }),
  );
  try {
    const deadline = began + 120_000;
    for (;;) {
      if (exited !== undefined) throw new Error(`npm start exited (${exited}): ${output}`);
      if (performance.now() > deadline) throw new Error(`not ready within 120 s: ${output}`);
      const ok = await fetch(`http://127.0.0.1:${port}/readyz`).then(
        (response) => response.status === 200,
        () => false,
      );
      if (ok) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const wallMs = performance.now() - began;
    const cpuMs = treeCpuMs(child.pid as number);
    const ready = output.split('\n').find((line) => line.includes('switchboard ready')) ?? '';
    const match = /"startupMs":\s*(\d+)/.exec(ready);
    return { wallMs, inProcessMs: match ? Number(match[1]) : null, cpuMs };
  } finally {
    if (exited === undefined) process.kill(-(child.pid as number), 'SIGTERM');
    await gone;
    await groupGone(child.pid as number);
  }
}

/**
 * Resolves once no process of the group `pgid` is left. npm exits at once on SIGTERM while the
 * gateway drains, and the next start on the same folder must find its lock released.
 */
async function groupGone(pgid: number): Promise<void> {
  const deadline = performance.now() + 30_000;
  for (;;) {
    try {
      process.kill(-pgid, 0);
    } catch {
      return;
    }
    if (performance.now() > deadline)
      throw new Error(`process group ${pgid} still running 30 s after SIGTERM`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const median = (values: (number | null)[]) => {
  const known = values.filter((value): value is number => value !== null);
  return known.length === values.length ? summary(known).p50 : null;
};

// One untimed start: builds whatever `npm start` would build and warms the OS file cache.
const warm = mkdtempSync(path.join(tmpdir(), 'switchboard-startup-'));
await start(warm);
rmSync(warm, { recursive: true, force: true });

const first: Start[] = [];
const later: Start[] = [];
for (let run = 0; run < RUNS; run++) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'switchboard-startup-'));
  try {
    first.push(await start(dataDir));
    later.push(await start(dataDir));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  progress('startup', `run ${run + 1}/${RUNS}: first ${first.at(-1)?.wallMs.toFixed(0)} ms`);
}

const source = 'issue 16 (idle machine)';
printReport(
  'startup',
  [
    figure('first start, in-process, median', median(first.map((s) => s.inProcessMs)), 'ms', {
      atMost: 2000,
      source,
    }),
    figure('later start, in-process, median', median(later.map((s) => s.inProcessMs)), 'ms', {
      atMost: 1000,
      source,
    }),
    figure(
      'npm start to /readyz (fresh data folder), wall clock, median',
      median(first.map((s) => s.wallMs)),
      'ms',
      { atMost: 3000, source },
    ),
    figure(
      'npm start to /readyz (existing data folder), wall clock, median',
      median(later.map((s) => s.wallMs)),
      'ms',
    ),
    figure(
      'npm start to /readyz (fresh data folder), CPU time of the process tree, median',
      median(first.map((s) => s.cpuMs)),
      'ms',
    ),
    figure(
      'npm start to /readyz (existing data folder), CPU time of the process tree, median',
      median(later.map((s) => s.cpuMs)),
      'ms',
    ),
  ],
  {
    command: 'npm start',
    runs: RUNS,
    firstStart: first,
    laterStart: later,
  },
);
