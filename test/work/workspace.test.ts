/**
 * The workspace guard: a repository-writing todo runs only from a linked worktree of its
 * repository, declared per agent.
 */
import { describe, expect, it } from 'vitest';
import { t } from '../support/gateway-per-file.ts';
import { driver } from '../support/harness.ts';
import { team } from '../support/team.ts';
import {
  counts,
  DECLARE_WORKSPACE,
  declareWorkspace,
  expectBadInput,
  frontierOf,
  gate,
  guardKinds,
  RESOLVE_GATE,
  rowOf,
  SET_CAPABILITIES,
  todo,
} from './fixtures.ts';

describe(`the workspace guard (${driver})`, () => {
  const REPO = 'git:github.com/acme/app';

  it('a repository-writing todo runs only from a linked worktree of its repository', async () => {
    const { goalId, a } = await team(t);
    const writing = await todo(a.token, goalId, { taskRepository: REPO, writeScope: ['src/**'] });
    const reading = await todo(a.token, goalId, { taskRepository: REPO }); // writes nothing
    const unnamed = await todo(a.token, goalId, { writeScope: ['docs/**'] }); // names no repository
    const workspaceGuard = async () => {
      const frontier = await frontierOf(a.token, goalId);
      expect(rowOf(frontier, reading.id)).toMatchObject({ runnable: true });
      expect(rowOf(frontier, unnamed.id)).toMatchObject({ runnable: true });
      return rowOf(frontier, writing.id).guards;
    };
    expect(await workspaceGuard()).toMatchObject([
      {
        kind: 'WORKSPACE',
        workspaceReason: 'NO_WORKSPACE',
        repository: REPO,
        detail: expect.stringContaining('declared no workspace'),
      },
    ]);

    const before = await counts(goalId);
    const declared = await declareWorkspace(a, 'https://github.com/acme/app.git', 'CANONICAL');
    expect(declared).toMatchObject({
      agentId: a.agentId,
      workspace: { repository: REPO, worktree: 'CANONICAL', revision: 'a1b2c3d4e5f6' },
      declaredBy: { kind: 'PEER', agentId: a.agentId },
    });
    expect(Number((await counts(goalId))?.seq)).toBe(Number(before?.seq) + 1);
    // The canonical checkout of the right repository is refused.
    expect(await workspaceGuard()).toMatchObject([
      { kind: 'WORKSPACE', workspaceReason: 'CANONICAL_CHECKOUT', repository: REPO },
    ]);
    await declareWorkspace(a, 'git:github.com/acme/other');
    expect(await workspaceGuard()).toMatchObject([
      {
        kind: 'WORKSPACE',
        workspaceReason: 'REPOSITORY_MISMATCH',
        detail: expect.stringContaining('runs in git:github.com/acme/other'),
      },
    ]);
    await declareWorkspace(a, REPO);
    expect(await workspaceGuard()).toEqual([]);
    const frontier = await t.ok(
      `query($g: ID!) { frontier(goalId: $g) { ... on Frontier { workspace { repository worktree revision } } } }`,
      { g: goalId },
      a.token,
    );
    expect(frontier.frontier.workspace).toEqual({
      repository: REPO,
      worktree: 'LINKED',
      revision: 'a1b2c3d4e5f6',
    });
    const listed = await t.ok(
      `query($g: ID!) { workspaces(goalId: $g) { rows { agentId workspace { worktree } } scopeGap { reason } } }`,
      { g: goalId },
      a.token,
    );
    expect(listed.workspaces).toEqual({
      rows: [{ agentId: a.agentId, workspace: { worktree: 'LINKED' } }],
      scopeGap: null,
    });
  });

  it('keeps decision scope, capability and workspace independent: none implies or waives another', async () => {
    const { goalId, a, steward } = await team(t);
    const g = await gate(a.token, goalId, {
      kind: 'PRODUCTION',
      granularity: 'ACTION',
      scopeKey: 'deploy',
    });
    const work = await todo(a.token, goalId, {
      taskRepository: REPO,
      writeScope: ['deploy/**'],
      requiredCapability: 'network',
      requiredDecisionScopes: ['production:action:deploy'],
    });
    const kinds = async () => guardKinds(rowOf(await frontierOf(a.token, goalId), work.id));
    expect(await kinds()).toEqual(['DECISION_SCOPE', 'CAPABILITY', 'WORKSPACE']);
    // A linked worktree of the right repository clears the workspace guard, and only it.
    await declareWorkspace(a, REPO);
    expect(await kinds()).toEqual(['DECISION_SCOPE', 'CAPABILITY']);
    // The capability clears the capability guard; the gate still holds.
    await t.ok(SET_CAPABILITIES, { input: { goalId, capabilities: ['network'] } }, a.token);
    expect(await kinds()).toEqual(['DECISION_SCOPE']);
    // Granting the gate, with the workspace moved to the canonical checkout: only WORKSPACE.
    await t.ok(RESOLVE_GATE, { input: { goalId, gateId: g.id, decision: 'GRANTED' } }, steward);
    await declareWorkspace(a, REPO, 'CANONICAL');
    expect(await kinds()).toEqual(['WORKSPACE']);
    // And dropping the capability again brings back CAPABILITY alone beside it.
    await t.ok(SET_CAPABILITIES, { input: { goalId, capabilities: [] } }, a.token);
    expect(await kinds()).toEqual(['CAPABILITY', 'WORKSPACE']);
  });

  it('is per agent, needs an agent for a steward, and refuses bad declarations, writing nothing', async () => {
    const { goalId, a, b, steward } = await team(t);
    const work = await todo(a.token, goalId, { taskRepository: REPO, writeScope: ['src/**'] });
    await declareWorkspace(a, REPO);
    expect(rowOf(await frontierOf(a.token, goalId), work.id).runnable).toBe(true);
    expect(guardKinds(rowOf(await frontierOf(b.token, goalId), work.id))).toEqual(['WORKSPACE']);
    const onBehalf = await t.ok(
      DECLARE_WORKSPACE,
      {
        input: {
          goalId,
          agentId: b.agentId,
          repository: REPO,
          worktree: 'LINKED',
          revision: 'abcdef1',
        },
      },
      steward,
    );
    expect(onBehalf.declareWorkspace).toMatchObject({
      agentId: b.agentId,
      declaredBy: { kind: 'STEWARD', agentId: b.agentId },
    });
    expect(rowOf(await frontierOf(b.token, goalId), work.id).runnable).toBe(true);

    const before = await counts(goalId);
    const input = { goalId, repository: REPO, worktree: 'LINKED', revision: 'abcdef1' };
    await expectBadInput(DECLARE_WORKSPACE, { input }, steward, 'must name the agent');
    await expectBadInput(
      DECLARE_WORKSPACE,
      { input: { ...input, revision: 'main' } },
      a.token,
      'revision must be a commit id',
    );
    await expectBadInput(
      DECLARE_WORKSPACE,
      { input: { ...input, repository: 'https://tok3n@github.com/acme/app' } },
      a.token,
      'with credentials is refused',
    );
    expect(await counts(goalId)).toEqual(before);
  });
});
