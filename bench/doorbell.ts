/**
 * `npm run bench:doorbell`: the doorbells side by side at fleet write rates. For each doorbell
 * — none (no ring at all: every stream polls each second; the floor, and the baseline of commit
 * latency), LISTEN/NOTIFY, and NATS (a nats-server of its own) — three gateway processes on one
 * fresh Postgres database, GOALS goals with SUBSCRIBERS_PER_GOAL presence subscribers each,
 * spread over the instances (bench/doorbell-subscribers.ts, a process of their own), and
 * writers reporting presence changes over every goal through the instances in turn, at rising
 * offered rates (RATES commits/s, STEP_S seconds each, after WARM_S seconds at the first rate that
 * are not recorded; one write in flight per goal, so a goal's writes keep their order). Per
 * doorbell and rate:
 *
 * - commits/s sustained, and commit latency p50/p99 (a report's request to its response) against
 *   the same rate with no doorbell;
 * - commit acknowledged → every subscriber's receipt, p50/p99;
 * - CPU (cores) of each gateway process, of this database's Postgres backends, of the writers
 *   and of the subscribers; and CPU per commit (gateways, Postgres), which the machine's other
 *   load does not move as it moves latency;
 * - lost wake-ups: subscribers whose stream did not reach their goal's last commit within
 *   GRACE_S seconds of the step's end, and the events they lack.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench:doorbell
 *
 * DATABASE_URL names the server (a database `bench_doorbell_*` is created and dropped per
 * doorbell). Options (env): GOALS (60), SUBSCRIBERS_PER_GOAL (3), RATES (250,500,1000,2000,3000),
 * STEP_S (8), WARM_S (5), GRACE_S (5), DOORBELLS (none,postgres,nats; one named twice runs twice,
 * each on stderr, its last run in the JSON). JSON on stdout.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import postgres from 'postgres';
import { RINGS_SETTING } from '../src/db/database.ts';
import { DOORBELL_CHANNEL, ringSql } from '../src/events/doorbell.ts';
import {
  benchGateway,
  benchProcess,
  figure,
  now,
  percentile,
  printReport,
  progress,
  QUICK,
  seedGoal,
  setting,
} from './support.ts';

const server = process.env.DATABASE_URL;
if (!server) {
  console.error('bench:doorbell runs three gateways on one Postgres: set DATABASE_URL');
  process.exit(2);
}
const INSTANCES = 3;
const GOALS = setting('GOALS', 60, 12);
const PER_GOAL = setting('SUBSCRIBERS_PER_GOAL', 3, 3);
const STEP_S = setting('STEP_S', 8, 2);
const GRACE_S = setting('GRACE_S', 5, 5);
const WARM_S = setting('WARM_S', 5, 2);
const RATES = (process.env.RATES ?? (QUICK ? '100,200' : '250,500,1000,2000,3000'))
  .split(',')
  .map(Number);
type Bell = 'none' | 'postgres' | 'nats';
const DOORBELLS = (process.env.DOORBELLS ?? 'none,postgres,nats').split(',') as Bell[];
const CLIENTS = (process.env.CLIENTS ?? (QUICK ? '1,8' : '1,4,16,64')).split(',').map(Number);
const PARTS = (process.env.PARTS ?? 'database,gateways').split(',');

const say = (message: string) => progress('doorbell', message);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// ------------------------------------------------------------------ CPU from /proc

const TICKS = 100; // USER_HZ on Linux
function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / TICKS; // utime + stime
  } catch {
    return 0; // gone
  }
}

// ------------------------------------------------------------------ a NATS server of its own

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

async function startNats(): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const child: ChildProcess = spawn('nats-server', ['-a', '127.0.0.1', '-p', String(port)], {
    stdio: 'ignore',
  });
  for (let i = 0; ; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1');
      socket.once('connect', () => resolve(socket.destroy() !== undefined));
      socket.once('error', () => resolve(false));
    });
    if (up) break;
    if (i > 200 || child.exitCode !== null) throw new Error('nats-server did not start');
    await sleep(25);
  }
  return {
    url: `nats://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await gone;
    },
  };
}

// ------------------------------------------------------------------ the database alone

/**
 * What each doorbell costs the database's commits, with no gateway in the way: pgbench clients
 * (C, prepared) each committing one statement that moves a stream head of one of 1,000 goals
 * and rings as the gateway does (`ringSql`, inlined) — by NOTIFY (three sessions LISTENing, as
 * three gateways do), returned (what NATS costs Postgres), or not at all.
 */
interface DatabaseStep {
  readonly clients: number;
  readonly commitsPerSecond: number;
  readonly commitMs: { p50: number; p99: number };
}

function ringStatement(ring: boolean): string {
  const goal = sql.raw("'bg-' || :g");
  const rung = ring ? sql`, ${ringSql('presence', goal, sql.raw('head.seq'))}` : sql``;
  const query = new PgDialect().sqlToQuery(sql`with head as (
      insert into stream_heads (goal_id, stream, seq) values (${goal}, 'presence', 1)
      on conflict (goal_id, stream) do update set seq = stream_heads.seq + 1 returning seq)
    select head.seq${rung} from head`);
  // pgbench takes no parameters of ours: the literals go in the text.
  return query.sql.replace(/\$(\d+)/g, (_, n) => {
    const value = String(query.params[Number(n) - 1]);
    return `'${value.replaceAll("'", "''")}'`;
  });
}

async function databaseLevel(): Promise<Record<string, DatabaseStep[]>> {
  const admin = postgres(server as string, { max: 1, onnotice: () => {} });
  const name = `bench_doorbell_db_${process.pid}`;
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.unsafe(`create database ${name}`);
  const url = new URL(server as string);
  url.pathname = `/${name}`;
  await admin.end();
  const db = postgres(url.toString(), { max: 1, onnotice: () => {} });
  await db`create table stream_heads (goal_id text, stream text, seq bigint not null default 0,
    primary key (goal_id, stream))`;
  const listeners = Array.from({ length: INSTANCES }, () =>
    postgres(url.toString(), { max: 1, onnotice: () => {} }),
  );
  for (const listener of listeners) await listener.listen(DOORBELL_CHANNEL, () => {});
  const folder = mkdtempSync(path.join(os.tmpdir(), 'bench-doorbell-'));
  const results: Record<string, DatabaseStep[]> = {};
  const modes = { none: false, postgres: true, nats: true } as const;
  try {
    for (const bell of DOORBELLS) {
      const script = path.join(folder, `${bell}.sql`);
      writeFileSync(script, `\\set g random(1, 1000)\n${ringStatement(modes[bell])};\n`);
      results[bell] = [];
      for (const clients of CLIENTS) {
        say(`database, ${bell}: ${clients} clients for ${STEP_S} s`);
        const prefix = path.join(folder, `${bell}-${clients}`);
        const { stdout } = await promisify(execFile)(
          'pgbench',
          ['-n', '-M', 'prepared', '-c', String(clients), '-j', String(Math.min(clients, 4))]
            .concat(['-T', String(STEP_S), '-f', script, '-l', `--log-prefix=${prefix}`])
            .concat([url.toString()]),
          {
            env: {
              ...process.env,
              // What a gateway on NATS sets on its connections: rings returned, no NOTIFY.
              PGOPTIONS: bell === 'nats' ? `-c ${RINGS_SETTING}=returned` : '',
            },
          },
        );
        const latencies: number[] = [];
        for (const file of readdirSync(folder).filter((f) => f.startsWith(`${bell}-${clients}.`))) {
          for (const line of readFileSync(path.join(folder, file), 'utf8').split('\n')) {
            const micros = Number(line.split(' ')[2]);
            if (line && Number.isFinite(micros)) latencies.push(micros / 1000);
          }
        }
        const tps = Number(/tps = ([\d.]+)/.exec(stdout)?.[1] ?? Number.NaN);
        const step = {
          clients,
          commitsPerSecond: Math.round(tps),
          commitMs: { p50: percentile(latencies, 50), p99: percentile(latencies, 99) },
        };
        say(`database, ${bell}: ${JSON.stringify(step)}`);
        results[bell].push(step);
      }
    }
  } finally {
    for (const listener of listeners) await listener.end({ timeout: 0 });
    await db.end();
    rmSync(folder, { recursive: true, force: true });
    const cleanup = postgres(server as string, { max: 1, onnotice: () => {} });
    await cleanup.unsafe(`drop database if exists ${name} with (force)`);
    await cleanup.end();
  }
  return results;
}

// ------------------------------------------------------------------ one doorbell

interface Step {
  readonly offered: number;
  readonly commitsPerSecond: number;
  readonly commitMs: { p50: number; p99: number };
  readonly ringToSubscriberMs: { p50: number; p99: number; n: number };
  /** Cores used: each gateway, this database's Postgres backends, the writers and the subscribers. */
  readonly cpuCores: {
    gateways: number[];
    postgres: number;
    writers: number;
    subscribers: number;
  };
  /**
   * CPU per commit (ms): all gateways together, and Postgres. What a doorbell costs, apart from
   * how long commits wait for a core: on a shared machine latency moves with the other load.
   */
  readonly cpuMsPerCommit: { gateways: number; postgres: number };
  readonly lost: { subscribers: number; events: number };
}

const REPORT = `mutation($r: [PresenceReportInput!]!) { reportPresence(reports: $r) {
  __typename ... on PresenceAccepted { changed } } }`;

async function measure(bell: Bell): Promise<Step[]> {
  const admin = postgres(server as string, { max: 1, onnotice: () => {} });
  const name = `bench_doorbell_${bell}_${process.pid}`;
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.unsafe(`create database ${name}`);
  const url = new URL(server as string);
  url.pathname = `/${name}`;
  const nats = bell === 'postgres' ? null : await startNats();
  const env: Record<string, string> = {
    DATABASE_URL: url.toString(),
    SWITCHBOARD_DOORBELL: nats ? nats.url : 'postgres',
    SWITCHBOARD_RESPONSE_CACHE: 'off',
  };
  say(`${bell}: ${INSTANCES} gateways starting`);
  const gateways = await Promise.all(
    Array.from({ length: INSTANCES }, () => benchGateway({ env })),
  );
  // No doorbell: once NATS is gone no commit rings anything, and every stream polls each second.
  if (bell === 'none') await nats?.stop();
  const db = postgres(url.toString(), { max: 1, onnotice: () => {} });
  say(`${bell}: ${GOALS} goals, ${GOALS * PER_GOAL} subscribers`);
  const goals: Awaited<ReturnType<typeof seedGoal>>[] = [];
  for (let g = 0; g < GOALS; g++)
    goals.push(await seedGoal((gateways[0] as (typeof gateways)[0]).gql, 1));
  const subscribers = benchProcess('./doorbell-subscribers.ts');
  const targets = goals.flatMap((goal, g) =>
    Array.from({ length: PER_GOAL }, (_, k) => {
      const gateway = gateways[(g + k) % INSTANCES] as (typeof gateways)[0];
      return { wsUrl: gateway.wsUrl, token: gateway.adminToken, goalId: goal.goalId };
    }),
  );
  const subscriberGoal = targets.map((_, i) => Math.floor(i / PER_GOAL));
  const connected = subscribers.next('connect');
  subscribers.send({ type: 'connect', targets });
  await connected;
  const take = async () => {
    const reply = subscribers.next<{ receipts: number[]; last: number[] }>('take');
    subscribers.send({ type: 'take' });
    return reply;
  };

  /** Commits per goal so far (= its presence head), and each commit's acknowledgment time. */
  const written = goals.map(() => 0);
  const ackedAt = goals.map(() => new Map<number, number>());
  let writes = 0;
  const write = async (g: number) => {
    const goal = goals[g] as (typeof goals)[0];
    const gateway = gateways[writes++ % INSTANCES] as (typeof gateways)[0];
    const seq = (written[g] as number) + 1;
    const sent = now();
    const data = await gateway.gql(
      REPORT,
      {
        r: [
          {
            goalId: goal.goalId,
            agentId: goal.agentIds[0],
            providerSessionRef: 'loc',
            occupantRef: 'occ',
            liveness: seq % 2 ? 'WORKING' : 'IDLE',
            observedAt: new Date().toISOString(),
            basis: 'PROVIDER_DETECTION',
            reportSeq: String(seq),
          },
        ],
      },
      goal.token,
    );
    if (data.reportPresence.changed !== 1)
      throw new Error(`report not written: ${JSON.stringify(data)}`);
    const acked = now();
    written[g] = seq;
    (ackedAt[g] as Map<number, number>).set(seq, acked);
    return acked - sent;
  };
  const caughtUp = async (deadlineMs: number) => {
    const until = Date.now() + deadlineMs;
    for (;;) {
      const { receipts, last } = await take();
      collected.push(...receipts);
      const behind = last.filter(
        (seq, i) => seq < (written[subscriberGoal[i] as number] as number),
      );
      if (behind.length === 0 || Date.now() > until) {
        return {
          subscribers: behind.length,
          events: last.reduce(
            (sum, seq, i) =>
              sum + Math.max(0, (written[subscriberGoal[i] as number] as number) - seq),
            0,
          ),
        };
      }
      await sleep(100);
    }
  };
  let collected: number[] = [];

  /**
   * Offers `rate` commits/s for `stepSeconds` (one write in flight per goal: a goal still
   * writing is skipped, the next free one goes); each commit's latency, and the seconds taken.
   */
  const offer = async (rate: number, stepSeconds: number) => {
    const latencies: number[] = [];
    const busy = goals.map(() => false);
    let next = 0;
    let issued = 0;
    const start = performance.now();
    const inFlight = new Set<Promise<void>>();
    while (performance.now() - start < stepSeconds * 1000) {
      const due = Math.floor(((performance.now() - start) / 1000) * rate);
      // One write in flight per goal: a goal still writing is skipped, the next free one goes.
      for (let tried = 0; issued < due && tried < GOALS; tried++) {
        const g = next++ % GOALS;
        if (busy[g]) continue;
        busy[g] = true;
        issued++;
        const p = write(g).then(
          (ms) => {
            latencies.push(ms);
            busy[g] = false;
          },
          (error: unknown) => {
            throw error;
          },
        );
        inFlight.add(p);
        void p.finally(() => inFlight.delete(p));
      }
      await sleep(2);
    }
    await Promise.all(inFlight);
    return { latencies, seconds: (performance.now() - start) / 1000 };
  };

  // Warm-up: every goal's first change reaches every subscriber; then the first rate, unrecorded,
  // so that the first step does not pay for the processes' warm-up (JIT, connection pools).
  await Promise.all(goals.map((_, g) => write(g)));
  await caughtUp(30_000);
  if (WARM_S > 0) {
    say(`${bell}: warm-up, ${RATES[0]} commits/s offered for ${WARM_S} s`);
    await offer(RATES[0] as number, WARM_S);
    await caughtUp(GRACE_S * 1000);
  }

  const steps: Step[] = [];
  for (const rate of RATES) {
    say(`${bell}: ${rate} commits/s offered for ${STEP_S} s`);
    for (const a of ackedAt) a.clear();
    collected = [];
    const pgPids = (
      await db<{ pid: number }[]>`select pid from pg_stat_activity where datname = ${name}`
    ).map((r) => r.pid);
    // The writers (this process) and the subscribers share the machine with what they measure.
    const clientPids = [process.pid, subscribers.child.pid as number];
    const clientsBefore = clientPids.map(cpuSeconds);
    const cpuBefore = [...gateways.map((g) => cpuSeconds(g.pid)), ...pgPids.map(cpuSeconds)];
    const { latencies, seconds } = await offer(rate, STEP_S);
    const cpuAfter = [...gateways.map((g) => cpuSeconds(g.pid)), ...pgPids.map(cpuSeconds)];
    // CPU seconds each process used during the step: as cores, and per commit.
    const used = cpuAfter.map((after, i) => after - (cpuBefore[i] as number));
    const clientsUsed = clientPids.map((pid, i) => cpuSeconds(pid) - (clientsBefore[i] as number));
    const asCores = (cpu: number) => Math.round((cpu / seconds) * 100) / 100;
    const cores = used.map(asCores);
    const clients = clientsUsed.map(asCores);
    const cpuMs = (from: number, to?: number) =>
      latencies.length === 0
        ? 0
        : Math.round(
            (used.slice(from, to).reduce((sum, cpu) => sum + cpu, 0) * 1_000_000) /
              latencies.length,
          ) / 1000;
    const lost = await caughtUp(GRACE_S * 1000);
    const ring: number[] = [];
    for (let i = 0; i < collected.length; i += 3) {
      const goal = subscriberGoal[collected[i] as number] as number;
      const acked = ackedAt[goal]?.get(collected[i + 1] as number);
      if (acked !== undefined) ring.push(Math.max(0, (collected[i + 2] as number) - acked));
    }
    const step: Step = {
      offered: rate,
      commitsPerSecond: Math.round(latencies.length / seconds),
      commitMs: { p50: percentile(latencies, 50), p99: percentile(latencies, 99) },
      ringToSubscriberMs: { p50: percentile(ring, 50), p99: percentile(ring, 99), n: ring.length },
      cpuCores: {
        gateways: cores.slice(0, INSTANCES),
        postgres: Math.round(cores.slice(INSTANCES).reduce((a, b) => a + b, 0) * 100) / 100,
        writers: clients[0] as number,
        subscribers: clients[1] as number,
      },
      cpuMsPerCommit: { gateways: cpuMs(0, INSTANCES), postgres: cpuMs(INSTANCES) },
      lost,
    };
    say(`${bell}: ${JSON.stringify(step)}`);
    steps.push(step);
  }
  await subscribers.stop();
  await Promise.all(gateways.map((g) => g.stop()));
  await nats?.stop();
  await db.end();
  await admin.unsafe(`drop database if exists ${name} with (force)`);
  await admin.end();
  return steps;
}

const database = PARTS.includes('database') ? await databaseLevel() : {};
const results: Partial<Record<Bell, Step[]>> = {};
if (PARTS.includes('gateways')) for (const bell of DOORBELLS) results[bell] = await measure(bell);

/** Each step's commit p99 over the no-doorbell step at the same offered rate. */
const againstNone = (bell: Bell) =>
  (results[bell] ?? []).map((step, i) => {
    const base = results.none?.[i]?.commitMs.p99;
    return base ? Math.round((step.commitMs.p99 / base) * 100) / 100 : null;
  });
/** The fastest step a doorbell sustained (commits/s), with its figures. */
const best = (bell: Bell) =>
  (results[bell] ?? []).reduce<Step | null>(
    (top, step) => (top === null || step.commitsPerSecond > top.commitsPerSecond ? step : top),
    null,
  );
const lostOf = (bell: Bell) =>
  (results[bell] ?? []).reduce((sum, s) => sum + s.lost.subscribers, 0);

const figures = [];
for (const bell of DOORBELLS) {
  const top = best(bell);
  if (!top) continue;
  const i = (results[bell] ?? []).indexOf(top);
  figures.push(
    figure(
      `${bell}: commits/s sustained (best step)`,
      top.commitsPerSecond,
      'commits/s',
      bell === 'nats' ? { atLeast: 2000, source: 'issue 38' } : undefined,
    ),
    figure(`${bell}: commit p99 at that step`, top.commitMs.p99, 'ms'),
    figure(`${bell}: gateways' CPU per commit at that step`, top.cpuMsPerCommit.gateways, 'ms'),
    figure(
      `${bell}: ring → every subscriber p99 at that step`,
      top.ringToSubscriberMs.p99,
      'ms',
      bell === 'nats' ? { atMost: 50, source: 'issue 38' } : undefined,
    ),
  );
  if (bell !== 'none') {
    const ratio = againstNone(bell)[i];
    figures.push(
      ...(ratio === null || ratio === undefined
        ? []
        : [
            figure(
              `${bell}: commit p99 at that step × no doorbell's`,
              ratio,
              '×',
              bell === 'nats' ? { atMost: 1.1, source: 'issue 38' } : undefined,
            ),
          ]),
      figure(
        `${bell}: lost wake-ups (subscribers behind after ${GRACE_S} s)`,
        lostOf(bell),
        'count',
        { atMost: 0, source: 'issue 38' },
      ),
    );
  }
}

for (const bell of DOORBELLS) {
  const steps = database[bell] ?? [];
  steps.forEach((step, i) => {
    const base = database.none?.[i];
    figures.push(
      figure(
        `database, ${bell}, ${step.clients} clients: commits/s`,
        step.commitsPerSecond,
        'commits/s',
      ),
      figure(`database, ${bell}, ${step.clients} clients: commit p99`, step.commitMs.p99, 'ms'),
      ...(bell !== 'none' && base
        ? [
            figure(
              `database, ${bell}, ${step.clients} clients: commits/s × no doorbell's`,
              step.commitsPerSecond / base.commitsPerSecond,
              '×',
            ),
          ]
        : []),
    );
  });
}

printReport('doorbell', figures, {
  database,
  instances: INSTANCES,
  goals: GOALS,
  subscribers: GOALS * PER_GOAL,
  stepSeconds: STEP_S,
  warmSeconds: WARM_S,
  offeredRates: RATES,
  commitP99AgainstNone: Object.fromEntries(DOORBELLS.map((b) => [b, againstNone(b)])),
  doorbells: results,
});
process.exit(0);
