/**
 * A todo's lifecycle: complete with evidence and a successor, supersede with lineage, close
 * without follow-up, defer until a condition.
 */
import { describe, expect, it } from 'vitest';
import {
  CloseNoFollowUpDocument,
  DeferTodoDocument,
  ResumeTodoDocument,
  SupersedeTodoDocument,
  TodosDocument,
} from '../../src/client/generated/graphql.ts';
import { t } from '../support/gateway-per-file.ts';
import { driver, type Operation } from '../support/harness.ts';
import { team } from '../support/team.ts';
import {
  ACQUIRE,
  CLAIM,
  COMPLETE,
  counts,
  expectBadInput,
  frontierOf,
  gate,
  guardKinds,
  RESOLVE_GATE,
  rowOf,
  SET_CAPABILITIES,
  todo,
} from './fixtures.ts';

describe(`lifecycle (${driver})`, () => {
  it('completes with evidence and a successor in one transaction; continuation policy decides its owner', async () => {
    const { goalId, a } = await team(t);
    const same = await todo(a.token, goalId, { continuationPolicy: 'SAME_AGENT_NON_DELIVERY' });
    await t.ok(CLAIM, { input: { goalId, todoId: same.id } }, a.token);
    await t.ok(ACQUIRE, { input: { goalId, todoId: same.id, ttlMs: 60_000 } }, a.token);
    const done = await t.ok(
      COMPLETE,
      {
        input: {
          goalId,
          todoId: same.id,
          evidenceRefs: ['git:abc123', 'test/work.test.ts'],
          successor: { title: 'Follow-up check', taskClass: 'CONTINUOUS_MONITOR' },
        },
      },
      a.token,
    );
    expect(done.completeTodo.todo).toMatchObject({
      status: 'DONE',
      evidenceRefs: ['git:abc123', 'test/work.test.ts'],
      closedAt: expect.any(String),
      lease: { state: 'NONE' },
    });
    expect(done.completeTodo.successor).toMatchObject({
      successorOf: same.id,
      status: 'OPEN',
      taskClass: 'CONTINUOUS_MONITOR',
      claim: { agentId: a.agentId },
    });

    const handoff = await todo(a.token, goalId);
    await t.ok(CLAIM, { input: { goalId, todoId: handoff.id } }, a.token);
    const next = await t.ok(
      COMPLETE,
      {
        input: {
          goalId,
          todoId: handoff.id,
          evidenceRefs: ['pr:1'],
          successor: { title: 'n', taskClass: 'ADVANCEMENT_TASK' },
        },
      },
      a.token,
    );
    expect(next.completeTodo.successor).toMatchObject({ successorOf: handoff.id, claim: null });
  });

  it('refuses completion without evidence, with absolute evidence paths, or with a bad successor, writing nothing', async () => {
    const { goalId, a } = await team(t);
    const work = await todo(a.token, goalId);
    const before = await counts(goalId);
    const cases: [Record<string, unknown>, string][] = [
      [{ evidenceRefs: [] }, 'evidenceRefs must name at least one'],
      [{ evidenceRefs: ['/home/me/log.txt'] }, 'must be relative'],
      [{ evidenceRefs: ['~/notes'] }, 'must be relative'],
      [
        { evidenceRefs: ['ok'], successor: { title: '', taskClass: 'BLOCKER' } },
        'successor.title must not be empty',
      ],
      [
        {
          evidenceRefs: ['ok'],
          successor: { title: 'x', taskClass: 'BLOCKER', dependsOn: ['todo_nope'] },
        },
        'unknown todo',
      ],
    ];
    for (const [input, message] of cases) {
      await expectBadInput(
        COMPLETE,
        { input: { goalId, todoId: work.id, ...input } },
        a.token,
        message,
      );
    }
    expect(await counts(goalId)).toEqual(before);
  });

  it('supersedes with lineage: never done, dependents wait for the replacement', async () => {
    const { goalId, a } = await team(t);
    const old = await todo(a.token, goalId, { title: 'old plan' });
    const dependent = await todo(a.token, goalId, { dependsOn: [old.id] });
    const result = await t.ok(
      SupersedeTodoDocument,
      {
        input: {
          goalId,
          todoId: old.id,
          reason: 'direction changed',
          replacement: { title: 'new plan', taskClass: 'ADVANCEMENT_TASK' },
        },
      },
      a.token,
    );
    const { todo: superseded, replacement } = result.supersedeTodo;
    expect(superseded).toMatchObject({
      status: 'SUPERSEDED',
      supersededBy: replacement.id,
      supersedeReason: 'direction changed',
      evidenceRefs: [],
      closedAt: expect.any(String),
    });
    // Lineage both ways: the replacement names the todo it replaces.
    expect(replacement).toMatchObject({ status: 'OPEN', title: 'new plan', successorOf: old.id });

    let frontier = await frontierOf(a.token, goalId);
    expect(frontier.rows.map((r) => r.todo.id)).not.toContain(old.id);
    expect(rowOf(frontier, dependent.id).guards).toMatchObject([
      { kind: 'DEPENDENCY', todoId: replacement.id, todoStatus: 'OPEN' },
    ]);

    // Completing superseded work is illegal and writes nothing.
    const before = await counts(goalId);
    const illegal = await t.ok(
      COMPLETE,
      { input: { goalId, todoId: old.id, evidenceRefs: ['x'] } },
      a.token,
    );
    expect(illegal.completeTodo).toEqual({
      __typename: 'IllegalTransition',
      todoId: old.id,
      from: 'SUPERSEDED',
      attempted: 'COMPLETE',
    });
    expect(await counts(goalId)).toEqual(before);

    await t.ok(
      COMPLETE,
      { input: { goalId, todoId: replacement.id, evidenceRefs: ['x'] } },
      a.token,
    );
    frontier = await frontierOf(a.token, goalId);
    expect(rowOf(frontier, dependent.id)).toMatchObject({ runnable: true, guards: [] });
    const stillSuperseded = await t.ok(
      TodosDocument,
      { goalId, statuses: ['SUPERSEDED'] },
      a.token,
    );
    expect(stillSuperseded.todos.rows.map((r: any) => r.id)).toEqual([old.id]);
  });

  it('supersedes by naming a live replacement, and refuses ambiguous or final replacements', async () => {
    const { goalId, a } = await team(t);
    const old = await todo(a.token, goalId);
    const next = await todo(a.token, goalId);
    const finished = await todo(a.token, goalId);
    await t.ok(COMPLETE, { input: { goalId, todoId: finished.id, evidenceRefs: ['x'] } }, a.token);
    const before = await counts(goalId);
    await expectBadInput(
      SupersedeTodoDocument,
      { input: { goalId, todoId: old.id, reason: 'r' } },
      a.token,
      'exactly one of',
    );
    await expectBadInput(
      SupersedeTodoDocument,
      {
        input: {
          goalId,
          todoId: old.id,
          reason: 'r',
          replacementId: next.id,
          replacement: { title: 'x', taskClass: 'BLOCKER' },
        },
      },
      a.token,
      'exactly one of',
    );
    await expectBadInput(
      SupersedeTodoDocument,
      { input: { goalId, todoId: old.id, reason: 'r', replacementId: finished.id } },
      a.token,
      'is DONE',
    );
    await expectBadInput(
      SupersedeTodoDocument,
      { input: { goalId, todoId: old.id, reason: 'r', replacementId: old.id } },
      a.token,
      'cannot replace itself',
    );
    expect(await counts(goalId)).toEqual(before);
    const named = await t.ok(
      SupersedeTodoDocument,
      { input: { goalId, todoId: old.id, reason: 'merged', replacementId: next.id } },
      a.token,
    );
    expect(named.supersedeTodo).toMatchObject({
      todo: { status: 'SUPERSEDED', supersededBy: next.id },
      replacement: { id: next.id, successorOf: old.id },
    });
    // A todo that already continues another cannot be named as a second one's replacement.
    const other = await todo(a.token, goalId);
    await expectBadInput(
      SupersedeTodoDocument,
      { input: { goalId, todoId: other.id, reason: 'r', replacementId: next.id } },
      a.token,
      'already continues',
    );
  });

  it('illegal transitions are typed and write nothing', async () => {
    const { goalId, a } = await team(t);
    const done = await todo(a.token, goalId);
    await t.ok(COMPLETE, { input: { goalId, todoId: done.id, evidenceRefs: ['x'] } }, a.token);
    const open = await todo(a.token, goalId);
    const before = await counts(goalId);
    const attempts: [Operation, Record<string, unknown>, string, string][] = [
      [CLAIM, {}, done.id, 'CLAIM'],
      [COMPLETE, { evidenceRefs: ['x'] }, done.id, 'COMPLETE'],
      [DeferTodoDocument, { resumeWhen: ['capacity_available:gpu'] }, done.id, 'DEFER'],
      [CloseNoFollowUpDocument, { reason: 'r' }, done.id, 'CLOSE_NO_FOLLOW_UP'],
      [ResumeTodoDocument, {}, open.id, 'RESUME'],
      [ACQUIRE, { ttlMs: 1000 }, done.id, 'ACQUIRE_LEASE'],
    ];
    for (const [query, input, todoId, attempted] of attempts) {
      const result = await t.ok(query, { input: { goalId, todoId, ...input } }, a.token);
      expect(Object.values(result)[0], attempted).toMatchObject({
        __typename: 'IllegalTransition',
        from: todoId === done.id ? 'DONE' : 'OPEN',
        attempted,
      });
    }
    expect(await counts(goalId)).toEqual(before);
  });

  it('closes with no follow-up only with a reason; its dependents are told it will never be done', async () => {
    const { goalId, a } = await team(t);
    const work = await todo(a.token, goalId);
    const dependent = await todo(a.token, goalId, { dependsOn: [work.id] });
    await expectBadInput(
      CloseNoFollowUpDocument,
      { input: { goalId, todoId: work.id, reason: '  ' } },
      a.token,
      'reason must not be empty',
    );
    const closed = await t.ok(
      CloseNoFollowUpDocument,
      { input: { goalId, todoId: work.id, reason: 'acceptance already met' } },
      a.token,
    );
    expect(closed.closeNoFollowUp).toMatchObject({
      status: 'CLOSED_NO_FOLLOW_UP',
      noFollowUpReason: 'acceptance already met',
      closedAt: expect.any(String),
    });
    const [guard] = rowOf(await frontierOf(a.token, goalId), dependent.id).guards;
    expect(guard).toMatchObject({
      kind: 'DEPENDENCY',
      todoId: work.id,
      todoStatus: 'CLOSED_NO_FOLLOW_UP',
    });
    expect(guard.detail).toContain('will never be done');
  });

  it('defers with resume conditions; a met condition makes it STALE until resumed', async () => {
    const { goalId, a, b, steward } = await team(t);
    const blocker = await todo(a.token, goalId);
    const g = await gate(a.token, goalId, {
      kind: 'DIRECTION',
      granularity: 'GOAL',
      scopeKey: 'g',
    });
    const work = await todo(a.token, goalId);
    await expectBadInput(
      DeferTodoDocument,
      { input: { goalId, todoId: work.id, resumeWhen: [] } },
      a.token,
      'at least one condition',
    );
    await expectBadInput(
      DeferTodoDocument,
      { input: { goalId, todoId: work.id, resumeWhen: ['pr_merged:#1'] } },
      a.token,
      'names no repository and the todo has no taskRepository',
    );
    await expectBadInput(
      DeferTodoDocument,
      { input: { goalId, todoId: work.id, resumeWhen: [`todo_done:${work.id}`] } },
      a.token,
      'itself',
    );
    const deferred = await t.ok(
      DeferTodoDocument,
      {
        input: {
          goalId,
          todoId: work.id,
          reason: 'waiting on the decision and a GPU host',
          resumeWhen: [
            `todo_done:${blocker.id}`,
            `gate_resolved:${g.id}`,
            'capacity_available:gpu',
          ],
        },
      },
      a.token,
    );
    expect(deferred.deferTodo).toMatchObject({
      status: 'DEFERRED',
      deferReason: 'waiting on the decision and a GPU host',
    });
    let row = rowOf(await frontierOf(a.token, goalId), work.id);
    expect(row.guards).toMatchObject([
      { kind: 'RESUME_CONDITION', condition: `todo_done:${blocker.id}`, todoId: blocker.id },
      { kind: 'RESUME_CONDITION', condition: `gate_resolved:${g.id}`, gateId: g.id },
      { kind: 'RESUME_CONDITION', condition: 'capacity_available:gpu', capability: 'gpu' },
    ]);

    await t.ok(COMPLETE, { input: { goalId, todoId: blocker.id, evidenceRefs: ['x'] } }, a.token);
    await t.ok(RESOLVE_GATE, { input: { goalId, gateId: g.id, decision: 'GRANTED' } }, steward);
    row = rowOf(await frontierOf(a.token, goalId), work.id);
    expect(row.guards.map((x: any) => x.condition)).toEqual(['capacity_available:gpu']);
    await t.ok(SET_CAPABILITIES, { input: { goalId, capabilities: ['gpu'] } }, b.token);
    row = rowOf(await frontierOf(a.token, goalId), work.id);
    expect(guardKinds(row)).toEqual(['STALE']);

    const resumed = await t.ok(ResumeTodoDocument, { input: { goalId, todoId: work.id } }, a.token);
    expect(resumed.resumeTodo).toMatchObject({ __typename: 'Todo', status: 'OPEN' });
    expect(rowOf(await frontierOf(a.token, goalId), work.id)).toMatchObject({
      runnable: true,
      guards: [],
    });
  });
});
