/**
 * Presence: fan-out of one change to 1,000 graphql-ws subscribers (each on its own socket),
 * from sending the report to each subscriber receiving it; and ingest throughput with batched
 * reports from several providers at once.
 *
 *   npx tsx bench/presence.ts                       # PGlite
 *   DATABASE_URL=postgres://… npx tsx bench/presence.ts
 */
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { benchGateway, machine, seedGoal, summary } from './support.ts';

const SUBSCRIBERS = Number(process.env.SUBSCRIBERS ?? 1000);
const ROUNDS = 20;

const { wsUrl, adminToken, gql, stop } = await benchGateway();

// ---- fan-out -------------------------------------------------------------------------
const fan = await seedGoal(gql, 4);
const arrivals: number[][] = Array.from({ length: ROUNDS + 1 }, () => []);
const clients = Array.from({ length: SUBSCRIBERS }, () =>
  createClient({
    url: wsUrl,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    connectionParams: { authorization: `Bearer ${adminToken}` },
  }),
);
for (const client of clients) {
  client.subscribe<{ presenceChanged: { seq: string } }>(
    {
      query: `subscription($g: ID!) { presenceChanged(goalId: $g, after: "0") { seq agentId presence { liveness stateChangeSeq observedAt } } }`,
      variables: { g: fan.goalId },
    },
    {
      next: ({ data }) => arrivals[Number(data?.presenceChanged.seq)]?.push(performance.now()),
      error: (error) => {
        throw error;
      },
      complete: () => {},
    },
  );
}
async function until(condition: () => boolean, what: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
// Round 0 proves every subscription is live before timing starts.
await fan.report([fan.agentIds[0] as string], 'WORKING');
await until(
  () => (arrivals[0]?.length ?? 0) + (arrivals[1]?.length ?? 0) >= SUBSCRIBERS,
  'all subscribers',
);
const fanOut: number[] = [];
for (let round = 2; round <= ROUNDS; round++) {
  const start = performance.now();
  await fan.report([fan.agentIds[0] as string], round % 2 ? 'WORKING' : 'IDLE');
  await until(() => (arrivals[round]?.length ?? 0) === SUBSCRIBERS, `round ${round}`);
  fanOut.push(...(arrivals[round] ?? []).map((at) => at - start));
}
await Promise.all(clients.map((client) => client.dispose()));

// ---- ingest --------------------------------------------------------------------------
const PROVIDERS = 4;
const AGENTS = 250;
const BATCH = 250;
const BATCHES = 20;
const goals = await Promise.all(Array.from({ length: PROVIDERS }, () => seedGoal(gql, AGENTS)));
const ingestStart = performance.now();
await Promise.all(
  goals.map(async (goal) => {
    for (let b = 0; b < BATCHES; b++) {
      await goal.report(
        goal.agentIds.slice(0, BATCH),
        b % 3 === 0 ? 'WORKING' : b % 3 === 1 ? 'IDLE' : 'DONE',
      );
    }
  }),
);
const ingestSeconds = (performance.now() - ingestStart) / 1000;
const reports = PROVIDERS * BATCHES * BATCH;

console.log(
  JSON.stringify(
    {
      benchmark: 'presence',
      machine: machine(),
      fanOut: {
        subscribers: SUBSCRIBERS,
        sockets: SUBSCRIBERS,
        rounds: ROUNDS - 1,
        reportToReceiptMs: summary(fanOut),
        target: { p99Ms: 100 },
      },
      ingest: {
        providers: PROVIDERS,
        reportsPerBatch: BATCH,
        reports,
        seconds: Math.round(ingestSeconds * 100) / 100,
        reportsPerSecond: Math.round(reports / ingestSeconds),
        target: { reportsPerSecond: 2000 },
      },
    },
    null,
    2,
  ),
);
await stop();
process.exit(0);
