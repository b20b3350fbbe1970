/**
 * The frontier's cache of a goal's todos (work/frontier.ts GoalTodosCache): whatever writes
 * came between two reads, a read through the cache answers what a read with none answers, on
 * random graphs under random sequences of the work services, across lease expiry, and across
 * gateway instances that each keep their own.
 */

import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Caller } from '../../src/core/caller.ts';
import { InputError } from '../../src/core/errors.ts';
import type { Db } from '../../src/db/database.ts';
import { rowsOf } from '../../src/db/sql.ts';
import { claimTodo, releaseClaim } from '../../src/work/claims.ts';
import { GoalTodosCache, loadFrontier } from '../../src/work/frontier.ts';
import { openGate, resolveGate } from '../../src/work/gates.ts';
import { handoffTodo } from '../../src/work/handoffs.ts';
import { acquireLease, releaseLease, renewLease } from '../../src/work/leases.ts';
import {
  closeNoFollowUp,
  completeTodo,
  deferTodo,
  resumeTodo,
  supersedeTodo,
} from '../../src/work/lifecycle.ts';
import { EVERY_ROW } from '../../src/work/rules.ts';
import { createTodo, setDependencies } from '../../src/work/todos.ts';
import { setCapabilities } from '../../src/work/visions.ts';
import { database, t } from '../support/gateway-per-file.ts';
import {
  createGoal,
  driver,
  openTestDatabase,
  registerAgent,
  startTestGateway,
  uid,
} from '../support/harness.ts';
import { team } from '../support/team.ts';
import { CLAIM, frontierOf, todo } from './fixtures.ts';

const ADMIN: Caller = { kind: 'ADMIN', credentialId: null };

/** One write of the work graph, its todo, agent and other todo picked by index. */
type Op =
  | { kind: 'create'; priority: number; dep: number | null; gpu: boolean; scope: number | null }
  | {
      kind: 'claim' | 'release' | 'resume' | 'close' | 'renew' | 'releaseLease';
      todo: number;
      agent: number;
    }
  | { kind: 'acquire'; todo: number; agent: number; ttlMs: number }
  | { kind: 'complete' | 'supersede'; todo: number; agent: number; follow: boolean }
  | { kind: 'defer'; todo: number; agent: number; on: number; gate: boolean }
  | { kind: 'handoff'; todo: number; agent: number; to: number | null }
  | { kind: 'deps'; todo: number; on: number }
  | { kind: 'gate' }
  | { kind: 'resolve'; gate: number }
  | { kind: 'expire' };

const index = fc.nat(1000);
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('create' as const),
    priority: fc.integer({ min: 0, max: 3 }),
    dep: fc.option(index),
    gpu: fc.boolean(),
    scope: fc.option(fc.integer({ min: 0, max: 2 })),
  }),
  ...(['claim', 'release', 'resume', 'close', 'renew', 'releaseLease'] as const).map((kind) =>
    fc.record({ kind: fc.constant(kind), todo: index, agent: index }),
  ),
  fc.record({
    kind: fc.constant('acquire' as const),
    todo: index,
    agent: index,
    ttlMs: fc.constantFrom(150, 400, 60_000),
  }),
  ...(['complete', 'supersede'] as const).map((kind) =>
    fc.record({ kind: fc.constant(kind), todo: index, agent: index, follow: fc.boolean() }),
  ),
  fc.record({
    kind: fc.constant('defer' as const),
    todo: index,
    agent: index,
    on: index,
    gate: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('handoff' as const),
    todo: index,
    agent: index,
    to: fc.option(index),
  }),
  fc.record({ kind: fc.constant('deps' as const), todo: index, on: index }),
  fc.constant({ kind: 'gate' as const }),
  fc.record({ kind: fc.constant('resolve' as const), gate: index }),
  fc.constant({ kind: 'expire' as const }),
);

const pick = <T>(values: readonly T[], i: number): T => values[i % values.length] as T;

/** The todo's current lease fence (renew and release must name it). */
async function fenceOf(db: Db, todoId: string): Promise<string> {
  const [row] = rowsOf<{ fence: string }>(
    await db.execute(sql`select lease_fence::text as fence from todos where id = ${todoId}`),
  );
  return row?.fence ?? '0';
}

/**
 * Waits until every lease of the goal that expires within a second has expired by the
 * database's clock (the one leaseState compares with), polling to a deadline.
 */
async function expireSoonLeases(db: Db, goalId: string): Promise<void> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const [row] = rowsOf<{ pending: boolean }>(
      await db.execute(sql`select exists (select 1 from todos where goal_id = ${goalId}
        and lease_expires_at > now() and lease_expires_at < now() + interval '1 second')
        as pending`),
    );
    if (!row?.pending) return;
    if (Date.now() > deadline) throw new Error('leases did not expire by the deadline');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function apply(
  db: Db,
  goalId: string,
  agents: readonly string[],
  todos: string[],
  gates: string[],
  op: Op,
): Promise<void> {
  const spec = (title: string) => ({ title, taskClass: 'ADVANCEMENT_TASK' });
  if (op.kind === 'create') {
    const created = await createTodo(db, ADMIN, {
      goalId,
      agentId: agents[0],
      ...spec(uid('todo')),
      priority: op.priority,
      dependsOn: op.dep === null || todos.length === 0 ? [] : [pick(todos, op.dep)],
      requiredCapability: op.gpu ? 'gpu' : null,
      taskRepository: op.scope === null ? null : 'git:github.com/o/r',
      writeScope: op.scope === null ? [] : [`src/m${op.scope}/**`],
    });
    if (created.type === 'Todo') todos.push(created.id);
    return;
  }
  if (op.kind === 'gate') {
    const opened = await openGate(db, ADMIN, {
      goalId,
      kind: 'PRODUCTION',
      granularity: 'GOAL',
      scopeKey: uid('scope'),
      reason: 'may we?',
    });
    if (opened.type === 'Gate') gates.push(opened.id);
    return;
  }
  if (op.kind === 'resolve') {
    if (gates.length === 0) return;
    await resolveGate(db, ADMIN, { goalId, gateId: pick(gates, op.gate), decision: 'GRANTED' });
    return;
  }
  if (op.kind === 'expire') return expireSoonLeases(db, goalId);
  if (todos.length === 0) return;
  const todoId = pick(todos, op.todo);
  if (op.kind === 'deps') {
    await setDependencies(db, ADMIN, { goalId, todoId, dependsOn: [pick(todos, op.on)] });
    return;
  }
  const agentId = pick(agents, op.agent);
  const action = { goalId, todoId, agentId };
  switch (op.kind) {
    case 'claim':
      await claimTodo(db, ADMIN, action);
      return;
    case 'release':
      await releaseClaim(db, ADMIN, action);
      return;
    case 'resume':
      await resumeTodo(db, ADMIN, action);
      return;
    case 'close':
      await closeNoFollowUp(db, ADMIN, { ...action, reason: 'not needed' });
      return;
    case 'acquire':
      await acquireLease(db, ADMIN, { ...action, ttlMs: op.ttlMs });
      return;
    case 'renew':
      await renewLease(db, ADMIN, { ...action, fence: await fenceOf(db, todoId), ttlMs: 300 });
      return;
    case 'releaseLease':
      await releaseLease(db, ADMIN, { ...action, fence: await fenceOf(db, todoId) });
      return;
    case 'complete': {
      const done = await completeTodo(db, ADMIN, {
        ...action,
        evidenceRefs: ['ci/run/1'],
        successor: op.follow ? spec(uid('successor')) : null,
      });
      if (done.type === 'CompletedTodo' && done.successor) todos.push(done.successor.id);
      return;
    }
    case 'supersede': {
      const superseded = await supersedeTodo(db, ADMIN, {
        ...action,
        reason: 'replanned',
        replacement: spec(uid('replacement')),
      });
      if (superseded.type === 'SupersededTodo') todos.push(superseded.replacement.id);
      return;
    }
    case 'defer':
      await deferTodo(db, ADMIN, {
        ...action,
        resumeWhen: [
          op.gate && gates.length > 0
            ? `gate_resolved:${pick(gates, op.on)}`
            : `todo_done:${pick(todos, op.on)}`,
        ],
      });
      return;
    case 'handoff':
      await handoffTodo(db, ADMIN, {
        ...action,
        to: op.to === null ? null : pick(agents, op.to),
        nextAction: 'carry on',
        validation: 'tests pass',
        stopCondition: 'done',
        omitted: [],
      });
      return;
  }
}

/**
 * The frontier for `agentId` through `cache` and with none, in one snapshot: one clock for
 * both, so a lease expiring between two reads cannot tell them apart.
 */
async function bothWays(db: Db, goalId: string, agentId: string, cache: GoalTodosCache) {
  return db.transaction(
    async (tx) => ({
      cached: await loadFrontier(tx, goalId, agentId, EVERY_ROW, cache),
      fresh: await loadFrontier(tx, goalId, agentId, EVERY_ROW, null),
    }),
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

describe(`the frontier's cache of a goal's todos (${driver})`, () => {
  it('answers what a read with no cache answers, after every write of random sequences', async () => {
    const db = database.db;
    await fc.assert(
      // Each write with whether to read after it: unread writes make a catch-up of several.
      fc.asyncProperty(
        fc.array(fc.tuple(opArb, fc.boolean()), { minLength: 5, maxLength: 30 }),
        async (ops) => {
          const goalId = await createGoal(t);
          const agents = [
            await registerAgent(t, goalId),
            await registerAgent(t, goalId),
            await registerAgent(t, goalId),
          ];
          await setCapabilities(db, ADMIN, { goalId, agentId: agents[0], capabilities: ['gpu'] });
          const cache = new GoalTodosCache();
          const todos: string[] = [];
          const gates: string[] = [];
          for (const [i, [op, read]] of ops.entries()) {
            try {
              await apply(db, goalId, agents, todos, gates, op);
            } catch (error) {
              // A write the rules refuse as bad input (a cycle, a self-dependency) writes nothing.
              if (!(error instanceof InputError)) throw error;
            }
            if (!read && i < ops.length - 1) continue;
            for (const agentId of agents) {
              const { cached, fresh } = await bothWays(db, goalId, agentId, cache);
              expect(cached).toEqual(fresh);
            }
          }
        },
      ),
      { numRuns: driver === 'postgres' ? 25 : 15 },
    );
  }, 300_000);

  it('a lease that expires with no write between reads is EXPIRED in the next cached read', async () => {
    const db = database.db;
    const goalId = await createGoal(t);
    const agents = [await registerAgent(t, goalId), await registerAgent(t, goalId)];
    const cache = new GoalTodosCache();
    const todos: string[] = [];
    const gates: string[] = [];
    const ops: Op[] = [
      { kind: 'create', priority: 1, dep: null, gpu: false, scope: null },
      { kind: 'acquire', todo: 0, agent: 0, ttlMs: 300 },
    ];
    for (const op of ops) await apply(db, goalId, agents, todos, gates, op);
    const before = await bothWays(db, goalId, agents[1] as string, cache);
    expect(before.cached).toEqual(before.fresh);
    const state = (loaded: typeof before.cached) =>
      loaded.type === 'LoadedFrontier' ? loaded.frontier.rows[0]?.todo.leaseState : null;
    expect(state(before.cached)).toBe('ACTIVE');
    await apply(db, goalId, agents, todos, gates, { kind: 'expire' });
    const after = await bothWays(db, goalId, agents[1] as string, cache);
    expect(state(after.cached)).toBe('EXPIRED');
    expect(after.cached).toEqual(after.fresh);
  });

  it('a write through one gateway instance is in the next frontier read of another', async () => {
    // Another handle on the same database on Postgres (another instance's pool); PGlite has
    // one, which the second gateway shares. Each gateway keeps its own cache.
    const other = driver === 'postgres' ? await openTestDatabase() : database;
    const second = await startTestGateway(other);
    try {
      const { goalId, a, b } = await team(t);
      const work = await todo(a.token, goalId);
      const first = await frontierOf(a.token, goalId, undefined, {});
      expect(first.rows.map((r) => r.runnable)).toEqual([true]);
      // Read through the second instance: its cache now holds the goal.
      const read = async () =>
        (
          await second.ok(
            `query($g: ID!, $agent: ID) { frontier(goalId: $g, agentId: $agent) {
            ... on Frontier { seq rows { runnable todo { id claimedBy } } } } }`,
            { g: goalId, agent: a.agentId },
            a.token,
          )
        ).frontier;
      expect((await read()).rows).toEqual([
        { runnable: true, todo: { id: work.id, claimedBy: null } },
      ]);
      await t.ok(CLAIM, { input: { goalId, todoId: work.id } }, b.token);
      expect((await read()).rows).toEqual([
        { runnable: false, todo: { id: work.id, claimedBy: b.agentId } },
      ]);
      const next = await todo(b.token, goalId, { priority: 9 });
      expect((await read()).rows.map((r: { todo: { id: string } }) => r.todo.id)).toEqual([
        next.id,
        work.id,
      ]);
    } finally {
      await second.stop();
      if (other !== database) await other.close();
    }
  });
});
