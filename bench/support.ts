import { execFileSync, fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

/**
 * `BENCH_QUICK=1` (what `npm run bench -- --quick` sets): every benchmark runs at a smaller
 * size, as a smoke run of the harness. Its figures are not comparable with the targets.
 */
export const QUICK = process.env.BENCH_QUICK === '1';

/** A size or count: the environment variable `name` if set, else the full or the quick value. */
export function setting(name: string, full: number, quick: number): number {
  const value = process.env[name];
  return value === undefined || value === '' ? (QUICK ? quick : full) : Number(value);
}

/** One line of progress on stderr (stdout is the benchmark's JSON). */
export function progress(benchmark: string, message: string): void {
  const seconds = Math.round(performance.now() / 1000);
  process.stderr.write(`  ${benchmark} +${seconds}s: ${message}\n`);
}

const loadAverage = () => os.loadavg().map((l) => Math.round(l * 100) / 100);
const loadAverageAtStart = loadAverage();

/** What a benchmark ran on, printed with its figures; load average 1/5/15 min at start and end. */
export function machine() {
  return {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(os.totalmem() / 2 ** 30),
    node: process.version,
    driver: process.env.DATABASE_URL ? 'postgres' : 'pglite',
    loadAverage: { start: loadAverageAtStart, end: loadAverage() },
  };
}

/** Where a figure must be: at most or at least a value, and the document that sets it. */
export type Target = ({ atMost: number } | { atLeast: number }) & { source: string };

/** One measured figure with its unit, its target if it has one, and whether it meets it. */
export interface Figure {
  readonly name: string;
  /** Null when it could not be measured here (the note says why). */
  readonly value: number | null;
  readonly unit: string;
  readonly target: Target | null;
  /** Null without a target or a value. */
  readonly pass: boolean | null;
  readonly note?: string;
}

export function meets(value: number, target: Target): boolean {
  return 'atMost' in target ? value <= target.atMost : value >= target.atLeast;
}

/** Declares a figure; its value is rounded to two decimals. */
export function figure(
  name: string,
  value: number | null,
  unit: string,
  target: Target | null = null,
  note?: string,
): Figure {
  const rounded = value === null || Number.isNaN(value) ? null : Math.round(value * 100) / 100;
  return {
    name,
    value: rounded,
    unit,
    target,
    pass: rounded === null || target === null ? null : meets(rounded, target),
    ...(note ? { note } : {}),
  };
}

/**
 * Prints a benchmark's JSON on stdout: its name, the machine, its figures (what
 * `npm run bench` collects), then its own details. The whole of stdout is this one object.
 */
export function printReport(
  benchmark: string,
  figures: Figure[],
  details: Record<string, unknown>,
) {
  const out = { benchmark, machine: machine(), quick: QUICK, figures, ...details };
  process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
}

/**
 * A process of bench/ (a gateway, a peer server, a load generator) that speaks over IPC:
 * `next(type)` resolves with its next message of that type and rejects if it exits first.
 * Its stdout goes to stderr, so that stdout stays the benchmark's JSON.
 */
export function benchProcess(
  file: string,
  options: { execArgv?: string[]; env?: Record<string, string> } = {},
) {
  const child = fork(fileURLToPath(new URL(file, import.meta.url)), [], {
    execArgv: ['--import', 'tsx', ...(options.execArgv ?? [])],
    env: { ...process.env, ...options.env },
    stdio: ['ignore', 2, 'inherit', 'ipc'],
  });
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const next = <T = any>(type: string) =>
    new Promise<T>((resolve, reject) => {
      if (exited) return reject(new Error(`${file} has exited`));
      const onMessage = (message: { type: string }) => {
        if (message.type !== type) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(message as T);
      };
      const onExit = (code: number | null) => {
        child.off('message', onMessage);
        reject(new Error(`${file} exited (${code}) before sending ${type}`));
      };
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  return {
    child,
    next,
    send: (message: Record<string, unknown>) => child.send(message),
    /** Asks it to stop and waits until it has exited. */
    async stop() {
      if (exited) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.send({ type: 'stop' });
      await gone;
    },
  };
}

/**
 * The young-generation size `npm start` runs the gateway with; the servers a benchmark compares
 * it against run with it too.
 */
export const YOUNG_GENERATION = '--max-semi-space-size=64';

/** The env of a bench gateway whose callers go as fast as they can: no rate per credential. */
export const UNLIMITED_RATE = { SWITCHBOARD_MAX_REQUESTS_PER_SECOND: '0' };

/**
 * A gateway on port 0 over DATABASE_URL (or in-memory PGlite), in a child process so the
 * benchmark's clients do not compete with it for its event loop. `env` reaches its config
 * (bench/gateway-process.ts reads the environment as `npm start` does).
 */
export async function benchGateway(options: { env?: Record<string, string> } = {}) {
  const gateway = benchProcess('./gateway-process.ts', {
    execArgv: [
      YOUNG_GENERATION,
      '--expose-gc',
      ...(process.env.PROFILE ? ['--cpu-prof', '--cpu-prof-dir=/tmp/prof'] : []),
    ],
    env: options.env,
  });
  const { url, adminToken } = await gateway.next<{ url: string; adminToken: string }>('ready');
  const gql = async (
    query: string,
    variables: Record<string, unknown> = {},
    token = adminToken,
  ) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await response.json()) as { data?: any; errors?: unknown[] };
    if (body.errors) throw new Error(JSON.stringify(body.errors));
    return body.data;
  };
  return {
    url,
    wsUrl: url.replace('http', 'ws'),
    adminToken,
    /** The gateway process's id (its CPU time is in /proc/<pid>/stat). */
    pid: gateway.child.pid as number,
    gql,
    /** The gateway process's heap after two full GCs. */
    async heapUsed(): Promise<number> {
      const reply = gateway.next<{ heapUsed: number }>('heap');
      gateway.send({ type: 'heap' });
      return (await reply).heapUsed;
    },
    stop: gateway.stop,
    /** Sends `signal` to the gateway process (a fault: `SIGKILL` is `kill -9`). */
    kill: (signal: NodeJS.Signals) => gateway.child.kill(signal),
    /** Resolves once the gateway process has exited, however it ended. */
    exited: () =>
      new Promise<void>((resolve) => {
        if (gateway.child.exitCode !== null || gateway.child.signalCode !== null) resolve();
        else gateway.child.once('exit', () => resolve());
      }),
  };
}

/** Polls `condition` every few milliseconds until it holds; throws after `timeoutMs`. */
export async function until(condition: () => boolean, what: string, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** Milliseconds since the epoch, comparable between processes (performance.now() is not). */
export const now = () => performance.timeOrigin + performance.now();

/** The soft limit on open files of this process (children inherit it), from /proc. */
export function openFileLimit(): number {
  const limits = readFileSync('/proc/self/limits', 'utf8');
  return Number(/^Max open files\s+(\d+)/m.exec(limits)?.[1] ?? Number.POSITIVE_INFINITY);
}

/**
 * Raises this process's limit on open files to at least `wanted` (the processes it starts
 * after inherit it), as `ulimit -n` would: with util-linux's prlimit, which may raise the hard
 * limit too when run as root. Returns the limit in force after.
 */
export function raiseOpenFileLimit(wanted: number): number {
  const limit = openFileLimit();
  if (limit >= wanted) return limit;
  try {
    execFileSync('prlimit', ['--pid', String(process.pid), `--nofile=${wanted}:${wanted}`], {
      stdio: 'ignore',
    });
  } catch {
    // Not root, or no prlimit: the caller says what to raise.
  }
  return openFileLimit();
}

/** Where a set of subscribers connects: a gateway's socket URL and the token to present. */
export interface SubscriberTarget {
  readonly wsUrl: string;
  readonly token: string;
  readonly count: number;
}

/**
 * graphql-ws subscribers, each on its own socket, spread over `processes` child processes
 * (bench/subscriber-process.ts) so that receiving does not share an event loop with the
 * gateway or the benchmark. Every subscriber runs the same subscription; each event's
 * receipt is stamped with `now()` and read back by the value of `key` in the payload.
 */
export async function startSubscribers(targets: SubscriberTarget[], processes: number) {
  // Subscriber k goes to process k mod processes, so each target is spread evenly.
  const shares = Array.from({ length: processes }, () => new Map<SubscriberTarget, number>());
  let k = 0;
  for (const target of targets) {
    for (let n = 0; n < target.count; n++) {
      const share = shares[k++ % processes] as Map<SubscriberTarget, number>;
      share.set(target, (share.get(target) ?? 0) + 1);
    }
  }
  const pool = shares
    .filter((share) => share.size > 0)
    .map((share) => ({
      share: [...share].map(([target, count]) => ({ ...target, count })),
      worker: benchProcess('./subscriber-process.ts'),
    }));
  const all = async <T>(type: string, message: (share: SubscriberTarget[]) => object) => {
    const replies = pool.map(({ worker }) => worker.next<T>(type));
    for (const { share, worker } of pool) worker.send({ ...message(share), type });
    return Promise.all(replies);
  };
  return {
    count: targets.reduce((sum, t) => sum + t.count, 0),
    /** Opens every socket (connection_init acknowledged), none subscribed yet. */
    connect: () => all('connect', (share) => ({ targets: share })),
    /** Subscribes on every socket; resolves once each subscription has received an event. */
    subscribe: (query: string, variables: Record<string, unknown>, key: string) =>
      all('subscribe', () => ({ query, variables, key })),
    /** Every subscriber's receipt time of the event whose key is `value`, once all have it. */
    async receipts(value: string, timeoutMs = 120_000): Promise<number[]> {
      const replies = await all<{ times: number[] }>('receipts', () => ({ value, timeoutMs }));
      return replies.flatMap((r) => r.times);
    },
    async close() {
      await Promise.all(pool.map(({ worker }) => worker.stop()));
    },
  };
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round((sorted[index] ?? Number.NaN) * 100) / 100;
}

export const summary = (values: number[]) => ({
  n: values.length,
  p50: percentile(values, 50),
  p99: percentile(values, 99),
  max: percentile(values, 100),
});

/** Creates a goal with `count` agents (agent-0000 …) and a registered provider; returns its token. */
export async function seedGoal(
  gql: Awaited<ReturnType<typeof benchGateway>>['gql'],
  count: number,
  provider: { supportsPinnedWaits: boolean } = { supportsPinnedWaits: true },
) {
  const goalId = `bench-${randomUUID().slice(0, 8)}`;
  await gql(
    `mutation($g: ID!) { createGoal(input: { goalId: $g, title: "bench" }) { __typename } }`,
    { g: goalId },
  );
  const agentIds = Array.from({ length: count }, (_, i) => `agent-${String(i).padStart(4, '0')}`);
  for (let i = 0; i < agentIds.length; i += 20) {
    const slice = agentIds.slice(i, i + 20);
    const mutation = `mutation { ${slice
      .map(
        (id, j) =>
          `a${j}: registerAgent(input: { goalId: "${goalId}", agentId: "${id}", agentModel: "m", hostSurface: "cli" }) { __typename }`,
      )
      .join(' ')} }`;
    await gql(mutation);
  }
  const providerId = `prov-${randomUUID().slice(0, 8)}`;
  const issued = await gql(
    `mutation($input: IssueCredentialInput!) { issueCredential(input: $input) { token } }`,
    { input: { kind: 'PROVIDER', providerId, goalIds: [goalId] } },
  );
  const token = issued.issueCredential.token as string;
  await gql(
    `mutation($input: RegisterProviderInput!) { registerProvider(input: $input) { providerId } }`,
    {
      input: {
        providerId,
        instanceId: 'bench',
        membershipProof: 'bench',
        identifierRules: 'bench',
        livenessMapping: [],
        presenceTtlMs: 3_600_000,
        observationSources: [],
        supportsPinnedWaits: provider.supportsPinnedWaits,
        persistence: 'none',
      },
    },
    token,
  );
  let reportSeq = 0;
  /** One batched report of `agents` at `liveness`, through `via` (another instance) if given. */
  const report = (agents: string[], liveness: string, via = gql) =>
    via(
      `mutation($r: [PresenceReportInput!]!) { reportPresence(reports: $r) { __typename } }`,
      {
        r: agents.map((agentId) => ({
          goalId,
          agentId,
          providerSessionRef: `loc-${agentId}`,
          occupantRef: `occ-${agentId}`,
          liveness,
          observedAt: new Date().toISOString(),
          basis: 'PROVIDER_DETECTION',
          reportSeq: String(++reportSeq),
        })),
      },
      token,
    );
  return { goalId, agentIds, providerId, token, report };
}

export type Subscribers = Awaited<ReturnType<typeof startSubscribers>>;

/** The subscription the wait benchmarks hold: a wait's status, PENDING then its outcome. */
export const WAIT_SUBSCRIPTION = `subscription($input: WaitInput) { waitForAgent(input: $input) { ... on Wait { status } } }`;

/** The subscription the fan-out benchmarks hold: every presence change of a goal. */
export const PRESENCE_SUBSCRIPTION = `subscription($g: ID!) { presenceChanged(goalId: $g, after: "0") {
  seq agentId presence { liveness stateChangeSeq observedAt } } }`;

/**
 * Fan-out of one presence change at a time to every subscriber of a goal whose agent 0 already
 * has one change (seq 1, so that subscribing proves each subscription live): for each of
 * `rounds` changes, numbered on from `first`, the milliseconds from sending the report to each
 * subscriber's receipt. `report` sends change `round` (to whichever instance it chooses).
 */
export async function fanOut(
  subscribers: Subscribers,
  rounds: number,
  report: (liveness: string, round: number) => Promise<unknown>,
  first = 1,
): Promise<number[]> {
  const latencies: number[] = [];
  for (let round = first; round < first + rounds; round++) {
    const start = now();
    await report(round % 2 ? 'IDLE' : 'WORKING', round);
    const receipts = await subscribers.receipts(String(round + 1));
    for (const at of receipts) latencies.push(at - start);
  }
  return latencies;
}

/**
 * `warmUp` rounds of fanOut, then `rounds` timed on their own: the first rounds after the
 * subscribers join are slower while V8 compiles the per-subscriber path (and each instance's
 * report path), and a gateway serves its subscribers long after that. A summary of each.
 */
export async function warmedFanOut(
  subscribers: Subscribers,
  warmUp: number,
  rounds: number,
  report: (liveness: string, round: number) => Promise<unknown>,
) {
  const warmUpMs = summary(await fanOut(subscribers, warmUp, report));
  const fanOutMs = summary(await fanOut(subscribers, rounds, report, warmUp + 1));
  return { warmUpMs, fanOutMs };
}
