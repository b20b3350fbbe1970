/**
 * `npm run faults`: the fault suite of issue 11. Gateways run as child processes
 * (bench/gateway-process.ts) on a Postgres cluster of the suite's own (15/sbfaults on port
 * 5499, created once with `pg_createcluster`, started here and stopped at the end; the main
 * cluster is never touched), clients in this process. Eleven scenarios:
 *
 * - listen-kill: bursts of `pg_terminate_backend` of every doorbell connection every few ms
 *   for BURST_MS, RUNS times; after each, every instance must listen again (`/readyz` 200);
 * - restart: the cluster stopped and started at once, RESTARTS times; time from the database
 *   accepting writes again to streams resuming and to waits resolving;
 * - outage: the same with the cluster held down OUTAGE_MS (the gateways' reconnect path);
 * - kill-9: one of two instances `kill -9`-ed; its clients resume on the other from cursors;
 * - writers: WRITERS concurrent writers through both instances while streams follow;
 * - subscriptions: SUBSCRIPTIONS subscribe messages on one PEER socket;
 * - large-answers: LARGE_QUERIES at once, again and again, of 20 aliases × `inbox(tail: 200)`
 *   over 16 KiB bodies (a 65 MB answer before the limits);
 * - wrong-tokens: a flood of wrong tokens over HTTP and WebSocket, on an instance of its own;
 * - nats-restart, nats-outage (10 s), nats-cut: the doorbell on NATS (nats.ts), on two gateways
 *   of their own and a nats-server of the suite's own.
 *
 * The last three (issue 35) measure another client's latency beside the abuse against its idle
 * value (target: p99 ≤ 2 ×), and the same beside the same abuse on a bare server that refuses
 * it at the least cost (bench/bare-refusal-process.ts: the floor — the machine and the abusers
 * themselves); they count as wrong what a limit should have refused and did not, and the other
 * client's failures.
 *
 * Each counts lost, duplicated and wrong outcomes (stream events against a reference read of
 * the whole stream, wait outcomes against what was written), time to resume, and revoked
 * credentials' streams still open REVOKE_DEADLINE_MS after the revocation committed. Progress
 * on stderr, one JSON object on stdout; exit code 1 if any count is not 0. Needs root
 * (pg_createcluster, pg_ctlcluster) and nats-server. `BENCH_QUICK=1` runs it small; `--only a,b` some scenarios.
 *
 * Its parts: settings.ts (sizes, scenario names), cluster.ts (the cluster and cleanup on exit),
 * streams.ts (followers and their counts), clients.ts (writers, waits, revocable credentials,
 * readiness), outcome.ts (staging and settling a goal), scenarios.ts, abuse.ts (the limits'
 * three); this file runs them.
 */
import { parseArgs } from 'node:util';
import postgres from 'postgres';
import { benchGateway, figure, printReport } from '../support.ts';
import { cleanUpOnExit, gateways, startCluster } from './cluster.ts';
import type { Outcome } from './outcome.ts';
import { run } from './scenarios.ts';
import {
  CLUSTER,
  DATABASE,
  DATABASE_URL,
  PORT,
  SCENARIOS,
  type ScenarioName,
  SERVER_URL,
  say,
} from './settings.ts';
import { describe } from './streams.ts';

const { values } = parseArgs({ options: { only: { type: 'string' } } });
const only = (values.only?.split(',').map((s) => s.trim()) ?? [...SCENARIOS]) as ScenarioName[];
const unknown = only.filter((name) => !SCENARIOS.includes(name));
if (unknown.length > 0) {
  console.error(`no fault scenario named ${unknown.join(', ')}; known: ${SCENARIOS.join(', ')}`);
  process.exit(2);
}
// The gateways read it (bench/gateway-process.ts), and the report names the driver by it.
process.env.DATABASE_URL = DATABASE_URL;
cleanUpOnExit();

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
        ...(o.latency
          ? [
              figure(
                `${o.name}: another client's p99 beside it, × its idle p99`,
                o.latency.ratio,
                '×',
                { atMost: 2, source: 'issue 35' },
              ),
              figure(
                `${o.name}: the same beside a bare server refusing it (floor), × its idle p99`,
                o.latency.floor.ratio,
                '×',
              ),
            ]
          : []),
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
