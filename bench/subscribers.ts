/**
 * 10,000 graphql-ws subscribers on one gateway instance, each on its own socket, spread over
 * client processes (so the load generator shares no event loop with the gateway): fan-out of
 * one presence change, report → receipt; and the gateway's heap per idle connection (socket
 * open, connection_init acknowledged) and per idle subscription on it, each after full GCs.
 * Then the floor, for comparison: the same subscribers on a bare `ws` server that sends one
 * frame, serialized once, to every socket (bench/raw-broadcast-process.ts).
 *
 *   npm run bench:subscribers                          # PGlite
 *   DATABASE_URL=postgres://… npm run bench:subscribers
 *
 * Every socket is a file descriptor in the gateway: `ulimit -n` must exceed SUBSCRIBERS.
 * Options (env): SUBSCRIBERS (10000), ROUNDS (10), WARM_UP (2), CLIENT_PROCESSES (1 per 2,500
 * subscribers). The fan-out is timed after WARM_UP rounds, reported apart, as in bench:presence.
 */
import { bareWsFanOut, ratio } from './floors.ts';
import {
  benchGateway,
  figure,
  openFileLimit,
  PRESENCE_SUBSCRIPTION,
  printReport,
  progress,
  seedGoal,
  setting,
  startSubscribers,
  warmedFanOut,
} from './support.ts';

const SUBSCRIBERS = setting('SUBSCRIBERS', 10_000, 1000);
const ROUNDS = setting('ROUNDS', 10, 3);
const WARM_UP = setting('WARM_UP', 2, 1);
const CLIENT_PROCESSES = setting('CLIENT_PROCESSES', Math.ceil(SUBSCRIBERS / 2500), 1);

const files = openFileLimit();
if (files < SUBSCRIBERS + 500) {
  console.error(
    `bench:subscribers opens ${SUBSCRIBERS} sockets in one gateway process, but the limit on open files is ${files}: raise it (ulimit -n ${SUBSCRIBERS + 1000})`,
  );
  process.exit(2);
}

const { wsUrl, adminToken, gql, heapUsed, stop } = await benchGateway();
const goal = await seedGoal(gql, 4);
const agent = goal.agentIds[0] as string;
await goal.report([agent], 'WORKING');

// Warm the gateway's socket and subscription paths before the first heap reading.
const warm = await startSubscribers([{ wsUrl, token: adminToken, count: 10 }], 1);
await warm.connect();
await warm.subscribe(PRESENCE_SUBSCRIPTION, { g: goal.goalId }, 'presenceChanged.seq');
await warm.close();

const heapBefore = await heapUsed();
progress('subscribers', `${SUBSCRIBERS} sockets connecting over ${CLIENT_PROCESSES} processes`);
const subscribers = await startSubscribers(
  [{ wsUrl, token: adminToken, count: SUBSCRIBERS }],
  CLIENT_PROCESSES,
);
await subscribers.connect();
const heapConnected = await heapUsed();
progress('subscribers', `${SUBSCRIBERS} subscriptions starting`);
await subscribers.subscribe(PRESENCE_SUBSCRIPTION, { g: goal.goalId }, 'presenceChanged.seq');
const heapSubscribed = await heapUsed();
const change = (liveness: string) => goal.report([agent], liveness);
progress('subscribers', `fan-out, ${WARM_UP} rounds to warm up, then ${ROUNDS} timed`);
const { warmUpMs, fanOutMs } = await warmedFanOut(subscribers, WARM_UP, ROUNDS, change);
await subscribers.close();
await stop();

// The floor: the same subscribers on a bare ws server that sends each event, serialized once.
progress('subscribers', `the same over a bare ws server (bench/raw-broadcast-process.ts)`);
const floor = await bareWsFanOut(SUBSCRIBERS, CLIENT_PROCESSES, WARM_UP, ROUNDS);

const perConnection = (heapConnected - heapBefore) / SUBSCRIBERS;
const perSubscription = (heapSubscribed - heapConnected) / SUBSCRIBERS;
printReport(
  'subscribers',
  [
    figure(`fan-out to ${SUBSCRIBERS} subscribers, report → receipt p50`, fanOutMs.p50, 'ms'),
    figure(`fan-out to ${SUBSCRIBERS} subscribers, report → receipt p99`, fanOutMs.p99, 'ms', {
      atMost: 250,
      source: 'issue 17',
    }),
    figure(
      `bare ws server, one frame to ${SUBSCRIBERS} sockets, send → receipt p50`,
      floor.p50,
      'ms',
    ),
    figure(
      `bare ws server, one frame to ${SUBSCRIBERS} sockets, send → receipt p99`,
      floor.p99,
      'ms',
    ),
    figure(
      `fan-out to ${SUBSCRIBERS} subscribers, p99 ÷ the bare ws floor's p99`,
      ratio(fanOutMs.p99, floor.p99),
      '×',
      { atMost: 1.3, source: 'issue 40' },
    ),
    figure('gateway heap per idle subscription', perSubscription, 'bytes', {
      atMost: 8 * 1024,
      source: 'issue 17',
    }),
    figure('gateway heap per idle connection (socket, before subscribing)', perConnection, 'bytes'),
  ],
  {
    subscribers: SUBSCRIBERS,
    sockets: SUBSCRIBERS,
    clientProcesses: CLIENT_PROCESSES,
    openFileLimit: files,
    rounds: ROUNDS,
    reportToReceiptMs: fanOutMs,
    warmUpRounds: WARM_UP,
    warmUpMs,
    bareWsServerSendToReceiptMs: floor,
    gatewayHeapBytes: { before: heapBefore, connected: heapConnected, subscribed: heapSubscribed },
  },
);
process.exit(0);
