/**
 * Vision and capabilities: one bounded vision per agent; capabilities per agent, which grant no
 * authority over a gate.
 */
import { describe, expect, it } from 'vitest';
import { SetVisionDocument } from '../../src/client/generated/graphql.ts';
import { visionsOfGoal } from '../../src/work/visions.ts';
import { database, t } from '../support/gateway-per-file.ts';
import { driver } from '../support/harness.ts';
import { team } from '../support/team.ts';
import {
  counts,
  expectBadInput,
  frontierOf,
  gate,
  guardKinds,
  rowOf,
  SET_CAPABILITIES,
  todo,
} from './fixtures.ts';

describe(`vision and capabilities (${driver})`, () => {
  const vision = (goalId: string, summary: string, extra: Record<string, unknown> = {}) => ({
    input: {
      goalId,
      roleScope: 'docs lane',
      visionSummary: summary,
      acceptanceSummary: 'all pages bilingual',
      replanTriggerSummary: 'a gate is denied',
      ...extra,
    },
  });

  it('keeps one bounded vision row per agent, replaced on each set', async () => {
    const { goalId, a, b, steward } = await team(t);
    await t.ok(SetVisionDocument, vision(goalId, 'first'), a.token);
    const second = await t.ok(SetVisionDocument, vision(goalId, 'second'), a.token);
    expect(second.setVision).toMatchObject({
      __typename: 'Vision',
      agentId: a.agentId,
      visionSummary: 'second',
    });
    const forB = await t.ok(
      SetVisionDocument,
      vision(goalId, 'b via steward', { agentId: b.agentId }),
      steward,
    );
    expect(forB.setVision).toMatchObject({
      agentId: b.agentId,
      updatedBy: { kind: 'STEWARD', agentId: b.agentId },
    });
    const before = await counts(goalId);
    await expectBadInput(
      SetVisionDocument,
      vision(goalId, 'x'.repeat(501)),
      a.token,
      'visionSummary must be at most 500',
    );
    await expectBadInput(SetVisionDocument, vision(goalId, 'x'), steward, 'must name the agent');
    expect(await counts(goalId)).toEqual(before);

    const listed = await t.ok(
      `query($g: ID!) { visions(goalId: $g) { rows { agentId visionSummary } } }`,
      { g: goalId },
      b.token,
    );
    expect(listed.visions.rows).toEqual(
      [
        { agentId: a.agentId, visionSummary: 'second' },
        { agentId: b.agentId, visionSummary: 'b via steward' },
      ].sort((x, y) => x.agentId.localeCompare(y.agentId)),
    );
    const read = await visionsOfGoal(database.db, goalId);
    expect(read.map((v) => v.agentId).sort()).toEqual([a.agentId, b.agentId].sort());
  });

  it('declares capabilities per agent; capability grants no authority over a gate', async () => {
    const { goalId, a } = await team(t);
    const work = await todo(a.token, goalId, {
      requiredCapability: 'network',
      requiredDecisionScopes: ['public_claim:action:post'],
    });
    await gate(a.token, goalId, { kind: 'PUBLIC_CLAIM', granularity: 'ACTION', scopeKey: 'post' });
    expect(guardKinds(rowOf(await frontierOf(a.token, goalId), work.id))).toEqual([
      'DECISION_SCOPE',
      'CAPABILITY',
    ]);
    const set = await t.ok(
      SET_CAPABILITIES,
      { input: { goalId, capabilities: ['network', 'gpu', 'network'] } },
      a.token,
    );
    expect(set.setCapabilities).toEqual({
      __typename: 'AgentCapabilities',
      agentId: a.agentId,
      capabilities: ['gpu', 'network'],
    });
    expect(guardKinds(rowOf(await frontierOf(a.token, goalId), work.id))).toEqual([
      'DECISION_SCOPE',
    ]);
    await expectBadInput(
      SET_CAPABILITIES,
      { input: { goalId, capabilities: ['has space'] } },
      a.token,
      'may contain only',
    );
  });
});
