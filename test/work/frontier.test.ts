/**
 * The frontier: runnable rows first, every other todo explained by its guards, in a constant
 * number of statements.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { database, t } from '../support/gateway-per-file.ts';
import { countingDatabase, driver, startTestGateway } from '../support/harness.ts';
import { team } from '../support/team.ts';
import {
  ACQUIRE,
  CLAIM,
  counts,
  declareWorkspace,
  expectBadInput,
  FRONTIER,
  frontierOf,
  gate,
  guardKinds,
  rowOf,
  SET_CAPABILITIES,
  todo,
} from './fixtures.ts';

describe(`the frontier (${driver})`, () => {
  it('lists runnable rows first, each part by priority, then creation, then id', async () => {
    const { goalId, a } = await team(t);
    const first = await todo(a.token, goalId, { priority: 5 });
    const top = await todo(a.token, goalId, { priority: 9 });
    const second = await todo(a.token, goalId, { priority: 5 });
    const held = await todo(a.token, goalId, { priority: 10, dependsOn: [first.id] });
    const tied = [
      await todo(a.token, goalId, { priority: 3 }),
      await todo(a.token, goalId, { priority: 3 }),
    ];
    // Todos created in one transaction share their creation time: the id decides.
    await database.db.execute(sql`update todos set created_at = '2026-01-01T00:00:00Z'
      where id in (${tied[0]?.id}, ${tied[1]?.id})`);
    const frontier = await frontierOf(a.token, goalId);
    expect(frontier.rows.map((row) => row.todo.id)).toEqual([
      top.id,
      first.id,
      second.id,
      ...tied.map((row) => row.id as string).sort(),
      held.id,
    ]);
  });

  it('explains every non-runnable todo with its guards, in guard order', async () => {
    const { goalId, a, b } = await team(t);
    await t.ok(SET_CAPABILITIES, { input: { goalId, capabilities: ['shell'] } }, a.token);
    const dep = await todo(b.token, goalId, { title: 'dep' });
    const g = await gate(b.token, goalId, {
      kind: 'WRITE_SCOPE',
      granularity: 'ACTION',
      scopeKey: 'schema',
    });
    const runnable = await todo(b.token, goalId, {
      title: 'runnable',
      requiredCapability: 'shell',
    });
    const onDep = await todo(b.token, goalId, { title: 'dependency', dependsOn: [dep.id] });
    const gated = await todo(b.token, goalId, {
      title: 'gated',
      requiredDecisionScopes: ['write_scope:action:schema'],
    });
    const theirs = await todo(b.token, goalId, { title: 'claimed' });
    await t.ok(CLAIM, { input: { goalId, todoId: theirs.id } }, b.token);
    const needsGpu = await todo(b.token, goalId, {
      title: 'capability',
      requiredCapability: 'gpu',
    });
    const leased = await todo(b.token, goalId, { title: 'leased' });
    await t.ok(ACQUIRE, { input: { goalId, todoId: leased.id, ttlMs: 60_000 } }, b.token);
    const everything = await todo(b.token, goalId, {
      title: 'everything',
      dependsOn: [dep.id],
      resumeWhen: [`todo_done:${dep.id}`],
      requiredDecisionScopes: ['write_scope:action:schema'],
      requiredCapability: 'gpu',
    });
    await t.ok(CLAIM, { input: { goalId, todoId: everything.id } }, b.token);
    await t.ok(ACQUIRE, { input: { goalId, todoId: everything.id, ttlMs: 60_000 } }, b.token);

    const frontier = await frontierOf(a.token, goalId);
    for (const row of frontier.rows) {
      expect(row.runnable, row.todo.id).toBe(row.guards.length === 0);
      for (const guard of row.guards) expect(guard.detail.length).toBeGreaterThan(0);
    }
    const expected: [Record<string, any>, string[]][] = [
      [dep, []],
      [runnable, []],
      [onDep, ['DEPENDENCY']],
      [gated, ['DECISION_SCOPE']],
      [theirs, ['CLAIMED_BY_OTHER']],
      [needsGpu, ['CAPABILITY']],
      [leased, ['LEASE_HELD']],
      [
        everything,
        [
          'DEPENDENCY',
          'RESUME_CONDITION',
          'DECISION_SCOPE',
          'CLAIMED_BY_OTHER',
          'CAPABILITY',
          'LEASE_HELD',
        ],
      ],
    ];
    for (const [item, kinds] of expected)
      expect(guardKinds(rowOf(frontier, item.id)), item.title).toEqual(kinds);
    expect(rowOf(frontier, everything.id).guards).toMatchObject([
      { todoId: dep.id },
      { todoId: dep.id, condition: `todo_done:${dep.id}` },
      { gateId: g.id, scope: 'write_scope:action:schema' },
      { agentId: b.agentId },
      { capability: 'gpu' },
      { agentId: b.agentId },
    ]);
    expect(frontier.runnableCount).toBe(2);
    expect(frontier.capabilities).toEqual(['shell']);
    expect(frontier.seq).toBe((await counts(goalId))?.seq);
    // The same graph seen by b: its own claim and leases hold nothing back.
    const theirsSeen = await frontierOf(b.token, goalId);
    expect(guardKinds(rowOf(theirsSeen, leased.id))).toEqual([]);
    expect(guardKinds(rowOf(theirsSeen, runnable.id))).toEqual(['CAPABILITY']);
  });

  it('runnable and limit select rows of the whole frontier in its order; the counts stay the whole', async () => {
    const { goalId, a, b } = await team(t);
    const REPO = 'git:github.com/acme/app';
    await declareWorkspace(a, REPO);
    await declareWorkspace(b, REPO);
    const claim = (peer: typeof a, todoId: string) =>
      t.ok(CLAIM, { input: { goalId, todoId } }, peer.token);
    const low = await todo(a.token, goalId, { priority: 1 });
    const high = await todo(a.token, goalId, { priority: 9 });
    const mid = await todo(a.token, goalId, { priority: 5 });
    await todo(a.token, goalId, { priority: 8, dependsOn: [low.id] });
    await claim(b, (await todo(a.token, goalId, { priority: 7 })).id);
    // b's claim of src/** holds back a's todos writing inside it, claimed by a later or not.
    const wide = await todo(a.token, goalId, { taskRepository: REPO, writeScope: ['src/**'] });
    await claim(b, wide.id);
    await todo(a.token, goalId, { priority: 6, taskRepository: REPO, writeScope: ['src/a/**'] });
    const later = await todo(a.token, goalId, { taskRepository: REPO, writeScope: ['src/b/**'] });
    await claim(a, later.id);
    // Of two overlapping claims only the later is held: a's docs claim came first.
    const first = await todo(a.token, goalId, { taskRepository: REPO, writeScope: ['docs/**'] });
    await claim(a, first.id);
    const second = await todo(a.token, goalId, {
      taskRepository: REPO,
      writeScope: ['docs/*.md'],
    });
    await claim(b, second.id);

    const whole = await frontierOf(a.token, goalId);
    const runnable = whole.rows.filter((r) => r.runnable);
    const held = whole.rows.filter((r) => !r.runnable);
    expect(runnable.map((r) => r.todo.id)).toEqual([high.id, mid.id, low.id, first.id]);
    expect(held.length).toBe(6);
    const counts = { rowCount: 10, runnableCount: 4 };
    expect(whole).toMatchObject({ ...counts, omittedRowCount: 0 });

    const ready = await frontierOf(a.token, goalId, undefined, { runnable: true });
    expect(ready.rows).toEqual(runnable);
    expect(ready).toMatchObject({ ...counts, omittedRowCount: 6 });
    const heldOnly = await frontierOf(a.token, goalId, undefined, { runnable: false });
    expect(heldOnly.rows).toEqual(held);
    expect(heldOnly).toMatchObject({ ...counts, omittedRowCount: 4 });
    for (const limit of [0, 2, 100]) {
      const some = await frontierOf(a.token, goalId, undefined, { runnable: true, limit });
      expect(some.rows, `limit ${limit}`).toEqual(runnable.slice(0, limit));
      expect(some).toMatchObject({ ...counts, omittedRowCount: 10 - some.rows.length });
      const heldSome = await frontierOf(a.token, goalId, undefined, { runnable: false, limit });
      expect(heldSome.rows, `held, limit ${limit}`).toEqual(held.slice(0, limit));
      const both = await frontierOf(a.token, goalId, undefined, { limit });
      expect(both.rows, `both, limit ${limit}`).toEqual(whole.rows.slice(0, limit));
      expect(both).toMatchObject(counts);
    }
    // For b, its later docs claim is the one held back, naming a's older one.
    const forB = await frontierOf(b.token, goalId);
    expect(rowOf(forB, second.id).guards).toMatchObject([
      { kind: 'WRITE_SCOPE_CONFLICT', todoId: first.id, agentId: a.agentId },
    ]);
    const readyB = await frontierOf(b.token, goalId, undefined, { runnable: true });
    expect(readyB.rows).toEqual(forB.rows.filter((r) => r.runnable));
    expect(readyB.rows.map((r) => r.todo.id)).not.toContain(second.id);
    expect(readyB.runnableCount).toBe(forB.runnableCount);
  });

  it('refuses a negative or too large limit as BAD_USER_INPUT, answering nothing else', async () => {
    const { goalId, a } = await team(t);
    await todo(a.token, goalId);
    for (const limit of [-1, 5001]) {
      await expectBadInput(
        FRONTIER,
        { goalId, limit },
        a.token,
        'limit must be an integer from 0 to 5000',
      );
      const result = await t.gql(FRONTIER, { goalId, limit, runnable: true }, a.token);
      expect(result.errors).toHaveLength(1);
      expect(result.data?.frontier ?? null).toBeNull();
    }
  });

  it('answers UnknownAgent for an agent not in the goal, and needs an agent for non-peers', async () => {
    const { goalId, a, steward } = await team(t);
    const ghost = await t.ok(FRONTIER, { goalId, agentId: 'ghost' }, a.token);
    expect(ghost.frontier).toEqual({ __typename: 'UnknownAgent', agentId: 'ghost' });
    await expectBadInput(FRONTIER, { goalId }, steward, 'agentId is required');
    const forA = await t.ok(FRONTIER, { goalId, agentId: a.agentId }, steward);
    expect(forA.frontier).toMatchObject({ __typename: 'Frontier', agentId: a.agentId });
  });

  it('runs a constant number of SQL statements, however many todos the goal has', async () => {
    const counting = countingDatabase(database);
    const countingGateway = await startTestGateway(counting.database);
    try {
      const measure = async (todoCount: number) => {
        const { goalId, a, b } = await team(t);
        const g = await gate(a.token, goalId, {
          kind: 'PRODUCTION',
          granularity: 'GOAL',
          scopeKey: 'all',
        });
        let previous: string | null = null;
        for (let i = 0; i < todoCount; i++) {
          const created: Record<string, any> = await todo(a.token, goalId, {
            dependsOn: previous ? [previous] : [],
            taskRepository: 'git:github.com/o/r',
            writeScope: i % 5 ? [`src/m${i % 3}/**`] : ['src/**'],
            resumeWhen: previous
              ? [
                  `todo_done:${previous}`,
                  `gate_resolved:${g.id}`,
                  'capacity_available:gpu',
                  `pr_merged:#${i}`,
                ]
              : [],
            requiredDecisionScopes: i % 2 ? ['production:action:deploy'] : [],
            requiredCapability: i % 3 ? 'gpu' : null,
          });
          if (i % 4 === 0) await t.ok(CLAIM, { input: { goalId, todoId: created.id } }, b.token);
          previous = created.id;
          if (i % 2) {
            await t.ok(
              `mutation($input: RecordExternalEventInput!) { recordExternalEvent(input: $input) { __typename } }`,
              {
                input: {
                  goalId,
                  kind: 'PR_MERGED',
                  repository: 'git:github.com/o/r',
                  ref: String(i),
                  observedAt: new Date().toISOString(),
                },
              },
              a.token,
            );
          }
        }
        await declareWorkspace(a, 'git:github.com/o/r', 'CANONICAL');
        counting.reset();
        const data = await countingGateway.ok(FRONTIER, { goalId }, a.token);
        expect(data.frontier.rows).toHaveLength(todoCount);
        const kinds = new Set(
          data.frontier.rows.flatMap((r: any) => r.guards.map((g: any) => g.kind)),
        );
        expect(kinds).toContain('WRITE_SCOPE_CONFLICT');
        expect(kinds).toContain('WORKSPACE');
        return counting.statements();
      };
      const small = await measure(2);
      const large = await measure(40);
      expect(small).toBeGreaterThan(0);
      expect(large).toBe(small);
      // 10, plus the response cache's one statement for the goal's stamp (a miss here).
      expect(large).toBeLessThanOrEqual(11);
    } finally {
      await countingGateway.stop();
    }
  }, 180_000);
});
