/**
 * Gates and decision scopes: which todos an open gate blocks by granularity, denied and expired
 * gates, malformed gates.
 */
import { describe, expect, it } from 'vitest';
import { GatesDocument } from '../../src/client/generated/graphql.ts';
import { t } from '../support/gateway-per-file.ts';
import { driver, eventually } from '../support/harness.ts';
import { team } from '../support/team.ts';
import {
  ACQUIRE,
  CLAIM,
  counts,
  expectBadInput,
  frontierOf,
  gate,
  guardKinds,
  OPEN_GATE,
  RESOLVE_GATE,
  rowOf,
  todo,
} from './fixtures.ts';

describe(`gates and decision scopes (${driver})`, () => {
  it('G1 public_claim:action:bilingual_homepage blocks todo A, not todo B; priority does not bypass it', async () => {
    const { goalId, a, steward } = await team(t);
    const todoA = await todo(a.token, goalId, {
      title: 'Announce the bilingual homepage',
      priority: 1000,
      requiredDecisionScopes: ['public_claim:action:bilingual_homepage'],
    });
    const todoB = await todo(a.token, goalId, {
      title: 'Repair internal link checker',
      priority: 0,
    });
    const g1 = await gate(a.token, goalId, {
      kind: 'PUBLIC_CLAIM',
      granularity: 'ACTION',
      scopeKey: 'bilingual_homepage',
    });
    expect(g1).toMatchObject({ scope: 'public_claim:action:bilingual_homepage', state: 'OPEN' });

    const frontier = await frontierOf(a.token, goalId);
    expect(rowOf(frontier, todoB.id)).toMatchObject({ runnable: true, guards: [] });
    expect(rowOf(frontier, todoA.id)).toMatchObject({
      runnable: false,
      guards: [
        {
          kind: 'DECISION_SCOPE',
          gateId: g1.id,
          scope: 'public_claim:action:bilingual_homepage',
        },
      ],
    });
    // Runnable rows first, even though A has the top priority.
    expect(frontier.rows.map((r) => r.todo.id)).toEqual([todoB.id, todoA.id]);

    // Claiming it and holding a lease are legal, and still do not make it runnable.
    expect(
      (await t.ok(CLAIM, { input: { goalId, todoId: todoA.id } }, a.token)).claimTodo.__typename,
    ).toBe('ClaimedTodo');
    const lease = await t.ok(
      ACQUIRE,
      { input: { goalId, todoId: todoA.id, ttlMs: 60_000 } },
      a.token,
    );
    expect(lease.acquireLease).toMatchObject({ __typename: 'Lease', state: 'ACTIVE', fence: '1' });
    expect(guardKinds(rowOf(await frontierOf(a.token, goalId), todoA.id))).toEqual([
      'DECISION_SCOPE',
    ]);

    // A peer cannot grant itself authority; the steward can.
    const selfGrant = await t.gql(
      RESOLVE_GATE,
      { input: { goalId, gateId: g1.id, decision: 'GRANTED' } },
      a.token,
    );
    expect(selfGrant.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const granted = await t.ok(
      RESOLVE_GATE,
      { input: { goalId, gateId: g1.id, decision: 'GRANTED', note: 'go ahead' } },
      steward,
    );
    expect(granted.resolveGate).toMatchObject({
      __typename: 'Gate',
      state: 'GRANTED',
      decision: 'GRANTED',
    });
    expect(rowOf(await frontierOf(a.token, goalId), todoA.id)).toMatchObject({
      runnable: true,
      guards: [],
    });
    const again = await t.ok(
      RESOLVE_GATE,
      { input: { goalId, gateId: g1.id, decision: 'DENIED' } },
      steward,
    );
    expect(again.resolveGate).toMatchObject({
      __typename: 'GateNotOpen',
      gate: { decision: 'GRANTED' },
    });
  });

  it('covers by granularity: GOAL covers every action of its kind, LANE its lane, ACTION only its key; kinds must match', async () => {
    const { goalId, a } = await team(t);
    const needs = async (scope: string) =>
      (await todo(a.token, goalId, { requiredDecisionScopes: [scope] })).id;
    const homepage = await needs('production:action:homepage');
    const docsIndex = await needs('production:action:docs/index');
    const otherLane = await needs('production:action:api/deploy');
    const laneWide = await needs('production:lane:docs');
    const goalWide = await needs('production:goal:everything');
    const otherKind = await needs('private_read:action:homepage');
    const lane = await gate(a.token, goalId, {
      kind: 'PRODUCTION',
      granularity: 'LANE',
      scopeKey: 'docs',
    });
    const action = await gate(a.token, goalId, {
      kind: 'PRODUCTION',
      granularity: 'ACTION',
      scopeKey: 'homepage',
    });

    let frontier = await frontierOf(a.token, goalId);
    const blockers = (id: string) => rowOf(frontier, id).guards.map((g: any) => g.gateId);
    expect(blockers(homepage)).toEqual([action.id]);
    expect(blockers(docsIndex)).toEqual([lane.id]);
    expect(blockers(laneWide)).toEqual([lane.id]);
    expect(blockers(otherLane)).toEqual([]);
    expect(blockers(goalWide)).toEqual([]); // a narrower gate never covers a broader need
    expect(blockers(otherKind)).toEqual([]);

    const goalGate = await gate(a.token, goalId, {
      kind: 'PRODUCTION',
      granularity: 'GOAL',
      scopeKey: goalId,
    });
    frontier = await frontierOf(a.token, goalId);
    for (const id of [homepage, docsIndex, otherLane, laneWide, goalWide]) {
      expect(blockers(id)).toContain(goalGate.id);
    }
    expect(blockers(otherKind)).toEqual([]);
  });

  it('a denied gate keeps covering; an expired gate covers nothing', async () => {
    const { goalId, a, steward } = await team(t);
    const denied = await todo(a.token, goalId, {
      requiredDecisionScopes: ['resource:action:gpu_hours'],
    });
    const expiring = await todo(a.token, goalId, { requiredDecisionScopes: ['direction:goal:x'] });
    const g = await gate(a.token, goalId, {
      kind: 'RESOURCE',
      granularity: 'ACTION',
      scopeKey: 'gpu_hours',
    });
    await t.ok(RESOLVE_GATE, { input: { goalId, gateId: g.id, decision: 'DENIED' } }, steward);
    const soon = await gate(a.token, goalId, {
      kind: 'DIRECTION',
      granularity: 'GLOBAL',
      scopeKey: 'x',
      // Long enough to read the frontier once before it passes, even on a loaded machine.
      expiresAt: new Date(Date.now() + 3_000).toISOString(),
    });
    let frontier = await frontierOf(a.token, goalId);
    expect(rowOf(frontier, denied.id).guards).toMatchObject([
      { kind: 'DECISION_SCOPE', gateId: g.id },
    ]);
    expect(rowOf(frontier, expiring.id).guards).toMatchObject([
      { kind: 'DECISION_SCOPE', gateId: soon.id },
    ]);

    await eventually(
      async () => {
        const gates = await t.ok(GatesDocument, { goalId }, a.token);
        return gates.gates.rows.find((r: any) => r.id === soon.id)?.state === 'EXPIRED'
          ? true
          : undefined;
      },
      'the gate to expire',
      10_000,
    );
    frontier = await frontierOf(a.token, goalId);
    expect(rowOf(frontier, expiring.id)).toMatchObject({ runnable: true, guards: [] });
    expect(guardKinds(rowOf(frontier, denied.id))).toEqual(['DECISION_SCOPE']);
  });

  it('refuses malformed gates, and an expiry in the past, writing nothing', async () => {
    const { goalId, a } = await team(t);
    const before = await counts(goalId);
    for (const [input, message] of [
      [{ kind: 'PRODUCTION', granularity: 'ACTION', scopeKey: '' }, 'scopeKey must not be empty'],
      [
        { kind: 'PRODUCTION', granularity: 'ACTION', scopeKey: 'has:colon' },
        'scopeKey may contain only',
      ],
      [
        { kind: 'PRODUCTION', granularity: 'ACTION', scopeKey: 'x', reason: ' ' },
        'reason must not be empty',
      ],
      [
        {
          kind: 'PRODUCTION',
          granularity: 'ACTION',
          scopeKey: 'x',
          expiresAt: new Date(Date.now() - 1000).toISOString(),
        },
        'expiresAt must be in the future',
      ],
    ] as const) {
      await expectBadInput(
        OPEN_GATE,
        { input: { goalId, reason: 'why', ...input } },
        a.token,
        message,
      );
    }
    expect(await counts(goalId)).toEqual(before);
  });
});
