/**
 * The presence sweep (src/presence/sweeper.ts): what one sweep costs, idle and when everything
 * is due, over ROWS live presence rows spread over GOALS goals, called on the sweeper directly
 * (no HTTP).
 *
 *   npm run bench:sweep                          # PGlite
 *   DATABASE_URL=postgres://… npm run bench:sweep
 *
 * Options (env): ROWS (1000), GOALS (10), IDLE_SWEEPS (200).
 *
 * - idle: no row is due (a TTL of an hour): the transaction, the advisory lock and one read of
 *   the expiry index; what every instance pays at most once a second.
 * - due: every row's expiry is moved into the past at once (as if their provider had died an
 *   hour ago), then one sweep lapses them all: one change each, under each goal's head lock.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { AdminCaller, ProviderCaller } from '../src/core/caller.ts';
import { openDatabase } from '../src/db/database.ts';
import { rowsOf } from '../src/db/sql.ts';
import { Doorbell } from '../src/events/doorbell.ts';
import { createLogger } from '../src/log.ts';
import { registerProvider } from '../src/presence/providers.ts';
import { reportPresence } from '../src/presence/reports.ts';
import { PresenceSweeper } from '../src/presence/sweeper.ts';
import { createGoal, issueCredential, registerAgent } from '../src/registry/registry.ts';
import { figure, printReport, progress, setting, summary } from './support.ts';

const ROWS = setting('ROWS', 1000, 100);
const GOALS = setting('GOALS', 10, 2);
const IDLE_SWEEPS = setting('IDLE_SWEEPS', 200, 20);

const url = process.env.DATABASE_URL;
const database = await openDatabase(
  url ? { driver: 'postgres', url } : { driver: 'pglite', dataDir: null },
);
const { db } = database;
const doorbell = new Doorbell({ probeMs: 1000 });
await doorbell.open(database);
const log = createLogger('silent');

const run = randomUUID().slice(0, 8);
const goalIds = Array.from({ length: GOALS }, (_, g) => `sweep-${run}-${g}`);
const providerId = `sweep-${run}`;
progress('sweep', `seeding ${ROWS} presence rows over ${GOALS} goals`);
const perGoal = Math.ceil(ROWS / GOALS);
const admin: AdminCaller = { kind: 'ADMIN', credentialId: null };
for (const goalId of goalIds) {
  await createGoal(db, { goalId, title: goalId });
  for (let a = 0; a < perGoal; a++)
    await registerAgent(db, admin, {
      goalId,
      agentId: `a${a}`,
      agentModel: 'm',
      hostSurface: 'cli',
    });
}
const issued = await issueCredential(db, {
  kind: 'PROVIDER',
  providerId,
  goalIds,
  label: 'sweep bench',
});
const caller: ProviderCaller = {
  kind: 'PROVIDER',
  providerId,
  goalIds,
  credentialId: issued.credential.id,
};
await registerProvider(db, caller, {
  providerId,
  instanceId: 'i1',
  membershipProof: 'bench',
  identifierRules: 'bench',
  livenessMapping: [],
  presenceTtlMs: 3_600_000,
  observationSources: [],
  supportsPinnedWaits: true,
  persistence: 'none',
});
for (const goalId of goalIds) {
  await reportPresence(
    db,
    caller,
    Array.from({ length: perGoal }, (_, a) => ({
      goalId,
      agentId: `a${a}`,
      providerSessionRef: `p${a}`,
      occupantRef: `p${a}/agent`,
      liveness: 'WORKING' as const,
      observedAt: new Date(),
      basis: 'PROVIDER_DETECTION' as const,
      reportSeq: '1',
    })),
  );
}
const rows = perGoal * GOALS;

// One sweeper, not started: each sweep is called and timed here.
const sweeper = new PresenceSweeper(db, doorbell, log, `switchboard-sweeper-bench-${run}`);
progress('sweep', `${IDLE_SWEEPS} idle sweeps`);
const idle: number[] = [];
for (let i = 0; i < IDLE_SWEEPS; i++) {
  const started = performance.now();
  await sweeper.sweep();
  idle.push(performance.now() - started);
}

progress('sweep', `all ${rows} rows due: one sweep`);
await db.execute(sql`update presence set expires_at = now() - interval '1 hour'
  where provider_id = ${providerId}`);
const lapsedBefore = sweeper.stats.lapsed;
const started = performance.now();
await sweeper.sweep();
const dueMs = performance.now() - started;
const lapsed = sweeper.stats.lapsed - lapsedBefore;
const [changes] = rowsOf<{ n: number }>(
  await db.execute(sql`select count(*)::int as n from presence_changes
    where provider_id = ${providerId} and lapse is not null`),
);
await sweeper.close();
await doorbell.close();
await database.close();

const idleSummary = summary(idle);
printReport(
  'sweep',
  [
    figure('idle sweep, p50', idleSummary.p50, 'ms'),
    figure('idle sweep, p99', idleSummary.p99, 'ms'),
    figure(`sweep lapsing ${rows} rows`, dueMs, 'ms'),
    figure('lapse changes recorded per row', (changes?.n ?? 0) / rows, 'ratio', {
      atMost: 1,
      source: 'issue 33: exactly once',
    }),
  ],
  { rows, goals: GOALS, idleMs: idleSummary, dueMs, lapsed, lapseChanges: changes?.n ?? 0 },
);
