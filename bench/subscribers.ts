/**
 * graphql-ws subscribers on one gateway instance at three sizes (a tenth, half and all of
 * SUBSCRIBERS: 2,000, 10,000 and 20,000), each on its own socket, spread over client processes
 * (so the load generator shares no event loop with the gateway). At each size: fan-out of one
 * presence change, report → receipt; the gateway's heap per idle connection (socket open,
 * connection_init acknowledged) and per idle subscription on it, each after full GCs; and the
 * floor, the same subscribers on a bare `ws` server that sends one frame, serialized once, to
 * every socket (bench/raw-broadcast-process.ts). Then the growth of each between sizes.
 *
 *   npm run bench:subscribers                          # PGlite
 *   DATABASE_URL=postgres://… npm run bench:subscribers
 *
 * Every socket is a file descriptor in the gateway: the script raises its limit on open files
 * (`ulimit -n`, with prlimit; as root it may raise the hard limit too); where it cannot, the
 * largest size is what the limit allows, and it says so.
 * Options (env): SUBSCRIBERS (20000), ROUNDS (10), WARM_UP (2); client processes: 1 per 2,500
 * subscribers. The fan-out is timed after WARM_UP rounds, reported apart, as in bench:presence.
 */
import { bareWsFanOut, ratio } from './floors.ts';
import {
  benchGateway,
  figure,
  PRESENCE_SUBSCRIPTION,
  printReport,
  progress,
  raiseOpenFileLimit,
  seedGoal,
  setting,
  startSubscribers,
  warmedFanOut,
} from './support.ts';

const SUBSCRIBERS = setting('SUBSCRIBERS', 20_000, 1000);
const ROUNDS = setting('ROUNDS', 10, 3);
const WARM_UP = setting('WARM_UP', 2, 1);
const processesFor = (count: number) => Math.ceil(count / 2500);

// Every socket is a file in the gateway, which needs some more of its own.
const SPARE_FILES = 1000;
const files = raiseOpenFileLimit(SUBSCRIBERS + SPARE_FILES);
const largest = Math.min(SUBSCRIBERS, files - SPARE_FILES);
if (largest < SUBSCRIBERS / 2) {
  console.error(
    `bench:subscribers opens ${SUBSCRIBERS} sockets in one gateway process, but the limit on open files is ${files} and could not be raised: raise it (ulimit -n ${SUBSCRIBERS + SPARE_FILES}), or run fewer (SUBSCRIBERS)`,
  );
  process.exit(2);
}
if (largest < SUBSCRIBERS)
  progress('subscribers', `the limit on open files is ${files}: the largest size is ${largest}`);
const SIZES = [SUBSCRIBERS / 10, SUBSCRIBERS / 2, largest].map(Math.round);

const { wsUrl, adminToken, gql, heapUsed, stop } = await benchGateway();

/** A goal of its own for each size (its presence sequence starts afresh), one agent reporting. */
async function reportingGoal() {
  const goal = await seedGoal(gql, 4);
  const agent = goal.agentIds[0] as string;
  await goal.report([agent], 'WORKING');
  return { goalId: goal.goalId, change: (liveness: string) => goal.report([agent], liveness) };
}

// Warm the gateway's socket and subscription paths before the first heap reading.
const warm = await startSubscribers([{ wsUrl, token: adminToken, count: 10 }], 1);
await warm.connect();
await warm.subscribe(
  PRESENCE_SUBSCRIPTION,
  { g: (await reportingGoal()).goalId },
  'presenceChanged.seq',
);
await warm.close();

/** One size on the gateway: its heap per socket and per subscription, and its fan-out. */
async function onGateway(count: number) {
  const processes = processesFor(count);
  const { goalId, change } = await reportingGoal();
  const heapBefore = await heapUsed();
  progress('subscribers', `${count} sockets connecting over ${processes} processes`);
  const subscribers = await startSubscribers([{ wsUrl, token: adminToken, count }], processes);
  await subscribers.connect();
  const heapConnected = await heapUsed();
  progress('subscribers', `${count} subscriptions starting`);
  await subscribers.subscribe(PRESENCE_SUBSCRIPTION, { g: goalId }, 'presenceChanged.seq');
  const heapSubscribed = await heapUsed();
  progress('subscribers', `fan-out, ${WARM_UP} rounds to warm up, then ${ROUNDS} timed`);
  const { warmUpMs, fanOutMs } = await warmedFanOut(subscribers, WARM_UP, ROUNDS, change);
  await subscribers.close();
  return {
    count,
    processes,
    fanOutMs,
    warmUpMs,
    perConnection: (heapConnected - heapBefore) / count,
    perSubscription: (heapSubscribed - heapConnected) / count,
    gatewayHeapBytes: { before: heapBefore, connected: heapConnected, subscribed: heapSubscribed },
  };
}

const gateway = [];
for (const count of SIZES) gateway.push(await onGateway(count));
await stop();

// The floor: the same subscribers on a bare ws server that sends each event, serialized once.
const sizes = [];
for (const size of gateway) {
  progress('subscribers', `${size.count} over a bare ws server (bench/raw-broadcast-process.ts)`);
  const floor = await bareWsFanOut(size.count, size.processes, WARM_UP, ROUNDS);
  sizes.push({ ...size, floorMs: floor, overFloor: ratio(size.fanOutMs.p99, floor.p99) });
}

const [smallest, , most] = sizes as [(typeof sizes)[number], unknown, (typeof sizes)[number]];
const KB = 1024;
printReport(
  'subscribers',
  [
    ...sizes.flatMap(({ count, fanOutMs, floorMs, overFloor, perSubscription, perConnection }) => [
      figure(`fan-out to ${count} subscribers, report → receipt p50`, fanOutMs.p50, 'ms'),
      figure(
        `fan-out to ${count} subscribers, report → receipt p99`,
        fanOutMs.p99,
        'ms',
        count === 10_000 ? { atMost: 250, source: 'issue 17' } : undefined,
      ),
      figure(
        `bare ws server, one frame to ${count} sockets, send → receipt p99`,
        floorMs.p99,
        'ms',
      ),
      figure(
        `fan-out to ${count} subscribers, p99 ÷ the bare ws floor's p99`,
        overFloor,
        '×',
        count > SUBSCRIBERS / 2
          ? { atMost: 1.5, source: 'issue 40' }
          : count === 10_000
            ? { atMost: 1.3, source: 'issue 40' }
            : undefined,
      ),
      figure(
        `gateway heap per idle subscription, ${count} subscribers`,
        perSubscription,
        'bytes',
        count > SUBSCRIBERS / 2
          ? { atMost: 4 * KB, source: 'issue 40' }
          : count === 10_000
            ? { atMost: 8 * KB, source: 'issue 17' }
            : undefined,
      ),
      figure(
        `gateway heap per idle connection, ${count} sockets (before subscribing)`,
        perConnection,
        'bytes',
      ),
    ]),
    figure(
      `fan-out p99, ${most.count} ÷ ${smallest.count} subscribers (${most.count / smallest.count} × the subscribers)`,
      ratio(most.fanOutMs.p99, smallest.fanOutMs.p99),
      'ratio',
    ),
    figure(
      `bare ws floor p99, ${most.count} ÷ ${smallest.count} sockets`,
      ratio(most.floorMs.p99, smallest.floorMs.p99),
      'ratio',
    ),
  ],
  { sizes, rounds: ROUNDS, warmUpRounds: WARM_UP, openFileLimit: files, asked: SUBSCRIBERS },
);
process.exit(0);
