/**
 * Todos: creation with typed fields and who made them, dependencies (no cycles), lists by priority
 * and status.
 */
import { describe, expect, it } from 'vitest';
import { CreateTodoDocument, TodosDocument } from '../../src/client/generated/graphql.ts';
import { t } from '../support/gateway-per-file.ts';
import { driver } from '../support/harness.ts';
import { team } from '../support/team.ts';
import { COMPLETE, counts, expectBadInput, SET_DEPS, todo } from './fixtures.ts';

describe(`todos (${driver})`, () => {
  it('creates a todo with typed fields, records who did it, and moves the goal sequence', async () => {
    const { goalId, a } = await team(t);
    const before = await counts(goalId);
    const dep = await todo(a.token, goalId);
    const created = await todo(a.token, goalId, {
      title: '  Ship the bilingual homepage  ',
      taskClass: 'USER_ACTION',
      priority: 7,
      dependsOn: [dep.id, dep.id],
      resumeWhen: [`todo_done:${dep.id}`],
      requiredDecisionScopes: ['PUBLIC_CLAIM:Action:bilingual_homepage'],
      requiredCapability: 'network',
      writeScope: ['src/**', 'tests/**'],
      continuationPolicy: 'SAME_AGENT_NON_DELIVERY',
    });
    expect(created).toMatchObject({
      goalId,
      title: 'Ship the bilingual homepage',
      taskClass: 'USER_ACTION',
      status: 'OPEN',
      priority: 7,
      dependsOn: [dep.id],
      resumeWhen: [`todo_done:${dep.id}`],
      requiredDecisionScopes: ['public_claim:action:bilingual_homepage'],
      requiredCapability: 'network',
      writeScope: ['src/**', 'tests/**'],
      continuationPolicy: 'SAME_AGENT_NON_DELIVERY',
      successorOf: null,
      supersededBy: null,
      claim: null,
      lease: { state: 'NONE', holder: null, fence: '0', expiresAt: null },
      createdBy: { kind: 'PEER', agentId: a.agentId },
      updatedBy: { kind: 'PEER', agentId: a.agentId },
    });
    expect(dep.continuationPolicy).toBe('INDEPENDENT_HANDOFF');
    const after = await counts(goalId);
    expect(Number(after?.todos) - Number(before?.todos)).toBe(2);
    expect(Number(after?.seq) - Number(before?.seq)).toBe(2);
    const history = await t.ok(
      `query($g: ID!, $id: ID!) { todoTransitions(goalId: $g, todoId: $id) {
        rows { kind fromStatus toStatus actor { kind agentId } seq at } } }`,
      { g: goalId, id: created.id },
      a.token,
    );
    expect(history.todoTransitions.rows).toEqual([
      {
        kind: 'CREATE',
        fromStatus: null,
        toStatus: 'OPEN',
        actor: { kind: 'PEER', agentId: a.agentId },
        seq: after?.seq,
        at: expect.any(String),
      },
    ]);
  });

  it.each([
    ['an empty title', { title: '   ' }, 'title must not be empty'],
    ['an over-long title', { title: 'x'.repeat(201) }, 'title must be at most 200'],
    ['a priority out of range', { priority: 1001 }, 'priority must be an integer from 0 to 1000'],
    ['an unknown resume form', { resumeWhen: ['merged:123'] }, 'is not a resume condition'],
    [
      'a pr_merged with no number',
      { resumeWhen: ['pr_merged:123'] },
      'must end in #<pull request number>',
    ],
    [
      'a bare pr_merged on a todo with no repository',
      { resumeWhen: ['pr_merged:#123'] },
      'names no repository and the todo has no taskRepository',
    ],
    [
      'a repository URL with credentials',
      { taskRepository: 'https://ghp_abcdefghijklmnopqrstuvwxyz0123456789@github.com/o/r' },
      'with credentials is refused',
    ],
    [
      'a repository with no owner',
      { taskRepository: 'git:github.com/repo' },
      'at least owner/repo',
    ],
    ['a resume condition with no id', { resumeWhen: ['todo_done:'] }, 'must not be empty'],
    [
      'a malformed decision scope',
      { requiredDecisionScopes: ['public_claim:action'] },
      'kind:granularity:scopeKey',
    ],
    [
      'an unknown scope kind',
      { requiredDecisionScopes: ['publish:action:x'] },
      'unknown kind "publish"',
    ],
    [
      'an unknown granularity',
      { requiredDecisionScopes: ['production:team:x'] },
      'unknown granularity "team"',
    ],
    [
      'a bad scope key',
      { requiredDecisionScopes: ['production:action:a b'] },
      'the scopeKey of "production:action:a b" may contain only',
    ],
    ['an unknown dependency', { dependsOn: ['todo_nope'] }, 'unknown todo in this goal: todo_nope'],
    ['an unknown todo in a condition', { resumeWhen: ['todo_done:todo_nope'] }, 'unknown todo'],
    ['an unknown gate in a condition', { resumeWhen: ['gate_resolved:gate_nope'] }, 'unknown gate'],
    ['an absolute write scope', { writeScope: ['/etc/**'] }, 'must be relative'],
    ['a write scope leaving the repository', { writeScope: ['src/../../x'] }, "'..'"],
    [
      'a malformed capability',
      { requiredCapability: 'gpu please' },
      'requiredCapability may contain only',
    ],
  ])('refuses %s as BAD_USER_INPUT and writes nothing', async (_name, input, message) => {
    const { goalId, a } = await team(t);
    const before = await counts(goalId);
    await expectBadInput(
      CreateTodoDocument,
      { input: { goalId, title: 'x', taskClass: 'BLOCKER', ...input } },
      a.token,
      message,
    );
    expect(await counts(goalId)).toEqual(before);
  });

  it('refuses a dependency cycle (and a self-dependency), writing nothing; an acyclic edit works', async () => {
    const { goalId, a } = await team(t);
    const first = await todo(a.token, goalId);
    const second = await todo(a.token, goalId, { dependsOn: [first.id] });
    const third = await todo(a.token, goalId, { dependsOn: [second.id] });
    const before = await counts(goalId);
    await expectBadInput(
      SET_DEPS,
      { input: { goalId, todoId: first.id, dependsOn: [third.id] } },
      a.token,
      'dependsOn would make a cycle',
    );
    await expectBadInput(
      SET_DEPS,
      { input: { goalId, todoId: first.id, dependsOn: [first.id] } },
      a.token,
      'cannot depend on or wait for itself',
    );
    expect(await counts(goalId)).toEqual(before);

    const other = await todo(a.token, goalId);
    const edited = await t.ok(
      SET_DEPS,
      { input: { goalId, todoId: first.id, dependsOn: [other.id] } },
      a.token,
    );
    expect(edited.setDependencies).toMatchObject({ __typename: 'Todo', dependsOn: [other.id] });
  });

  it('lists todos by priority, filters by status, and says when a list is truncated', async () => {
    const { goalId, a } = await team(t);
    const low = await todo(a.token, goalId, { priority: 1 });
    const high = await todo(a.token, goalId, { priority: 9 });
    const done = await todo(a.token, goalId, { priority: 5 });
    await t.ok(
      COMPLETE,
      { input: { goalId, todoId: done.id, evidenceRefs: ['commit:abc'] } },
      a.token,
    );
    const all = await t.ok(TodosDocument, { goalId }, a.token);
    expect(all.todos.rows.map((r: any) => r.id)).toEqual([high.id, done.id, low.id]);
    expect(all.todos.omittedRowCount).toBe(0);
    const open = await t.ok(TodosDocument, { goalId, statuses: ['OPEN'], limit: 1 }, a.token);
    expect(open.todos.rows.map((r: any) => r.id)).toEqual([high.id]);
    expect(open.todos.omittedRowCount).toBe(1);
    expect(open.todos.seq).toBe((await counts(goalId))?.seq);
  });
});
