/** Claims and leases: one owner per todo, steward claims, fenced leases, racing claims. */
import { describe, expect, it } from 'vitest';
import {
  CloseNoFollowUpDocument,
  DeferTodoDocument,
  ReleaseClaimDocument,
  ReleaseLeaseDocument,
  RenewLeaseDocument,
  SupersedeTodoDocument,
  TodosDocument,
} from '../../src/client/generated/graphql.ts';
import { t } from '../support/gateway-per-file.ts';
import { driver, eventually, issueCredential, registerAgent } from '../support/harness.ts';
import { team } from '../support/team.ts';
import {
  ACQUIRE,
  CLAIM,
  COMPLETE,
  counts,
  expectBadInput,
  frontierOf,
  rowOf,
  SET_DEPS,
  todo,
} from './fixtures.ts';

describe(`claims and leases (${driver})`, () => {
  it("refuses another agent's claim with the owner named; only the claimant or a steward changes its lifecycle", async () => {
    const { goalId, a, b, steward } = await team(t);
    const work = await todo(a.token, goalId);
    const claimed = await t.ok(CLAIM, { input: { goalId, todoId: work.id } }, a.token);
    expect(claimed.claimTodo).toMatchObject({
      __typename: 'ClaimedTodo',
      todo: { claim: { agentId: a.agentId } },
      warnings: [],
    });

    const before = await counts(goalId);
    const refusedClaim = await t.ok(CLAIM, { input: { goalId, todoId: work.id } }, b.token);
    expect(refusedClaim.claimTodo).toEqual({
      __typename: 'ClaimedByOther',
      todoId: work.id,
      owner: a.agentId,
    });
    for (const [query, input] of [
      [COMPLETE, { evidenceRefs: ['commit:1'] }],
      [DeferTodoDocument, { resumeWhen: ['capacity_available:gpu'] }],
      [CloseNoFollowUpDocument, { reason: 'not needed' }],
      [
        SupersedeTodoDocument,
        { reason: 'changed', replacement: { title: 'new', taskClass: 'BLOCKER' } },
      ],
      [ReleaseClaimDocument, {}],
      [SET_DEPS, { dependsOn: [] }],
    ] as const) {
      const result = await t.ok(query, { input: { goalId, todoId: work.id, ...input } }, b.token);
      expect(Object.values(result)[0]).toMatchObject({
        __typename: 'ClaimedByOther',
        owner: a.agentId,
      });
    }
    // Claiming one's own claim again changes nothing.
    expect(
      (await t.ok(CLAIM, { input: { goalId, todoId: work.id } }, a.token)).claimTodo.todo.claim,
    ).toEqual({
      agentId: a.agentId,
    });
    expect(await counts(goalId)).toEqual(before);

    // A claim is not a lease: the claimant's frontier shows it runnable without one.
    expect(rowOf(await frontierOf(a.token, goalId), work.id)).toMatchObject({ runnable: true });
    expect(rowOf(await frontierOf(b.token, goalId), work.id).guards).toMatchObject([
      { kind: 'CLAIMED_BY_OTHER', agentId: a.agentId },
    ]);

    // A steward may act on it; a peer naming another agent may not.
    const impersonate = await t.gql(
      CLAIM,
      { input: { goalId, todoId: work.id, agentId: a.agentId } },
      b.token,
    );
    expect(impersonate.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const released = await t.ok(
      ReleaseClaimDocument,
      { input: { goalId, todoId: work.id } },
      steward,
    );
    expect(released.releaseClaim).toMatchObject({
      __typename: 'Todo',
      claim: null,
      updatedBy: { kind: 'STEWARD', agentId: null },
    });
    const onBehalf = await t.ok(
      CLAIM,
      { input: { goalId, todoId: work.id, agentId: b.agentId } },
      steward,
    );
    expect(onBehalf.claimTodo.todo).toMatchObject({
      claim: { agentId: b.agentId },
      updatedBy: { kind: 'STEWARD', agentId: b.agentId },
    });
    const done = await t.ok(
      COMPLETE,
      { input: { goalId, todoId: work.id, evidenceRefs: ['review:ok'] } },
      steward,
    );
    expect(done.completeTodo).toMatchObject({
      __typename: 'CompletedTodo',
      todo: { status: 'DONE' },
    });
  });

  it('needs a named agent for a steward claim, and answers UnknownAgent for one not in the goal', async () => {
    const { goalId, a, steward } = await team(t);
    const work = await todo(a.token, goalId);
    await expectBadInput(
      CLAIM,
      { input: { goalId, todoId: work.id } },
      steward,
      'must name the agent',
    );
    const ghost = await t.ok(
      CLAIM,
      { input: { goalId, todoId: work.id, agentId: 'ghost' } },
      steward,
    );
    expect(ghost.claimTodo).toEqual({ __typename: 'UnknownAgent', agentId: 'ghost' });
    const missing = await t.ok(CLAIM, { input: { goalId, todoId: 'todo_nope' } }, a.token);
    expect(missing.claimTodo).toEqual({ __typename: 'UnknownTodo', todoId: 'todo_nope' });
  });

  it('fences leases: after expiry and takeover the old holder can neither renew nor release', async () => {
    const { goalId, a, b } = await team(t);
    const work = await todo(a.token, goalId);
    const first = (await t.ok(ACQUIRE, { input: { goalId, todoId: work.id, ttlMs: 1 } }, a.token))
      .acquireLease;
    expect(first).toMatchObject({ __typename: 'Lease', holder: a.agentId, fence: '1' });
    await eventually(async () => {
      const list = await t.ok(TodosDocument, { goalId }, a.token);
      return list.todos.rows[0].lease.state === 'EXPIRED' ? true : undefined;
    }, 'the lease to expire');

    const second = (
      await t.ok(ACQUIRE, { input: { goalId, todoId: work.id, ttlMs: 60_000 } }, b.token)
    ).acquireLease;
    expect(second).toMatchObject({
      __typename: 'Lease',
      state: 'ACTIVE',
      holder: b.agentId,
      fence: '2',
    });

    const before = await counts(goalId);
    const renew = await t.ok(
      RenewLeaseDocument,
      { input: { goalId, todoId: work.id, fence: '1', ttlMs: 60_000 } },
      a.token,
    );
    expect(renew.renewLease).toMatchObject({
      __typename: 'StaleFence',
      fence: '1',
      lease: { state: 'ACTIVE', holder: b.agentId, fence: '2' },
    });
    const release = await t.ok(
      ReleaseLeaseDocument,
      { input: { goalId, todoId: work.id, fence: '1' } },
      a.token,
    );
    expect(release.releaseLease.__typename).toBe('StaleFence');
    // Knowing the current fence is not enough: it must be your lease.
    const foreign = await t.ok(
      ReleaseLeaseDocument,
      { input: { goalId, todoId: work.id, fence: '2' } },
      a.token,
    );
    expect(foreign.releaseLease.__typename).toBe('StaleFence');
    const held = await t.ok(ACQUIRE, { input: { goalId, todoId: work.id, ttlMs: 1000 } }, a.token);
    expect(held.acquireLease).toMatchObject({
      __typename: 'LeaseHeld',
      lease: { state: 'ACTIVE', holder: b.agentId, fence: '2' },
    });
    expect(await counts(goalId)).toEqual(before);
    expect(rowOf(await frontierOf(a.token, goalId), work.id).guards).toMatchObject([
      { kind: 'LEASE_HELD', agentId: b.agentId },
    ]);

    const renewed = await t.ok(
      RenewLeaseDocument,
      { input: { goalId, todoId: work.id, fence: '2', ttlMs: 120_000 } },
      b.token,
    );
    expect(renewed.renewLease).toMatchObject({ __typename: 'Lease', state: 'ACTIVE', fence: '2' });
    expect(Date.parse(renewed.renewLease.expiresAt)).toBeGreaterThan(Date.parse(second.expiresAt));
    const released = await t.ok(
      ReleaseLeaseDocument,
      { input: { goalId, todoId: work.id, fence: '2' } },
      b.token,
    );
    expect(released.releaseLease).toMatchObject({
      __typename: 'Lease',
      state: 'NONE',
      holder: null,
      fence: '2',
    });
    expect(rowOf(await frontierOf(a.token, goalId), work.id)).toMatchObject({ runnable: true });
  });

  it('an expired lease is gone: even its holder cannot renew it; acquiring again gives a new fence', async () => {
    const { goalId, a } = await team(t);
    const work = await todo(a.token, goalId);
    await t.ok(ACQUIRE, { input: { goalId, todoId: work.id, ttlMs: 1 } }, a.token);
    await eventually(async () => {
      const list = await t.ok(TodosDocument, { goalId }, a.token);
      return list.todos.rows[0].lease.state === 'EXPIRED' ? true : undefined;
    }, 'the lease to expire');
    const before = await counts(goalId);
    const renewed = await t.ok(
      RenewLeaseDocument,
      { input: { goalId, todoId: work.id, fence: '1', ttlMs: 60_000 } },
      a.token,
    );
    expect(renewed.renewLease).toMatchObject({
      __typename: 'StaleFence',
      fence: '1',
      lease: { state: 'EXPIRED', fence: '1' },
    });
    expect(await counts(goalId)).toEqual(before);
    const again = await t.ok(
      ACQUIRE,
      { input: { goalId, todoId: work.id, ttlMs: 60_000 } },
      a.token,
    );
    expect(again.acquireLease).toMatchObject({ __typename: 'Lease', state: 'ACTIVE', fence: '2' });
  });

  it('serializes racing claims: exactly one agent wins, the others are told who', async () => {
    const { goalId, a } = await team(t);
    const racers = [a];
    for (let i = 0; i < 4; i++) {
      const agentId = await registerAgent(t, goalId);
      const { token } = await issueCredential(t, { kind: 'PEER', goalId, agentId });
      racers.push({ goalId, agentId, token });
    }
    const work = await todo(a.token, goalId);
    const results = await Promise.all(
      racers.map((r) => t.ok(CLAIM, { input: { goalId, todoId: work.id } }, r.token)),
    );
    const winners = results.filter((r) => r.claimTodo.__typename === 'ClaimedTodo');
    expect(winners).toHaveLength(1);
    const owner = winners[0]?.claimTodo.todo.claim.agentId;
    for (const result of results.filter((r) => r.claimTodo.__typename !== 'ClaimedTodo')) {
      expect(result.claimTodo).toEqual({ __typename: 'ClaimedByOther', todoId: work.id, owner });
    }
    const history = await t.ok(
      `query($g: ID!, $id: ID!) { todoTransitions(goalId: $g, todoId: $id) { rows { kind seq } } }`,
      { g: goalId, id: work.id },
      a.token,
    );
    expect(history.todoTransitions.rows.map((r: any) => r.kind)).toEqual(['CREATE', 'CLAIM']);
  });

  it("refuses a lease on another agent's claimed todo, bad fences and bad ttls", async () => {
    const { goalId, a, b } = await team(t);
    const work = await todo(a.token, goalId);
    await t.ok(CLAIM, { input: { goalId, todoId: work.id } }, a.token);
    const refused = await t.ok(
      ACQUIRE,
      { input: { goalId, todoId: work.id, ttlMs: 1000 } },
      b.token,
    );
    expect(refused.acquireLease).toEqual({ __typename: 'ClaimedByOther', owner: a.agentId });
    await expectBadInput(
      ACQUIRE,
      { input: { goalId, todoId: work.id, ttlMs: 0 } },
      a.token,
      'ttlMs must be',
    );
    await expectBadInput(
      RenewLeaseDocument,
      { input: { goalId, todoId: work.id, fence: 'one', ttlMs: 10 } },
      a.token,
      'fence must be',
    );
  });
});
