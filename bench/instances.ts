/**
 * Three gateway instances (processes) on one Postgres, with graphql-ws subscribers spread
 * evenly over them (in client processes of their own):
 * - fan-out of one presence change, report → receipt on every instance, each round's report
 *   sent to the next instance in turn (the others learn of it by NOTIFY);
 * - ingest: one provider per instance sending batched reports of its own goal to its own
 *   instance, every commit ringing every instance's doorbell, while fan-out rounds go on;
 *   reports/s, and the fan-out latency meanwhile.
 *
 *   DATABASE_URL=postgres://… npm run bench:instances
 *
 * Options (env): SUBSCRIBERS (3000 in all), ROUNDS (10), BATCHES (20 per provider),
 * CLIENT_PROCESSES (2).
 */
import {
  benchGateway,
  fanOut,
  figure,
  PRESENCE_SUBSCRIPTION,
  printReport,
  progress,
  seedGoal,
  setting,
  startSubscribers,
  summary,
  warmedFanOut,
} from './support.ts';

if (!process.env.DATABASE_URL) {
  console.error('bench:instances shares one Postgres between gateway processes: set DATABASE_URL');
  process.exit(2);
}
const INSTANCES = 3;
const SUBSCRIBERS = setting('SUBSCRIBERS', 3000, 300);
const ROUNDS = setting('ROUNDS', 10, 3);
const BATCHES = setting('BATCHES', 20, 4);
const BATCH = 250;
const CLIENT_PROCESSES = setting('CLIENT_PROCESSES', 2, 1);

progress('instances', `${INSTANCES} gateways starting`);
const gateways = await Promise.all(Array.from({ length: INSTANCES }, () => benchGateway()));
const fan = await seedGoal(gateways[0]!.gql, 4);
const agent = fan.agentIds[0] as string;
await fan.report([agent], 'WORKING');
progress('instances', `${SUBSCRIBERS} subscribers connecting, a third on each instance`);
const subscribers = await startSubscribers(
  gateways.map((g) => ({ wsUrl: g.wsUrl, token: g.adminToken, count: SUBSCRIBERS / INSTANCES })),
  CLIENT_PROCESSES,
);
await subscribers.connect();
await subscribers.subscribe(PRESENCE_SUBSCRIPTION, { g: fan.goalId }, 'presenceChanged.seq');
const change = (liveness: string, round: number) =>
  fan.report([agent], liveness, gateways[round % INSTANCES]!.gql);

// One round through each instance first, so no instance's report path is cold when timed.
progress('instances', `fan-out, ${INSTANCES} rounds to warm up, then ${ROUNDS} timed`);
const { fanOutMs: quiet } = await warmedFanOut(subscribers, INSTANCES, ROUNDS, change);

progress('instances', `ingest: ${INSTANCES} providers × ${BATCHES} batches of ${BATCH}`);
const goals = await Promise.all(gateways.map((g) => seedGoal(g.gql, BATCH)));
let ingesting = true;
const ingestStart = performance.now();
const ingest = Promise.all(
  goals.map(async (goal, i) => {
    for (let b = 0; b < BATCHES; b++) {
      const liveness = b % 3 === 0 ? 'WORKING' : b % 3 === 1 ? 'IDLE' : 'DONE';
      await goal.report(goal.agentIds, liveness, gateways[i]!.gql);
    }
  }),
).then(() => {
  ingesting = false;
  return (performance.now() - ingestStart) / 1000;
});
const duringIngest: number[] = [];
for (let round = INSTANCES + ROUNDS + 1; ingesting; round++) {
  duringIngest.push(...(await fanOut(subscribers, 1, change, round)));
}
const ingestSeconds = await ingest;
const reports = INSTANCES * BATCHES * BATCH;
const loaded = summary(duringIngest);
await subscribers.close();

printReport(
  'instances',
  [
    figure(`fan-out across ${INSTANCES} instances, report → receipt p50`, quiet.p50, 'ms'),
    figure(`fan-out across ${INSTANCES} instances, report → receipt p99`, quiet.p99, 'ms'),
    figure(
      `ingest across ${INSTANCES} instances (NOTIFY per commit)`,
      reports / ingestSeconds,
      'reports/s',
    ),
    figure('fan-out during that ingest, report → receipt p99', loaded.p99, 'ms'),
  ],
  {
    instances: INSTANCES,
    subscribers: SUBSCRIBERS,
    subscribersPerInstance: SUBSCRIBERS / INSTANCES,
    clientProcesses: CLIENT_PROCESSES,
    fanOut: { rounds: ROUNDS, reportSentTo: 'each instance in turn', reportToReceiptMs: quiet },
    ingest: {
      providers: INSTANCES,
      reportsPerBatch: BATCH,
      reports,
      seconds: Math.round(ingestSeconds * 100) / 100,
      fanOutRoundsMeanwhile: duringIngest.length / SUBSCRIBERS,
      fanOutMeanwhileMs: loaded,
    },
  },
);
await Promise.all(gateways.map((g) => g.stop()));
process.exit(0);
