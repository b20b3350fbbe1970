/**
 * `npm run faults`: the fault suite of issue 11. Gateways run as child processes
 * (bench/gateway-process.ts) on a Postgres cluster of the suite's own (15/sbfaults on port
 * 5499, created once with `pg_createcluster`, started here and stopped at the end; the main
 * cluster is never touched), clients in this process. Five scenarios:
 *
 * - listen-kill: bursts of `pg_terminate_backend` of every doorbell connection every few ms
 *   for BURST_MS, RUNS times; after each, every instance must listen again (`/readyz` 200);
 * - restart: the cluster stopped and started at once, RESTARTS times; time from the database
 *   accepting writes again to streams resuming and to waits resolving;
 * - outage: the same with the cluster held down OUTAGE_MS (the gateways' reconnect path);
 * - kill-9: one of two instances `kill -9`-ed; its clients resume on the other from cursors;
 * - writers: WRITERS concurrent writers through both instances while streams follow.
 *
 * Each counts lost, duplicated and wrong outcomes (stream events against a reference read of
 * the whole stream, wait outcomes against what was written), time to resume, and revoked
 * credentials' streams still open REVOKE_DEADLINE_MS after the revocation committed. Progress
 * on stderr, one JSON object on stdout; exit code 1 if any count is not 0. Needs root
 * (pg_createcluster, pg_ctlcluster). `BENCH_QUICK=1` runs it small; `--only a,b` some scenarios.
 */
import { execFile, execFileSync } from 'node:child_process';
import { parseArgs, promisify } from 'node:util';

import { type Client, createClient } from 'graphql-ws';
import postgres from 'postgres';
import WebSocket from 'ws';
import {
  benchGateway,
  figure,
  now,
  printReport,
  progress,
  seedGoal,
  setting,
  summary,
  until,
} from './support.ts';

const CLUSTER = ['15', 'sbfaults'] as const;
const PORT = 5499;
const DATABASE = 'switchboard_faults';
const SERVER_URL = `postgres://postgres@127.0.0.1:${PORT}/postgres`;
const DATABASE_URL = `postgres://postgres@127.0.0.1:${PORT}/${DATABASE}`;
// The gateways read it (bench/gateway-process.ts), and the report names the driver by it.
process.env.DATABASE_URL = DATABASE_URL;

const RUNS = setting('RUNS', 15, 2);
const BURST_MS = setting('BURST_MS', 2500, 1000);
const KILL_EVERY_MS = setting('KILL_EVERY_MS', 5, 5);
const RESTARTS = setting('RESTARTS', 3, 1);
const OUTAGE_MS = setting('OUTAGE_MS', 3000, 1000);
const WRITERS = setting('WRITERS', 8, 8);
const WRITE_MS = setting('WRITE_MS', 5000, 1500);
const FOLLOWERS = setting('FOLLOWERS', 4, 2);
const WAITS = setting('WAITS', 4, 2);
/** How long after a revocation commits its streams may stay open (issue 11: a few seconds). */
const REVOKE_DEADLINE_MS = setting('REVOKE_DEADLINE_MS', 10_000, 10_000);
/** The longest any single recovery may take before the suite calls it lost. */
const RECOVERY_DEADLINE_MS = 30_000;

/** In the order run: kill-9 ends an instance, so it is last. */
const SCENARIOS = ['listen-kill', 'restart', 'outage', 'writers', 'kill-9'] as const;
type ScenarioName = (typeof SCENARIOS)[number];
const { values } = parseArgs({ options: { only: { type: 'string' } } });
const only = (values.only?.split(',').map((s) => s.trim()) ?? [...SCENARIOS]) as ScenarioName[];
const unknown = only.filter((name) => !SCENARIOS.includes(name));
if (unknown.length > 0) {
  console.error(`no fault scenario named ${unknown.join(', ')}; known: ${SCENARIOS.join(', ')}`);
  process.exit(2);
}

type Gateway = Awaited<ReturnType<typeof benchGateway>>;
type Goal = Awaited<ReturnType<typeof seedGoal>> & { steward?: string };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const say = (message: string) => progress('faults', message);

// ---------------------------------------------------------------- the cluster of its own

const cluster = (action: string, ...args: string[]) =>
  execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', ...CLUSTER, action, ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });

/** The same, without blocking the event loop: clients keep receiving while it runs. */
const clusterAsync = (action: string, ...args: string[]) =>
  promisify(execFile)('pg_ctlcluster', ['--skip-systemctl-redirect', ...CLUSTER, action, ...args]);

function clusterExists(): boolean {
  const listed = execFileSync('pg_lsclusters', ['--no-header'], { encoding: 'utf8' });
  return listed.split('\n').some((line) => line.split(/\s+/)[1] === CLUSTER[1]);
}

function clusterOnline(): boolean {
  const listed = execFileSync('pg_lsclusters', ['--no-header'], { encoding: 'utf8' });
  return listed.split('\n').some((line) => {
    const [, name, , status] = line.split(/\s+/);
    return name === CLUSTER[1] && status === 'online';
  });
}

let clusterStarted = false;
function startCluster(): void {
  if (!clusterExists()) {
    say(`creating cluster ${CLUSTER.join('/')} on port ${PORT}`);
    execFileSync('pg_createcluster', [...CLUSTER, '-p', String(PORT), '--', '--auth=trust'], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
  }
  if (!clusterOnline()) cluster('start');
  clusterStarted = true;
}

function stopCluster(): void {
  if (!clusterStarted) return;
  clusterStarted = false;
  try {
    if (clusterOnline()) cluster('stop', '-m', 'fast');
  } catch (error) {
    process.stderr.write(`faults: could not stop cluster ${CLUSTER.join('/')}: ${error}\n`);
  }
}

// ---------------------------------------------------------------- cleanup, even on failure

const gateways: Gateway[] = [];
const clients = new Set<Client>();
function cleanUp(): void {
  for (const client of clients) void client.dispose();
  for (const gateway of gateways) gateway.kill('SIGKILL');
  stopCluster();
}
process.on('exit', cleanUp);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => process.exit(130));
}

// ---------------------------------------------------------------- clients

interface Change {
  readonly seq: number;
  readonly agentId: string | null;
  readonly liveness: string | null;
}

const PRESENCE = `subscription($g: ID!, $after: Seq) { presenceChanged(goalId: $g, after: $after) {
  seq agentId presence { liveness } } }`;

/**
 * A client following a goal's presence stream from a cursor. On any error or close it
 * resubscribes after the last seq it received, on the next instance of `urls` in turn (an
 * instance that is gone fails to connect, and it moves on).
 */
class Follower {
  readonly received: Change[] = [];
  readonly errors: string[] = [];
  resubscriptions = 0;
  private cursor: string;
  private index = 0;
  private client: Client | null = null;
  private stopped = false;

  constructor(
    private urls: string[],
    private readonly token: string,
    private readonly goalId: string,
    after: string,
  ) {
    this.cursor = after;
    this.open();
  }

  get last(): number {
    return Number(this.cursor);
  }

  /** From now on it resumes only on these instances. */
  only(urls: string[]): void {
    this.urls = urls;
    this.index = 0;
  }

  private open(): void {
    if (this.stopped) return;
    const url = this.urls[this.index % this.urls.length] as string;
    const client = createClient({
      url,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { authorization: `Bearer ${this.token}` },
    });
    clients.add(client);
    this.client = client;
    let failed = false;
    const again = (why: string) => {
      if (failed || this.stopped) return;
      failed = true;
      this.errors.push(why);
      clients.delete(client);
      void client.dispose();
      this.resubscriptions++;
      this.index++;
      setTimeout(() => this.open(), 50);
    };
    client.subscribe<{
      presenceChanged: { seq: string; agentId: string | null; presence: { liveness: string } };
    }>(
      { query: PRESENCE, variables: { g: this.goalId, after: this.cursor } },
      {
        next: ({ data, errors }) => {
          if (errors || !data) return again(JSON.stringify(errors));
          const c = data.presenceChanged;
          this.received.push({
            seq: Number(c.seq),
            agentId: c.agentId,
            liveness: c.presence?.liveness ?? null,
          });
          this.cursor = c.seq;
        },
        error: (error) => again(describe(error)),
        complete: () => again('completed'),
      },
    );
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.client) {
      clients.delete(this.client);
      await this.client.dispose();
    }
  }
}

const describe = (error: unknown): string => {
  if (error instanceof Error) return error.message;
  const code = (error as { code?: number })?.code;
  return code !== undefined ? `socket closed ${code}` : JSON.stringify(error);
};

/** Reads a goal's whole presence stream from the start on `gateway`, up to the change `last`. */
async function referenceStream(
  gateway: Gateway,
  goalId: string,
  last: (change: Change) => boolean,
): Promise<Change[]> {
  const reader = new Follower([gateway.wsUrl], gateway.adminToken, goalId, '0');
  await until(
    () => reader.received.some(last),
    'the reference read to reach the last change',
    60_000,
  );
  await reader.stop();
  return reader.received;
}

interface StreamCounts {
  lost: number;
  duplicated: number;
  wrong: number;
}

/**
 * A follower's events against the reference: lost = a reference event after its start cursor
 * it never received; duplicated = an event received more than once; wrong = an event whose
 * content differs from the reference's at that seq, or out of order.
 */
function countStream(follower: Follower, start: number, reference: Change[]): StreamCounts {
  const bySeq = new Map(reference.map((c) => [c.seq, c]));
  const seen = new Set<number>();
  let duplicated = 0;
  let wrong = 0;
  let previous = start;
  for (const change of follower.received) {
    if (seen.has(change.seq)) duplicated++;
    else if (change.seq <= previous) wrong++;
    seen.add(change.seq);
    previous = Math.max(previous, change.seq);
    const expected = bySeq.get(change.seq);
    if (!expected || expected.agentId !== change.agentId || expected.liveness !== change.liveness)
      wrong++;
  }
  const lost = reference.filter((c) => c.seq > start && !seen.has(c.seq)).length;
  return { lost, duplicated, wrong };
}

/**
 * What writers wrote against the reference: every acknowledged change of an agent must be in
 * the stream, in the order acknowledged (a lost write is lost; another value is wrong).
 */
function countWrites(acked: Map<string, string[]>, reference: Change[]): StreamCounts {
  let lost = 0;
  let wrong = 0;
  for (const [agentId, written] of acked) {
    const streamed = reference.filter((c) => c.agentId === agentId).map((c) => c.liveness);
    const tail = streamed.slice(streamed.length - written.length);
    if (streamed.length < written.length) lost += written.length - streamed.length;
    wrong += tail.filter((liveness, i) => liveness !== written[i]).length;
  }
  return { lost, duplicated: 0, wrong };
}

/** A goal's writer: reports one agent's changes in turn, retrying each until acknowledged. */
class Writer {
  readonly acked = new Map<string, string[]>();
  retries = 0;
  refused = 0;
  private running = true;
  readonly done: Promise<void>;

  constructor(
    goal: Goal,
    agents: string[],
    via: () => Gateway,
    pauseMs: number,
    readonly onAck: (at: number) => void = () => {},
  ) {
    this.done = (async () => {
      for (let n = 0; this.running; n++) {
        const agentId = agents[n % agents.length] as string;
        const liveness = Math.floor(n / agents.length) % 2 ? 'WORKING' : 'IDLE';
        if (await report(goal, agentId, liveness, via, () => this.running, this)) {
          const list = this.acked.get(agentId) ?? [];
          list.push(liveness);
          this.acked.set(agentId, list);
          this.onAck(now());
        }
        if (pauseMs > 0) await sleep(pauseMs);
      }
    })();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.done;
  }
}

/**
 * Reports `liveness` of one agent, retrying through faults until acknowledged (true), or
 * until `go` turns false. A typed refusal counts in `counts.refused` (a wrong outcome).
 */
async function report(
  goal: Goal,
  agentId: string,
  liveness: string,
  via: () => Gateway,
  go: () => boolean = () => true,
  counts: { retries: number; refused: number } = { retries: 0, refused: 0 },
): Promise<boolean> {
  const deadline = Date.now() + RECOVERY_DEADLINE_MS;
  while (go() && Date.now() < deadline) {
    try {
      const result = await goal.report([agentId], liveness, via().gql);
      if (result.reportPresence.__typename === 'PresenceAccepted') return true;
      counts.refused++;
      return false;
    } catch {
      counts.retries++;
      await sleep(20);
    }
  }
  return false;
}

/** Retries `action` through faults until it succeeds; returns its result. */
async function retry<T>(action: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + RECOVERY_DEADLINE_MS;
  for (;;) {
    try {
      return await action();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await sleep(20);
    }
  }
}

/**
 * Pinned waits for DONE of `agents` (one each), started on `gateway`. Each follows its wait
 * by id on the next of `urls` when its socket goes. `outcomes` has each terminal status.
 */
class Waits {
  readonly outcomes = new Map<string, { status: string; at: number }>();
  readonly pending = new Set<string>();
  private readonly ids = new Map<string, string>();
  private urls: string[];

  private readonly token: string;

  constructor(
    gateway: Gateway,
    goal: Goal,
    private readonly agents: string[],
  ) {
    this.urls = [gateway.wsUrl];
    this.token = goal.steward as string;
    for (const agentId of agents)
      this.follow(agentId, 0, {
        input: { goalId: goal.goalId, agentId, accept: ['DONE'], timeoutMs: 600_000 },
      });
  }

  only(urls: string[]): void {
    this.urls = urls;
  }

  private follow(agentId: string, attempt: number, variables: Record<string, unknown>): void {
    const client = createClient({
      url: this.urls[attempt % this.urls.length] as string,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { authorization: `Bearer ${this.token}` },
    });
    clients.add(client);
    let over = false;
    const again = () => {
      if (over || this.outcomes.has(agentId)) return;
      over = true;
      clients.delete(client);
      void client.dispose();
      const waitId = this.ids.get(agentId);
      setTimeout(() => this.follow(agentId, attempt + 1, waitId ? { waitId } : variables), 50);
    };
    client.subscribe<{ waitForAgent: { id?: string; status?: string } }>(
      {
        query: `subscription($input: WaitInput, $waitId: ID) { waitForAgent(input: $input, waitId: $waitId) {
          __typename ... on Wait { id status } } }`,
        variables,
      },
      {
        next: ({ data }) => {
          const wait = data?.waitForAgent;
          if (!wait?.status || !wait.id) {
            this.outcomes.set(agentId, {
              status: String(wait && (wait as any).__typename),
              at: now(),
            });
            return;
          }
          this.ids.set(agentId, wait.id);
          if (wait.status === 'PENDING') this.pending.add(agentId);
          else if (!this.outcomes.has(agentId))
            this.outcomes.set(agentId, { status: wait.status, at: now() });
        },
        error: () => again(),
        complete: () => {
          if (!this.outcomes.has(agentId)) again();
          else {
            clients.delete(client);
            void client.dispose();
          }
        },
      },
    );
  }

  started = () =>
    until(() => this.pending.size === this.agents.length, 'every wait to be PENDING', 60_000);

  /** Wrong = not SATISFIED, or not settled by the deadline. */
  async wrong(): Promise<number> {
    await until(
      () => this.outcomes.size === this.agents.length,
      'every wait to settle',
      RECOVERY_DEADLINE_MS,
    ).catch(() => {});
    return this.agents.filter((a) => this.outcomes.get(a)?.status !== 'SATISFIED').length;
  }
}

/** A PEER credential's stream on each of `on`, to be revoked: its sockets must close. */
async function revocable(issuer: Gateway, goal: Goal, agentId: string, on: Gateway[]) {
  const issued = await issuer.gql(
    `mutation($input: IssueCredentialInput!) { issueCredential(input: $input) { token credential { id } } }`,
    { input: { kind: 'PEER', goalId: goal.goalId, agentId } },
  );
  const token = issued.issueCredential.token as string;
  const id = issued.issueCredential.credential.id as string;
  const sockets = on.map((gateway) => {
    const socket = { open: true, ended: false, closedAt: 0, subscribed: false, forgotten: false };
    const client = createClient({
      url: gateway.wsUrl,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: false,
      onNonLazyError: () => {},
      connectionParams: { authorization: `Bearer ${token}` },
      on: {
        closed: () => {
          if (socket.open) socket.closedAt = now();
          socket.open = false;
        },
      },
    });
    clients.add(client);
    client.subscribe(
      { query: PRESENCE, variables: { g: goal.goalId, after: '0' } },
      {
        next: () => {
          socket.subscribed = true;
        },
        error: () => {
          socket.ended = true;
        },
        complete: () => {
          socket.ended = true;
        },
      },
    );
    return { socket, client };
  });
  await until(
    () => sockets.every((s) => s.socket.subscribed),
    'the revocable streams to open',
    60_000,
  );
  let revokedAt = 0;
  const counted = () => sockets.filter((s) => !s.socket.forgotten);
  return {
    /** Drops the streams on instances that are gone (not counted either way). */
    forget(gateway: Gateway) {
      const i = on.indexOf(gateway);
      if (i >= 0) sockets[i]!.socket.forgotten = true;
    },
    async revoke(via: () => Gateway) {
      // From the attempt that succeeded: the commit is between it and its answer.
      await retry(() => {
        revokedAt = now();
        return via().gql(`mutation($id: ID!) { revokeCredential(id: $id) { id } }`, { id });
      });
    },
    /** Sockets still open REVOKE_DEADLINE_MS after the revocation, and how long closing took. */
    async stillOpen() {
      await until(
        () => counted().every((s) => !s.socket.open),
        'revoked sockets to close',
        REVOKE_DEADLINE_MS,
      ).catch(() => {});
      const open = counted().filter((s) => s.socket.open).length;
      const closeMs = counted()
        .filter((s) => s.socket.closedAt > 0)
        .map((s) => s.socket.closedAt - revokedAt);
      for (const s of sockets) {
        clients.delete(s.client);
        await s.client.dispose();
      }
      return { open, closeMs };
    },
  };
}

async function readyz(gateway: Gateway): Promise<number> {
  try {
    return (await fetch(gateway.url.replace(/\/graphql$/, '/readyz'))).status;
  } catch {
    return 0;
  }
}

/**
 * When /readyz first answered 200 after `since()` became non-zero (the database accepting
 * writes again, seen by the caller's own probe); NaN when it did not within the deadline.
 */
async function untilReadyAfter(gateway: Gateway, since: () => number): Promise<number> {
  const deadline = Date.now() + RECOVERY_DEADLINE_MS;
  while (Date.now() < deadline) {
    const watching = since() > 0;
    if (watching && (await readyz(gateway)) === 200) return now();
    await sleep(watching ? 10 : 2);
  }
  return Number.NaN;
}

async function untilReady(gateway: Gateway, timeoutMs = RECOVERY_DEADLINE_MS): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if ((await readyz(gateway)) === 200) return true;
    await sleep(10);
  }
  return false;
}

// ---------------------------------------------------------------- one scenario's outcome

interface Outcome {
  readonly name: ScenarioName;
  readonly runs: number;
  readonly lost: number;
  readonly duplicated: number;
  readonly wrong: number;
  readonly revokedStillOpen: number;
  readonly resumeMs: ReturnType<typeof summary> | null;
  readonly details: Record<string, unknown>;
}

/** A goal with `writers`+`waits` agents at WORKING, its streams and waits, ready for a fault. */
async function stage(gateway: Gateway, agents: number, waits: number) {
  const goal = await seedGoal(gateway.gql, agents + waits + 1);
  for (const agentId of goal.agentIds) await report(goal, agentId, 'WORKING', () => gateway);
  // Each instance has its own operator token; a credential is good on every instance.
  const issued = await gateway.gql(
    `mutation($input: IssueCredentialInput!) { issueCredential(input: $input) { token } }`,
    { input: { kind: 'STEWARD', goalIds: [goal.goalId] } },
  );
  return { ...goal, steward: issued.issueCredential.token as string };
}

async function settle(
  goal: Goal,
  followers: { follower: Follower; start: number }[],
  via: Gateway,
  acked: Map<string, string[]>,
) {
  // A last change through a healthy instance: every follower must reach it.
  const marker = goal.agentIds.at(-1) as string;
  await report(goal, marker, 'IDLE', () => via);
  const reference = await referenceStream(
    via,
    goal.goalId,
    (c) => c.agentId === marker && c.liveness === 'IDLE',
  );
  const last = reference.at(-1)?.seq ?? 0;
  await until(
    () => followers.every(({ follower }) => follower.last >= last),
    'every follower to reach the head',
    RECOVERY_DEADLINE_MS,
  ).catch(() => {});
  const counts = { lost: 0, duplicated: 0, wrong: 0 };
  for (const { follower, start } of followers) {
    const c = countStream(follower, start, reference);
    counts.lost += c.lost;
    counts.duplicated += c.duplicated;
    counts.wrong += c.wrong;
    await follower.stop();
  }
  const w = countWrites(acked, reference);
  return {
    lost: counts.lost + w.lost,
    duplicated: counts.duplicated,
    wrong: counts.wrong + w.wrong,
    events: reference.length,
  };
}

// ---------------------------------------------------------------- the scenarios

/** (a) Bursts of kills of every doorbell connection; each instance must listen again. */
async function listenKill([a, b]: Gateway[]): Promise<Outcome> {
  const admin = postgres(DATABASE_URL, { max: 1, onnotice: () => {} });
  const totals = { lost: 0, duplicated: 0, wrong: 0, revokedStillOpen: 0 };
  const relistenMs: number[] = [];
  const resumeMs: number[] = [];
  const waitMs: number[] = [];
  const revokeCloseMs: number[] = [];
  let notListening = 0;
  let kills = 0;
  const wrongBy = { streams: 0, waits: 0, refusedWrites: 0 };
  try {
    for (let run = 1; run <= RUNS; run++) {
      const goal = await stage(a!, 3, WAITS);
      const writerAgents = goal.agentIds.slice(0, 2);
      const resumeAgent = goal.agentIds[2] as string;
      const waitAgents = goal.agentIds.slice(3, 3 + WAITS);
      const head = goal.agentIds.length;
      const followers = Array.from({ length: FOLLOWERS }, (_, i) => {
        const g = i % 2 ? b! : a!;
        return {
          follower: new Follower([g.wsUrl], goal.steward as string, goal.goalId, String(head)),
          start: head,
        };
      });
      const waits = new Waits(a!, goal, waitAgents);
      await waits.started();
      const revoked = await revocable(a!, goal, goal.agentIds[0] as string, [a!, b!]);
      const writer = new Writer(goal, writerAgents, () => (run % 2 ? a! : b!), 50);
      // The burst: terminate every doorbell connection of the cluster every few ms.
      const burstEnd = Date.now() + BURST_MS;
      let revokedMidBurst = false;
      while (Date.now() < burstEnd) {
        const killed = await admin`select pg_terminate_backend(pid) from pg_stat_activity
          where application_name like 'switchboard-doorbell-%' and pid <> pg_backend_pid()`;
        kills += killed.length;
        if (!revokedMidBurst && Date.now() > burstEnd - BURST_MS / 2) {
          revokedMidBurst = true;
          void revoked.revoke(() => a!);
        }
        await sleep(KILL_EVERY_MS);
      }
      const after = now();
      for (const g of [a!, b!]) {
        if (await untilReady(g)) relistenMs.push(now() - after);
        else notListening++;
      }
      // Streams resume: a change written now reaches every follower.
      const before = Math.max(...followers.map((f) => f.follower.last));
      const writtenAt = now();
      if (await report(goal, resumeAgent, 'DONE', () => a!))
        writer.acked.set(resumeAgent, ['DONE']);
      await until(
        () => followers.every((f) => f.follower.last > before),
        'followers to resume',
        RECOVERY_DEADLINE_MS,
      ).catch(() => {});
      resumeMs.push(now() - writtenAt);
      await writer.stop();
      const doneAt = now();
      for (const agentId of waitAgents) await report(goal, agentId, 'DONE', () => b!);
      const wrongWaits = await waits.wrong();
      waitMs.push(...[...waits.outcomes.values()].map((o) => o.at - doneAt));
      const counts = await settle(goal, followers, a!, writer.acked);
      const { open, closeMs } = await revoked.stillOpen();
      revokeCloseMs.push(...closeMs);
      totals.lost += counts.lost;
      totals.duplicated += counts.duplicated;
      totals.wrong += counts.wrong + wrongWaits + writer.refused;
      totals.revokedStillOpen += open;
      wrongBy.streams += counts.wrong;
      wrongBy.waits += wrongWaits;
      wrongBy.refusedWrites += writer.refused;
      say(
        `listen-kill run ${run}/${RUNS}: listening again after ${Math.round(relistenMs.at(-1) ?? -1)} ms, lost ${counts.lost}, revoked open ${open}`,
      );
    }
  } finally {
    await admin.end({ timeout: 1 });
  }
  return {
    name: 'listen-kill',
    runs: RUNS,
    ...totals,
    wrong: totals.wrong + notListening,
    resumeMs: summary(resumeMs),
    details: {
      burstMs: BURST_MS,
      killEveryMs: KILL_EVERY_MS,
      connectionsTerminated: kills,
      instancesNotListeningAfterBurst: notListening,
      wrongBy,
      burstEndToReadyMs: summary(relistenMs),
      changeAfterBurstToEveryFollowerMs: summary(resumeMs),
      doneToWaitSatisfiedMs: summary(waitMs),
      revocationToSocketClosedMs: summary(revokeCloseMs),
    },
  };
}

/**
 * (b) The cluster stopped, held down `downMs`, and started: from writes accepted again to
 * streams and waits.
 */
async function restart(
  [a, b]: Gateway[],
  name: 'restart' | 'outage',
  downMs: number,
): Promise<Outcome> {
  const totals = { lost: 0, duplicated: 0, wrong: 0, revokedStillOpen: 0 };
  const writesBackMs: number[] = [];
  const resumeMs: number[] = [];
  const waitMs: number[] = [];
  const readyMs: number[] = [];
  const revokeCloseMs: number[] = [];
  for (let run = 1; run <= RESTARTS; run++) {
    const goal = await stage(a!, 2, WAITS);
    const writerAgents = goal.agentIds.slice(0, 2);
    const waitAgents = goal.agentIds.slice(2, 2 + WAITS);
    const head = goal.agentIds.length;
    const followers = Array.from({ length: FOLLOWERS }, (_, i) => {
      const g = i % 2 ? b! : a!;
      return {
        follower: new Follower([g.wsUrl], goal.steward as string, goal.goalId, String(head)),
        start: head,
      };
    });
    const waits = new Waits(a!, goal, waitAgents);
    await waits.started();
    const revoked = await revocable(a!, goal, goal.agentIds[0] as string, [a!, b!]);
    let lastAck = 0;
    const writer = new Writer(
      goal,
      writerAgents,
      () => a!,
      50,
      (at) => {
        lastAck = at;
      },
    );
    await until(() => lastAck > 0, 'the writer to write');
    say(`${name} ${run}/${RESTARTS}: stopping the cluster`);
    const stoppedAt = now();
    await clusterAsync('stop', '-m', 'fast');
    // Whatever was committed before the stop has arrived by now (the database is down).
    const before = Math.max(...followers.map((f) => f.follower.last));
    // Watch for the first write the database accepts again, from a connection of our own.
    let writesBackAt = 0;
    const watcher = (async () => {
      for (;;) {
        const probe = postgres(DATABASE_URL, { max: 1, onnotice: () => {}, connect_timeout: 1 });
        try {
          await probe`create temporary table faults_probe (n int)`;
          await probe`insert into faults_probe values (1)`;
          writesBackAt = now();
          return;
        } catch {
          await sleep(5);
        } finally {
          await probe.end({ timeout: 0 });
        }
      }
    })();
    // Streams resume: the writer's first change after the restart reaches every follower.
    // Stamped as it arrives, and /readyz polled, while pg_ctlcluster is still starting: it
    // returns about 2 s after Postgres accepts connections, and timing from its return would
    // count those 2 s as the gateway's.
    const resumed = new Map<Follower, number>();
    const resuming = until(
      () => {
        for (const { follower } of followers)
          if (!resumed.has(follower) && follower.last > before) resumed.set(follower, now());
        return resumed.size === followers.length;
      },
      'followers to resume',
      RECOVERY_DEADLINE_MS,
    ).catch(() => {});
    const readiness = untilReadyAfter(a!, () => writesBackAt);
    await sleep(downMs);
    const started = clusterAsync('start');
    await watcher;
    writesBackMs.push(writesBackAt - stoppedAt);
    await resuming;
    resumeMs.push(Math.max(...[...resumed.values()].map((at) => at - writesBackAt)));
    const readyAt = await readiness;
    readyMs.push(readyAt - writesBackAt);
    await Promise.all(waitAgents.map((agentId) => report(goal, agentId, 'DONE', () => b!)));
    const wrongWaits = await waits.wrong();
    waitMs.push(Math.max(...[...waits.outcomes.values()].map((o) => o.at - writesBackAt)));
    await started;
    await revoked.revoke(() => a!);
    await writer.stop();
    const counts = await settle(goal, followers, a!, writer.acked);
    const { open, closeMs } = await revoked.stillOpen();
    revokeCloseMs.push(...closeMs);
    totals.lost += counts.lost + (followers.length - resumed.size);
    totals.duplicated += counts.duplicated;
    totals.wrong += counts.wrong + wrongWaits + writer.refused;
    totals.revokedStillOpen += open;
    say(
      `${name} ${run}/${RESTARTS}: writes back after ${Math.round(writesBackMs.at(-1)!)} ms, streams resumed ${Math.round(resumeMs.at(-1)!)} ms later`,
    );
  }
  return {
    name,
    runs: RESTARTS,
    ...totals,
    resumeMs: summary(resumeMs),
    details: {
      stopToWritesAcceptedMs: summary(writesBackMs),
      writesAcceptedToStreamsResumedMs: summary(resumeMs),
      writesAcceptedToWaitsResolvedMs: summary(waitMs),
      writesAcceptedToReadyzMs: summary(readyMs),
      revocationToSocketClosedMs: summary(revokeCloseMs),
    },
  };
}

/** (c) kill -9 of one of two instances: its clients resume on the other from their cursors. */
async function kill9([a, b]: Gateway[]): Promise<Outcome> {
  const goal = await stage(b!, 2, WAITS);
  const writerAgents = goal.agentIds.slice(0, 2);
  const waitAgents = goal.agentIds.slice(2, 2 + WAITS);
  const head = goal.agentIds.length;
  const followers = Array.from({ length: FOLLOWERS }, () => ({
    follower: new Follower([a!.wsUrl, b!.wsUrl], goal.steward as string, goal.goalId, String(head)),
    start: head,
  }));
  const waits = new Waits(a!, goal, waitAgents);
  await waits.started();
  const revoked = await revocable(b!, goal, goal.agentIds[0] as string, [a!, b!]);
  const writer = new Writer(goal, writerAgents, () => b!, 50);
  await sleep(500);
  say('kill-9: killing one instance');
  const before = Math.max(...followers.map((f) => f.follower.last));
  gateways.splice(gateways.indexOf(a!), 1);
  const killedAt = now();
  a!.kill('SIGKILL');
  await a!.exited();
  revoked.forget(a!);
  for (const { follower } of followers) follower.only([b!.wsUrl]);
  waits.only([b!.wsUrl]);
  const resumed = new Map<Follower, number>();
  await until(
    () => {
      for (const { follower } of followers)
        if (!resumed.has(follower) && follower.last > before) resumed.set(follower, now());
      return resumed.size === followers.length;
    },
    'followers to resume on the other instance',
    RECOVERY_DEADLINE_MS,
  ).catch(() => {});
  const resumeMs = [...resumed.values()].map((at) => at - killedAt);
  const doneAt = now();
  await Promise.all(waitAgents.map((agentId) => report(goal, agentId, 'DONE', () => b!)));
  const wrongWaits = await waits.wrong();
  const waitMs = [...waits.outcomes.values()].map((o) => o.at - doneAt);
  await revoked.revoke(() => b!);
  await writer.stop();
  const counts = await settle(goal, followers, b!, writer.acked);
  const { open, closeMs } = await revoked.stillOpen();
  return {
    name: 'kill-9',
    runs: 1,
    lost: counts.lost + (followers.length - resumed.size),
    duplicated: counts.duplicated,
    wrong: counts.wrong + wrongWaits + writer.refused,
    revokedStillOpen: open,
    resumeMs: summary(resumeMs),
    details: {
      followers: FOLLOWERS,
      resubscriptions: followers.reduce((n, f) => n + f.follower.resubscriptions, 0),
      killToEveryFollowerResumedMs: summary(resumeMs),
      doneToWaitSatisfiedMs: summary(waitMs),
      revocationToSocketClosedMs: summary(closeMs),
      events: counts.events,
    },
  };
}

/** (d) WRITERS concurrent writers through both instances while streams follow. */
async function writers([a, b]: Gateway[]): Promise<Outcome> {
  const perWriter = 3;
  const goal = await stage(a!, WRITERS * perWriter, WAITS);
  const waitAgents = goal.agentIds.slice(WRITERS * perWriter, WRITERS * perWriter + WAITS);
  const head = goal.agentIds.length;
  const followers = Array.from({ length: FOLLOWERS }, (_, i) => {
    const g = i % 2 ? b! : a!;
    return {
      follower: new Follower([g.wsUrl], goal.steward as string, goal.goalId, String(head)),
      start: head,
    };
  });
  const waits = new Waits(b!, goal, waitAgents);
  await waits.started();
  const revoked = await revocable(a!, goal, goal.agentIds[0] as string, [a!, b!]);
  say(`writers: ${WRITERS} writers for ${WRITE_MS} ms`);
  const started = now();
  const all = Array.from(
    { length: WRITERS },
    (_, w) =>
      new Writer(
        goal,
        goal.agentIds.slice(w * perWriter, (w + 1) * perWriter),
        () => (w % 2 ? b! : a!),
        0,
      ),
  );
  await sleep(WRITE_MS / 2);
  await revoked.revoke(() => a!);
  const doneAt = now();
  await Promise.all(waitAgents.map((agentId) => report(goal, agentId, 'DONE', () => a!)));
  await sleep(WRITE_MS / 2);
  await Promise.all(all.map((w) => w.stop()));
  const seconds = (now() - started) / 1000;
  const wrongWaits = await waits.wrong();
  const waitMs = [...waits.outcomes.values()].map((o) => o.at - doneAt);
  const acked = new Map<string, string[]>();
  for (const w of all) for (const [agentId, list] of w.acked) acked.set(agentId, list);
  const writes = [...acked.values()].reduce((n, l) => n + l.length, 0);
  const counts = await settle(goal, followers, a!, acked);
  const { open, closeMs } = await revoked.stillOpen();
  return {
    name: 'writers',
    runs: 1,
    lost: counts.lost,
    duplicated: counts.duplicated,
    wrong: counts.wrong + wrongWaits + all.reduce((n, w) => n + w.refused, 0),
    revokedStillOpen: open,
    resumeMs: null,
    details: {
      writers: WRITERS,
      writes,
      writesPerSecond: Math.round(writes / seconds),
      followers: FOLLOWERS,
      events: counts.events,
      doneToWaitSatisfiedMs: summary(waitMs),
      revocationToSocketClosedMs: summary(closeMs),
    },
  };
}

// ---------------------------------------------------------------- the run

const run: Record<ScenarioName, (g: Gateway[]) => Promise<Outcome>> = {
  'listen-kill': listenKill,
  restart: (g) => restart(g, 'restart', 0),
  outage: (g) => restart(g, 'outage', OUTAGE_MS),
  writers,
  'kill-9': kill9,
};

let exitCode = 0;
/** Gateway processes that ended by themselves during the suite (a crash is a failure). */
let crashed = 0;
try {
  startCluster();
  const server = postgres(SERVER_URL, { max: 1, onnotice: () => {} });
  await server.unsafe(`drop database if exists ${DATABASE} with (force)`);
  await server.unsafe(`create database ${DATABASE}`);
  await server.end();
  say('two gateways starting');
  const env = { DATABASE_URL };
  for (const g of await Promise.all([benchGateway({ env }), benchGateway({ env })])) {
    gateways.push(g);
    // A gateway that ends while it is still in `gateways` crashed (kill-9 removes its victim first).
    void g.exited().then(() => {
      if (gateways.includes(g)) crashed++;
    });
  }
  const outcomes: Outcome[] = [];
  for (const name of SCENARIOS.filter((s) => only.includes(s))) {
    say(`${name}`);
    outcomes.push(await run[name]([...gateways]));
  }
  const bad = outcomes.filter((o) => o.lost + o.duplicated + o.wrong + o.revokedStillOpen > 0);
  exitCode = bad.length > 0 || crashed > 0 ? 1 : 0;
  const zero = { atMost: 0, source: 'issue 11' };
  printReport(
    'faults',
    outcomes
      .flatMap((o) => [
        figure(
          `${o.name}: lost + duplicated + wrong outcomes`,
          o.lost + o.duplicated + o.wrong,
          'count',
          zero,
        ),
        figure(`${o.name}: revoked sockets still open`, o.revokedStillOpen, 'count', zero),
        ...(o.resumeMs ? [figure(`${o.name}: time to resume, max`, o.resumeMs.max, 'ms')] : []),
      ])
      .concat(figure('gateway processes that crashed', crashed, 'count', zero)),
    { cluster: `${CLUSTER.join('/')} port ${PORT}`, gatewaysCrashed: crashed, scenarios: outcomes },
  );
  const stopping = [...gateways];
  gateways.length = 0;
  await Promise.all(stopping.map((g) => g.stop()));
} catch (error) {
  process.stderr.write(`faults: ${error instanceof Error ? error.stack : describe(error)}\n`);
  exitCode = 1;
}
process.exit(exitCode);
