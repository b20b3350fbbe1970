/**
 * Presence: fan-out of one change to 1,000 graphql-ws subscribers (each on its own socket, in
 * a client process of their own), from sending the report to each subscriber receiving it;
 * and ingest throughput with batched reports from several providers at once. Then the floor, in
 * the same run: the same subscribers on a bare `ws` server sending one frame (bareWsFanOut), and
 * the fan-out's p99 as a ratio of the floor's.
 *
 *   npm run bench:presence                          # PGlite
 *   DATABASE_URL=postgres://… npm run bench:presence
 *
 * Options (env): SUBSCRIBERS (1000), ROUNDS (19), WARM_UP (5), CLIENT_PROCESSES (1 per 2,500
 * subscribers).
 *
 * The fan-out is timed after WARM_UP rounds, reported apart (`warmUpMs`, bench/support.ts
 * `warmedFanOut`): in one run the last receipt of rounds 1–3 came at 70–86 ms, from round 5 on
 * at 27–36 ms.
 */
import { bareWsFanOut, ratio } from './floors.ts';
import {
  benchGateway,
  figure,
  PRESENCE_SUBSCRIPTION,
  printReport,
  progress,
  seedGoal,
  setting,
  startSubscribers,
  warmedFanOut,
} from './support.ts';

const SUBSCRIBERS = setting('SUBSCRIBERS', 1000, 200);
const ROUNDS = setting('ROUNDS', 19, 5);
const WARM_UP = setting('WARM_UP', 5, 1);
const CLIENT_PROCESSES = setting('CLIENT_PROCESSES', Math.ceil(SUBSCRIBERS / 2500), 1);

const { wsUrl, adminToken, gql, stop } = await benchGateway();

// ---- fan-out -------------------------------------------------------------------------
const fan = await seedGoal(gql, 4);
const agent = fan.agentIds[0] as string;
await fan.report([agent], 'WORKING');
progress('presence', `${SUBSCRIBERS} subscribers connecting`);
const subscribers = await startSubscribers(
  [{ wsUrl, token: adminToken, count: SUBSCRIBERS }],
  CLIENT_PROCESSES,
);
await subscribers.connect();
await subscribers.subscribe(PRESENCE_SUBSCRIPTION, { g: fan.goalId }, 'presenceChanged.seq');
const change = (liveness: string) => fan.report([agent], liveness);
progress('presence', `fan-out, ${WARM_UP} rounds to warm up, then ${ROUNDS} timed`);
const { warmUpMs, fanOutMs } = await warmedFanOut(subscribers, WARM_UP, ROUNDS, change);
await subscribers.close();

// ---- ingest --------------------------------------------------------------------------
const PROVIDERS = 4;
const AGENTS = 250;
const BATCH = 250;
const BATCHES = setting('BATCHES', 20, 5);
progress('presence', `ingest, ${PROVIDERS} providers × ${BATCHES} batches of ${BATCH}`);
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
await stop();

// ---- the floor: the same subscribers on a bare ws server, with the gateway stopped ----
progress('presence', `the same ${SUBSCRIBERS} subscribers on a bare ws server`);
const floor = await bareWsFanOut(SUBSCRIBERS, CLIENT_PROCESSES, WARM_UP, ROUNDS);

printReport(
  'presence',
  [
    figure(`fan-out to ${SUBSCRIBERS} subscribers, report → receipt p50`, fanOutMs.p50, 'ms'),
    figure(`fan-out to ${SUBSCRIBERS} subscribers, report → receipt p99`, fanOutMs.p99, 'ms', {
      atMost: 50,
      source: 'issue 17',
    }),
    figure(
      `fan-out to ${SUBSCRIBERS} subscribers, p99 ÷ the bare ws floor's p99`,
      ratio(fanOutMs.p99, floor.p99),
      '×',
      { atMost: 1.3, source: 'issue 40' },
    ),
    figure('ingest, batched reports', reports / ingestSeconds, 'reports/s', {
      atLeast: 2000,
      source: 'PERFORMANCE.md',
    }),
  ],
  {
    fanOut: {
      subscribers: SUBSCRIBERS,
      sockets: SUBSCRIBERS,
      clientProcesses: CLIENT_PROCESSES,
      rounds: ROUNDS,
      reportToReceiptMs: fanOutMs,
      warmUpRounds: WARM_UP,
      warmUpMs,
      bareWsServerSendToReceiptMs: floor,
    },
    ingest: {
      providers: PROVIDERS,
      reportsPerBatch: BATCH,
      reports,
      seconds: Math.round(ingestSeconds * 100) / 100,
    },
  },
);
process.exit(0);
