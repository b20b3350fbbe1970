/**
 * Authority and scope: another goal answers ScopeGap, providers stay off the work graph, a
 * delegated peer works as itself.
 */
import { describe, expect, it } from 'vitest';
import {
  CreateTodoDocument,
  DelegateGoalDocument,
  GatesDocument,
  TodosDocument,
} from '../../src/client/generated/graphql.ts';
import { t } from '../support/gateway-per-file.ts';
import { createGoal, driver, issueCredential, uid } from '../support/harness.ts';
import { team } from '../support/team.ts';
import {
  CLAIM,
  counts,
  expectBadInput,
  FRONTIER,
  frontierOf,
  OPEN_GATE,
  rowOf,
  todo,
} from './fixtures.ts';

describe(`authority and scope (${driver})`, () => {
  it('answers ScopeGap for another goal and for a goal that does not exist, writing nothing', async () => {
    const mine = await team(t);
    const theirs = await team(t);
    const foreign = await todo(theirs.a.token, theirs.goalId);
    const before = await counts(theirs.goalId);
    const missing = uid('goal');
    for (const goalId of [theirs.goalId, missing]) {
      const create = await t.ok(
        CreateTodoDocument,
        { input: { goalId, title: 'x', taskClass: 'BLOCKER' } },
        mine.a.token,
      );
      expect(create.createTodo).toEqual({
        __typename: 'ScopeGap',
        goalId,
        reason: 'AUDIENCE_NOT_AUTHORIZED',
      });
      const claim = await t.ok(CLAIM, { input: { goalId, todoId: foreign.id } }, mine.a.token);
      expect(claim.claimTodo).toEqual({
        __typename: 'ScopeGap',
        goalId,
        reason: 'AUDIENCE_NOT_AUTHORIZED',
      });
      const frontier = await t.ok(FRONTIER, { goalId }, mine.a.token);
      expect(frontier.frontier).toEqual({
        __typename: 'ScopeGap',
        goalId,
        reason: 'AUDIENCE_NOT_AUTHORIZED',
      });
      const todos = await t.ok(TodosDocument, { goalId }, mine.a.token);
      expect(todos.todos).toMatchObject({
        rows: [],
        scopeGap: { reason: 'AUDIENCE_NOT_AUTHORIZED' },
      });
      const gates = await t.ok(GatesDocument, { goalId }, mine.steward);
      expect(gates.gates).toMatchObject({
        rows: [],
        scopeGap: { reason: 'AUDIENCE_NOT_AUTHORIZED' },
      });
    }
    // A todo id from another goal is unknown in mine: ids never cross goals.
    const crossed = await t.ok(
      CLAIM,
      { input: { goalId: mine.goalId, todoId: foreign.id } },
      mine.a.token,
    );
    expect(crossed.claimTodo).toEqual({ __typename: 'UnknownTodo', todoId: foreign.id });
    await expectBadInput(
      CreateTodoDocument,
      { input: { goalId: mine.goalId, title: 'x', taskClass: 'BLOCKER', dependsOn: [foreign.id] } },
      mine.a.token,
      'unknown todo',
    );
    expect(await counts(theirs.goalId)).toEqual(before);
  });

  it('keeps providers off the work graph entirely', async () => {
    const { goalId, a } = await team(t);
    const work = await todo(a.token, goalId);
    const provider = await issueCredential(t, {
      kind: 'PROVIDER',
      providerId: uid('tmux'),
      goalIds: [goalId],
    });
    const before = await counts(goalId);
    for (const [query, variables] of [
      [CreateTodoDocument, { input: { goalId, title: 'x', taskClass: 'BLOCKER' } }],
      [CLAIM, { input: { goalId, todoId: work.id } }],
      [FRONTIER, { goalId, agentId: a.agentId }],
      [TodosDocument, { goalId }],
      [
        OPEN_GATE,
        { input: { goalId, kind: 'PRODUCTION', granularity: 'GOAL', scopeKey: 'x', reason: 'r' } },
      ],
    ] as const) {
      const result = await t.gql(query, variables, provider.token);
      expect(result.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    }
    const anonymous = await t.gql(
      CreateTodoDocument,
      { input: { goalId, title: 'x', taskClass: 'BLOCKER' } },
      null,
    );
    expect(anonymous.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(await counts(goalId)).toEqual(before);
  });

  it('lets a delegated peer work in the other goal as itself', async () => {
    const home = await team(t);
    const other = await createGoal(t);
    await t.ok(DelegateGoalDocument, {
      input: { goalId: other, agentGoalId: home.goalId, agentId: home.a.agentId },
    });
    const work = await todo(home.a.token, other);
    const claimed = await t.ok(CLAIM, { input: { goalId: other, todoId: work.id } }, home.a.token);
    expect(claimed.claimTodo.todo).toMatchObject({ claim: { agentId: home.a.agentId } });
    expect(rowOf(await frontierOf(home.a.token, other), work.id)).toMatchObject({ runnable: true });
  });
});
