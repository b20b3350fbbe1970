/**
 * Pending waits at scale on one instance: a thousandth… all of WAITS (1,000, 10,000 and
 * 100,000) identity-pinned waits held at once over SOCKETS graphql-ws sockets, on a goal of
 * AGENTS agents, one wait in ten on any of three agents. At each size: the gateway's heap per
 * pending wait, and one report that settles one agent's share of them (about WAITS ÷ AGENTS,
 * 1,000 at the largest), report → every SATISFIED received, p50 and p99; then the growth from
 * the smallest size to the largest.
 *
 *   npm run bench:waits-scale                          # PGlite
 *   DATABASE_URL=postgres://… npm run bench:waits-scale
 *
 * Options (env): WAITS (100000), AGENTS (100), SOCKETS (50).
 */
import { type Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { ratio } from './floors.ts';
import {
  benchGateway,
  figure,
  printReport,
  progress,
  seedGoal,
  setting,
  summary,
  UNLIMITED_RATE,
  until,
  WAIT_SUBSCRIPTION,
} from './support.ts';

const WAITS = setting('WAITS', 100_000, 2000);
const SIZES = [WAITS / 100, WAITS / 10, WAITS].map(Math.round);
const AGENTS = setting('AGENTS', 100, 20);
const SOCKETS = setting('SOCKETS', 50, 4);
/** Waits started at once before their PENDING is awaited. */
const CHUNK = 2000;

const { wsUrl, adminToken, gql, heapUsed, stop } = await benchGateway({ env: UNLIMITED_RATE });
const { goalId, agentIds, report } = await seedGoal(gql, AGENTS);
await report(agentIds, 'WORKING');

const clients: Client[] = Array.from({ length: SOCKETS }, () =>
  createClient({
    url: wsUrl,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    connectionParams: { authorization: `Bearer ${adminToken}` },
  }),
);

/** Waits started, pending, and the time each one's outcome arrived (by wait number). */
let started = 0;
let pending = 0;
const outcomes = new Map<number, { status: string; at: number }>();
/** The agents wait `n` is on: one agent, or any of three for one wait in ten. */
const agentsOf = (n: number): string[] => {
  const at = (k: number) => agentIds[k % AGENTS] as string;
  return n % 10 === 9 ? [at(n), at(n + 1), at(n + 2)] : [at(n)];
};

function startWait(n: number) {
  const agents = agentsOf(n);
  const input = {
    goalId,
    ...(agents.length === 1 ? { agentId: agents[0] } : { agentIds: agents }),
    accept: ['IDLE'],
    timeoutMs: 3_600_000,
  };
  (clients[n % SOCKETS] as Client).subscribe<{ waitForAgent: { status: string } }>(
    {
      query: WAIT_SUBSCRIPTION,
      variables: { input },
    },
    {
      next: ({ data }) => {
        const status = data?.waitForAgent.status as string;
        if (status === 'PENDING') pending++;
        else outcomes.set(n, { status, at: performance.now() });
      },
      error: (error) => {
        throw error;
      },
      complete: () => {},
    },
  );
}

/** Starts waits up to `total`, CHUNK at a time, each chunk pending before the next. */
async function holdWaits(total: number) {
  while (started < total) {
    const end = Math.min(total, started + CHUNK);
    for (; started < end; started++) startWait(started);
    await until(() => pending === started, `${started} waits to be pending`, 120_000);
  }
}

/** One report of `agentId` going IDLE: report → each of its pending waits SATISFIED. */
async function settle(agentId: string) {
  const mine: number[] = [];
  for (let n = 0; n < started; n++)
    if (!outcomes.has(n) && agentsOf(n).includes(agentId)) mine.push(n);
  const start = performance.now();
  await report([agentId], 'IDLE');
  await until(() => mine.every((n) => outcomes.has(n)), `${mine.length} waits to settle`, 60_000);
  const wrong = mine.filter((n) => outcomes.get(n)?.status !== 'SATISFIED').length;
  return {
    settled: mine.length,
    wrong,
    ms: summary(mine.map((n) => (outcomes.get(n)?.at as number) - start)),
  };
}

// Warm the sockets and the wait path before the first heap reading.
await holdWaits(Math.min(200, Math.floor((SIZES[0] as number) / 2)));
const sizes = [];
for (const [i, size] of SIZES.entries()) {
  const heapBefore = await heapUsed();
  const from = started;
  progress('waits-scale', `${size.toLocaleString('en-US')} waits pending`);
  const startedAt = performance.now();
  await holdWaits(size);
  const startMs = Math.round(performance.now() - startedAt);
  const heapPerWait = Math.round(((await heapUsed()) - heapBefore) / (started - from));
  // A different agent each time: its share of every wait held so far.
  progress('waits-scale', `one report settling ${agentIds[i]}'s waits`);
  sizes.push({ size, startMs, heapPerWait, ...(await settle(agentIds[i] as string)) });
}
for (const client of clients) await client.dispose();
await stop();

const [smallest, , largest] = sizes as [(typeof sizes)[number], unknown, (typeof sizes)[number]];
const wrong = sizes.reduce((n, s) => n + s.wrong, 0);
printReport(
  'waits-scale',
  [
    ...sizes.flatMap(({ size, heapPerWait, settled, ms }) => [
      figure(
        `gateway heap per pending wait, ${size} pending`,
        heapPerWait,
        'bytes',
        size === WAITS ? { atMost: 4 * 1024, source: 'issue 40' } : undefined,
      ),
      figure(`one report settling ${settled} of ${size} pending waits, p50`, ms.p50, 'ms'),
      figure(
        `one report settling ${settled} of ${size} pending waits, p99`,
        ms.p99,
        'ms',
        size === WAITS ? { atMost: 150, source: 'issue 40' } : undefined,
      ),
    ]),
    figure(
      `settling p99, ${largest.size} ÷ ${smallest.size} pending (${largest.settled / smallest.settled} × the waits settled)`,
      ratio(largest.ms.p99, smallest.ms.p99),
      'ratio',
    ),
  ],
  { agents: AGENTS, sockets: SOCKETS, anyOfThree: 'one wait in ten', sizes, notSatisfied: wrong },
);
if (wrong > 0) console.error(`${wrong} waits ended other than SATISFIED`);
process.exit(wrong > 0 ? 1 : 0);
