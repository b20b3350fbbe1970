/**
 * Evidence ledger benchmark: one goal with 50 agents whose ledger grows through three sizes,
 * a hundredth, a tenth and all of BENCH_EVENTS rows (10,000,000 on Postgres, 1,000,000 on
 * PGlite), each step written with one `insert … select generate_series`. At each size
 * `evidenceLedger(goalId, agentId, limit: 30)` is called repeatedly through the service, for
 * the first page and a page deep in the history; at the largest also over HTTP, for a
 * newcomer, and the EXPLAIN of the main query. Prints each size's figures and their growth.
 *
 *   DATABASE_URL=postgres://… npm run bench:ledger   # real Postgres
 *   npm run bench:ledger                              # embedded PGlite, in memory
 *
 * Options (env): BENCH_EVENTS, BENCH_AGENTS (50), BENCH_CALLS (300).
 */
import { randomUUID } from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import type { Sql } from 'postgres';
import type { Config } from '../src/config.ts';
import type { Caller } from '../src/core/caller.ts';
import { type Database, type Db, openDatabase } from '../src/db/database.ts';
import { rowsOf } from '../src/db/sql.ts';
import { startGateway } from '../src/gateway.ts';
import { FrontierCache } from '../src/ledger/frontier.ts';
import { evidenceLedger } from '../src/ledger/read.ts';
import { createLogger } from '../src/log.ts';
import { issueCredential } from '../src/registry/registry.ts';
import { ratio } from './floors.ts';
import { figure, printReport, progress, setting, summary } from './support.ts';

type Summary = ReturnType<typeof summary>;

const url = process.env.DATABASE_URL;
const EVENTS = setting('BENCH_EVENTS', url ? 10_000_000 : 1_000_000, 20_000);
/** The ledger's sizes, smallest first: each is written on top of the one before. */
const SIZES = [EVENTS / 100, EVENTS / 10, EVENTS].map(Math.round);
/** The sizes an issue sets the page's p99 for: 1,000,000 rows (issue 17), 10,000,000 (issue 40). */
const PAGE_TARGETS = new Map([
  [1_000_000, { atMost: 10, source: 'issue 17' }],
  [10_000_000, { atMost: 10, source: 'issue 40' }],
]);
const AGENTS = setting('BENCH_AGENTS', 50, 50);
const CALLS = setting('BENCH_CALLS', 300, 50);
const TODOS = 500;
const WARMUP = setting('BENCH_WARMUP', 30, 5);

const agentName = (i: number) => `agent-${String(i).padStart(3, '0')}`;

/**
 * The goal: AGENTS agents, each with a vision whose roleScope names one of 10 lanes; 500
 * todos (8 claimed per agent, a dependency chain among the claimed ones, the last 100
 * unclaimed and spread over the lanes, a quarter needing a gated decision scope); 10
 * action gates.
 */
async function seed(db: Db, goalId: string) {
  const started = performance.now();
  await db.execute(sql`insert into goals (id, title) values (${goalId}, 'ledger benchmark')`);
  await db.execute(sql`insert into agents (goal_id, agent_id, agent_model, host_surface)
    select ${goalId}, 'agent-' || lpad(a::text, 3, '0'), 'bench', 'cli'
    from generate_series(0, ${AGENTS - 1}) a`);
  await db.execute(sql`insert into agent_visions (goal_id, agent_id, role_scope, vision_summary,
      acceptance_summary, replan_trigger_summary, updated_by_kind)
    select ${goalId}, 'agent-' || lpad(a::text, 3, '0'), 'src/lane' || (a % 10),
      'keeps lane ' || (a % 10) || ' moving', 'tests green', 'a gate is denied', 'ADMIN'
    from generate_series(0, ${AGENTS - 1}) a`);
  await db.execute(sql`insert into gates (id, goal_id, kind, granularity, scope_key, reason,
      opened_by_kind)
    select ${goalId} || '-gate-' || g, ${goalId}, 'PRODUCTION', 'ACTION', 'deploy' || g,
      'benchmark gate', 'ADMIN'
    from generate_series(0, 9) g`);
  await db.execute(sql`insert into todos (id, goal_id, title, task_class, status, priority,
      depends_on, required_decision_scopes, write_scope, continuation_policy, claimed_by,
      claimed_at, created_by_kind, updated_by_kind)
    select ${goalId} || '-todo-' || k, ${goalId}, 'benchmark todo ' || k, 'ADVANCEMENT_TASK',
      case when k between 350 and 399 then 'DONE' else 'OPEN' end, k % 100,
      case when k < 399 then array[${goalId} || '-todo-' || (k + 1)] else '{}'::text[] end,
      case when k % 4 = 0 then array['production:action:deploy' || (k % 10)] else '{}'::text[] end,
      array['src/lane' || (k % 10) || '/**'], 'INDEPENDENT_HANDOFF',
      case when k < 400 then 'agent-' || lpad((k % ${AGENTS})::text, 3, '0') end,
      case when k < 400 then now() end, 'ADMIN', 'ADMIN'
    from generate_series(0, ${TODOS - 1}) k`);
  return Math.round(performance.now() - started);
}

/**
 * Ledger rows `from` + 1 to `to` of the goal, in one statement: agents round-robin, a third on
 * a todo, 1 in 101 a handoff, 1 in 997 on a gate, 1 in 5003 goal-level, 40% material.
 */
async function writeRows(db: Db, goalId: string, from: number, to: number) {
  const started = performance.now();
  await db.execute(sql`insert into ledger_events (goal_id, seq, recorded_at, source, event_kind,
      agent_id, todo_id, gate_id, related_agent_id, classification, status, summary,
      material, goal_change, recorded_by_kind, recorded_by_agent)
    select ${goalId}, i,
      timestamptz '2026-01-01T00:00:00Z' + i * interval '1 millisecond',
      case when i % 3 = 0 then 'WORK_GRAPH' else 'RECORDED' end,
      case
        when i % 101 = 0 then 'HANDOFF'
        when i % 997 = 0 then 'GATE'
        else (array['TODO_UPDATE', 'VALIDATION', 'TODO_UPDATE', 'BLOCKER', 'QUOTA_SHOULD_RUN',
          'TODO_UPDATE', 'PROJECTION', 'TODO_UPDATE', 'VALIDATION', 'TODO_UPDATE'])[i % 10 + 1]
      end,
      'agent-' || lpad((i % ${AGENTS})::text, 3, '0'),
      case when i % 3 = 0 then ${goalId} || '-todo-' || ((i / 3) % ${TODOS}) end,
      case when i % 997 = 0 then ${goalId} || '-gate-' || (i % 10) end,
      case when i % 101 = 0 then 'agent-' || lpad(((i + 1) % ${AGENTS})::text, 3, '0') end,
      'bench', 'open', 'benchmark event ' || i,
      i % 10 in (1, 3, 6, 8) or i % 101 = 0 or i % 997 = 0 or i % 5003 = 0,
      case when i % 5003 = 0 then 'ROUTE' end,
      'PEER', 'agent-' || lpad((i % ${AGENTS})::text, 3, '0')
    from generate_series(${from + 1}::bigint, ${to}::bigint) i`);
  await db.execute(sql`insert into stream_heads (goal_id, stream, seq)
    values (${goalId}, 'ledger', ${to})
    on conflict (goal_id, stream) do update set seq = excluded.seq`);
  // What autovacuum would leave after a bulk load (PGlite has no autovacuum).
  await db.execute(sql`vacuum analyze ledger_events`);
  await db.execute(sql`analyze todos, gates, agents, agent_visions, stream_heads`);
  return Math.round(performance.now() - started);
}

async function time(calls: number, run: () => Promise<unknown>) {
  for (let i = 0; i < WARMUP; i++) await run();
  const wall: number[] = [];
  for (let i = 0; i < calls; i++) {
    const started = performance.now();
    await run();
    wall.push(performance.now() - started);
  }
  return summary(wall);
}

async function main() {
  const database: Database = url
    ? await openDatabase({ driver: 'postgres', url })
    : await openDatabase({ driver: 'pglite', dataDir: null });
  // A second Drizzle over the same client that remembers the SQL it ran, for EXPLAIN.
  const seen: { query: string; params: unknown[] }[] = [];
  const client = (database.db as unknown as { $client: unknown }).$client;
  const logger = {
    logQuery: (query: string, params: unknown[]) => void seen.push({ query, params }),
  };
  const logged = (url
    ? drizzlePostgres(client as Sql, { logger })
    : drizzlePglite(client as PGlite, { logger })) as unknown as Db;

  const goalId = `ledger-bench-${randomUUID().slice(0, 8)}`;
  const seedMs = await seed(database.db, goalId);
  const agentId = agentName(7);
  const caller: Caller = { kind: 'PEER', credentialId: 'bench', goalId, agentId };
  // As the gateway calls it: the other-agent frontier cached per stamp of the goal's state.
  const frontiers = new FrontierCache();
  /** The first page and a page deep in the history (5% in), at each size. */
  const sizes: {
    rows: number;
    writeMs: number;
    deepCursor: string;
    firstPage: Summary;
    deepPage: Summary;
  }[] = [];
  for (const rows of SIZES) {
    const from = sizes.at(-1)?.rows ?? 0;
    progress(
      'ledger',
      `writing rows ${(from + 1).toLocaleString('en-US')} to ${rows.toLocaleString('en-US')}`,
    );
    const writeMs = await writeRows(database.db, goalId, from, rows);
    const deepCursor = String(Math.floor(rows * 0.05));
    progress('ledger', `${rows.toLocaleString('en-US')} rows: ${CALLS} calls per page`);
    sizes.push({
      rows,
      writeMs,
      deepCursor,
      firstPage: await time(CALLS, () =>
        evidenceLedger(database.db, caller, { goalId, agentId }, frontiers),
      ),
      deepPage: await time(CALLS, () =>
        evidenceLedger(database.db, caller, { goalId, agentId, before: deepCursor }, frontiers),
      ),
    });
  }
  const largest = sizes.at(-1) as (typeof sizes)[number];
  const { deepCursor } = largest;

  const first = await evidenceLedger(database.db, caller, { goalId, agentId });
  const deep = await evidenceLedger(database.db, caller, { goalId, agentId, before: deepCursor });
  const digestStable =
    (await evidenceLedger(database.db, caller, { goalId, agentId })).digest === first.digest;
  progress(
    'ledger',
    `${CALLS} calls per case at ${EVENTS.toLocaleString('en-US')} rows, service then HTTP`,
  );
  const service = {
    firstPage: largest.firstPage,
    deepPage: largest.deepPage,
    /** The frontier recomputed on every call, as after any change of the goal. */
    firstPageFrontierUncached: await time(CALLS, () =>
      evidenceLedger(database.db, caller, { goalId, agentId }),
    ),
    withoutFrontier: await time(CALLS, () =>
      evidenceLedger(database.db, caller, { goalId, agentId, includeOtherAgentFrontier: false }),
    ),
  };

  // A newly registered agent: nothing of its own in a long history, only goal-level rows.
  const newcomer = 'agent-newcomer';
  await database.db.execute(sql`insert into agents (goal_id, agent_id, agent_model, host_surface)
    values (${goalId}, ${newcomer}, 'bench', 'cli')`);
  const newcomerCaller = { ...caller, agentId: newcomer };
  const newcomerRead = await evidenceLedger(database.db, newcomerCaller, {
    goalId,
    agentId: newcomer,
  });
  const newcomerMs = await time(Math.min(CALLS, 50), () =>
    evidenceLedger(database.db, newcomerCaller, { goalId, agentId: newcomer }, frontiers),
  );

  // The main query as the service sends it, explained with its own parameters.
  seen.length = 0;
  await evidenceLedger(logged, caller, { goalId, agentId });
  const main = seen.find((s) => /from "ledger_events" where/.test(s.query));
  if (!main) throw new Error('did not see the main ledger query');
  const explainSql = `explain (analyze, buffers, costs off) ${main.query}`;
  const explainRows = url
    ? await (client as Sql).unsafe(explainSql, main.params as never[])
    : (await (client as PGlite).query(explainSql, main.params as never[])).rows;
  const explain = rowsOf<Record<string, string>>(explainRows).map(
    (row) => Object.values(row)[0] as string,
  );

  // Over HTTP: credential lookup, GraphQL execution and JSON of the whole packet.
  const config: Config = {
    host: '127.0.0.1',
    port: 0,
    database: url ? { driver: 'postgres', url } : { driver: 'pglite', dataDir: null },
    dataDir: '/nonexistent-switchboard-bench',
    adminToken: `admin-${randomUUID()}`,
    exploration: false,
    maxBodyBytes: 1_000_000,
    staleClaimMs: 3_600_000,
    logLevel: 'silent',
    doorbellProbeMs: 1000,
    metrics: { serve: 'off' },
    corsOrigins: [],
    drainMs: 0,
    // One credential's requests as fast as they go: no rate limit per credential.
    limits: { requestsPerSecond: 0 },
  };
  const gateway = await startGateway(config, createLogger('silent'), { database });
  const { token } = await issueCredential(database.db, {
    kind: 'PEER',
    goalId,
    agentId,
    label: 'bench',
  });
  const query = `query($g: ID!, $a: ID!, $before: Seq) {
    evidenceLedger(goalId: $g, agentId: $a, before: $before) {
      digest page { headSeq olderCursor hasOlder }
      events { eventId seq recordedAt eventKind agentId todoId gateId relatedAgentId
        classification status summary evidenceRefs material goalChange relevance
        boundary { redactionCount } }
      otherAgentFrontier { agentId visionSummary topTodo handoffState latestMaterialAt }
      readerHints { requiredBefore nextRequiredReads { query } }
    } }`;
  const post = async (before: string | null) => {
    const response = await fetch(gateway.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, variables: { g: goalId, a: agentId, before } }),
    });
    const body = (await response.json()) as { errors?: unknown };
    if (body.errors) throw new Error(JSON.stringify(body.errors));
    return body;
  };
  const http = {
    firstPage: await time(CALLS, () => post(null)),
    deepPage: await time(CALLS, () => post(deepCursor)),
  };
  await gateway.stop();

  const indexScanWithoutSort =
    explain.some((l) => /Index Scan/.test(l)) && !explain.some((l) => /\bSort\b/.test(l));
  const deepOverFirst = {
    service: Math.round((service.deepPage.p50 / service.firstPage.p50) * 100) / 100,
    http: Math.round((http.deepPage.p50 / http.firstPage.p50) * 100) / 100,
  };
  const rowCount = (n: number) => `${n.toLocaleString('en-US')} rows`;
  const smallest = sizes[0] as (typeof sizes)[number];
  printReport(
    'ledger',
    [
      ...sizes.flatMap(({ rows, firstPage }) => [
        figure(
          `ledger page (${rowCount(rows)}, limit 30), service p99`,
          firstPage.p99,
          'ms',
          PAGE_TARGETS.get(rows),
        ),
        figure(`ledger page (${rowCount(rows)}, limit 30), service p50`, firstPage.p50, 'ms'),
      ]),
      figure(
        `ledger page, ${rowCount(largest.rows)} ÷ ${rowCount(smallest.rows)} (${largest.rows / smallest.rows} × the rows), service p50`,
        ratio(largest.firstPage.p50, smallest.firstPage.p50),
        'ratio',
      ),
      figure('deep page ÷ first page, service p50', deepOverFirst.service, 'ratio', {
        atMost: 2,
        source: 'issue 7',
      }),
      figure('ledger page over HTTP, p99', http.firstPage.p99, 'ms'),
      figure('main query: index scans, no sort', indexScanWithoutSort ? 1 : 0, 'boolean', {
        atLeast: 1,
        source: 'issue 7',
      }),
    ],
    {
      goal: {
        events: EVENTS,
        agents: AGENTS,
        todos: TODOS,
        seedMs,
        sizes: sizes.map(({ rows, writeMs, deepCursor, firstPage, deepPage }) => ({
          rows,
          writeMs,
          deepPageBefore: deepCursor,
          firstPage,
          deepPage,
        })),
        note: url ? 'real Postgres' : 'embedded PGlite (WebAssembly, in memory)',
      },
      read: {
        agentId,
        limit: 30,
        firstPageRows: first.events.length,
        firstPageOldestSeq: String(first.events[0]?.seq),
        deepPageBefore: deepCursor,
        deepPageRows: deep.events.length,
        otherAgentFrontierRows: first.otherAgentFrontier.length,
        digestStable,
      },
      serviceMs: { ...service, newcomerFirstPage: newcomerMs },
      newcomer: {
        note: 'an agent registered after the history was written: its page is 30 goal-level rows reaching far back',
        rows: newcomerRead.events.length,
        oldestSeq: String(newcomerRead.events[0]?.seq),
      },
      httpMs: http,
      deepOverFirstP50: deepOverFirst,
      mainQueryPlan: { indexScanWithoutSort, explain },
    },
  );
  await database.close();
}

await main();
