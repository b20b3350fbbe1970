/**
 * Repositories and pr_merged conditions: credential-free repository identities, merges that
 * satisfy only a todo's own repository.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { DeferTodoDocument, RecordEventDocument } from '../../src/client/generated/graphql.ts';
import { rowsOf } from '../../src/db/sql.ts';
import { database, t } from '../support/gateway-per-file.ts';
import { driver, issueCredential, peerInNewGoal, uid } from '../support/harness.ts';
import { team } from '../support/team.ts';
import {
  COMPLETE,
  counts,
  expectBadInput,
  frontierOf,
  guardKinds,
  rowOf,
  todo,
} from './fixtures.ts';

describe(`repositories and pr_merged conditions (${driver})`, () => {
  const RECORD = `mutation($input: RecordExternalEventInput!) {
    recordExternalEvent(input: $input) {
      __typename
      ... on ExternalEvent {
        waitingTodoIds replayed
        fact { id kind repository ref observedAt recordedBy { kind agentId } }
      }
      ... on ScopeGap { goalId reason }
      ... on UnknownAgent { agentId }
    }
  }`;
  const merged = (goalId: string, repository: string, ref: string) => ({
    input: { goalId, kind: 'PR_MERGED', repository, ref, observedAt: new Date().toISOString() },
  });
  const ledgerRows = async (goalId: string, kind: string) =>
    rowsOf<Record<string, any>>(
      await database.db.execute(sql`select agent_id, event_kind, goal_change, summary, material
        from ledger_events where goal_id = ${goalId} and event_kind = ${kind} order by seq`),
    );

  it('stores a credential-free repository identity, in canonical form', async () => {
    const { goalId, a } = await team(t);
    const created = await todo(a.token, goalId, {
      taskRepository: 'https://github.com/owner/repo.git',
      resumeWhen: ['pr_merged:#12', 'pr_merged:Other/thing#3'],
    });
    expect(created).toMatchObject({
      taskRepository: 'git:github.com/owner/repo',
      resumeWhen: ['pr_merged:#12', 'pr_merged:git:github.com/Other/thing#3'],
    });
    // A successor and a replacement carry their own repository; a bare #n needs one there too.
    await expectBadInput(
      COMPLETE,
      {
        input: {
          goalId,
          todoId: created.id,
          evidenceRefs: ['x'],
          successor: { title: 'next', taskClass: 'ADVANCEMENT_TASK', resumeWhen: ['pr_merged:#1'] },
        },
      },
      a.token,
      'successor.resumeWhen: "pr_merged:#1" names no repository',
    );
  });

  it('a bare pr_merged:#n is satisfied only by a merge recorded in the todo’s own repository', async () => {
    const { goalId, a, b } = await team(t);
    const own = await todo(a.token, goalId, {
      taskRepository: 'git:github.com/owner/repo',
      resumeWhen: ['pr_merged:#7'],
    });
    const cross = await todo(a.token, goalId, {
      taskRepository: 'git:github.com/other/place',
      resumeWhen: ['pr_merged:owner/repo#7'],
    });
    const held = (f: any, id: string) => rowOf(f, id).guards;
    let frontier = await frontierOf(a.token, goalId);
    expect(held(frontier, own.id)).toMatchObject([
      {
        kind: 'RESUME_CONDITION',
        condition: 'pr_merged:#7',
        repository: 'git:github.com/owner/repo',
        detail: expect.stringContaining('no merge of git:github.com/owner/repo#7 is recorded'),
      },
    ]);
    expect(held(frontier, cross.id)).toMatchObject([
      { kind: 'RESUME_CONDITION', repository: 'git:github.com/owner/repo' },
    ]);

    // The same number in another repository satisfies neither.
    const elsewhere = await t.ok(
      RECORD,
      merged(goalId, 'git:github.com/other/place', '7'),
      b.token,
    );
    expect(elsewhere.recordExternalEvent).toMatchObject({ waitingTodoIds: [], replayed: false });
    frontier = await frontierOf(a.token, goalId);
    expect(guardKinds(rowOf(frontier, own.id))).toEqual(['RESUME_CONDITION']);
    expect(guardKinds(rowOf(frontier, cross.id))).toEqual(['RESUME_CONDITION']);

    const before = await counts(goalId);
    const right = await t.ok(
      RECORD,
      merged(goalId, 'git@github.com:owner/repo.git', '#7'),
      b.token,
    );
    expect(right.recordExternalEvent).toMatchObject({
      __typename: 'ExternalEvent',
      replayed: false,
      fact: {
        kind: 'PR_MERGED',
        repository: 'git:github.com/owner/repo',
        ref: '7',
        recordedBy: { kind: 'PEER', agentId: b.agentId },
      },
    });
    expect([...right.recordExternalEvent.waitingTodoIds].sort()).toEqual([own.id, cross.id].sort());
    expect(Number((await counts(goalId))?.seq)).toBe(Number(before?.seq) + 1);
    frontier = await frontierOf(a.token, goalId);
    expect(rowOf(frontier, own.id)).toMatchObject({ runnable: true, guards: [] });
    expect(rowOf(frontier, cross.id)).toMatchObject({ runnable: true, guards: [] });

    // The ledger row, goal-level because live todos waited for it; only the gateway writes one.
    expect(await ledgerRows(goalId, 'EXTERNAL_EVENT')).toMatchObject([
      { agent_id: b.agentId, goal_change: null, material: true },
      { agent_id: b.agentId, goal_change: 'NEXT_ACTION', material: true },
    ]);
    await expectBadInput(
      RecordEventDocument,
      { input: { goalId, eventKind: 'EXTERNAL_EVENT', summary: 'merged, trust me' } },
      a.token,
      'written by the gateway itself (recordExternalEvent)',
    );

    // Recording the same fact again returns the original and writes nothing.
    const settled = await counts(goalId);
    const again = await t.ok(RECORD, merged(goalId, 'https://github.com/owner/repo', '7'), a.token);
    expect(again.recordExternalEvent).toMatchObject({
      replayed: true,
      waitingTodoIds: [],
      fact: { id: right.recordExternalEvent.fact.id, recordedBy: { agentId: b.agentId } },
    });
    expect(await counts(goalId)).toEqual(settled);
    expect(await ledgerRows(goalId, 'EXTERNAL_EVENT')).toHaveLength(2);
  });

  it('a deferred todo waiting for a merge is STALE once the merge is recorded', async () => {
    const { goalId, a, steward } = await team(t);
    const work = await todo(a.token, goalId, { taskRepository: 'git:github.com/o/r' });
    await t.ok(
      DeferTodoDocument,
      { input: { goalId, todoId: work.id, resumeWhen: ['pr_merged:#31'] } },
      a.token,
    );
    expect(guardKinds(rowOf(await frontierOf(a.token, goalId), work.id))).toEqual([
      'RESUME_CONDITION',
    ]);
    await t.ok(RECORD, merged(goalId, 'git:github.com/o/r', '31'), steward);
    expect(guardKinds(rowOf(await frontierOf(a.token, goalId), work.id))).toEqual(['STALE']);
  });

  it('fails closed on a bare pr_merged:#n with no repository, even one stored before the rule', async () => {
    const { goalId, a, steward } = await team(t);
    const work = await todo(a.token, goalId);
    await expectBadInput(
      DeferTodoDocument,
      { input: { goalId, todoId: work.id, resumeWhen: ['pr_merged:#5'] } },
      a.token,
      'names no repository and the todo has no taskRepository',
    );
    // The frontier does not guess either: a merge of #5 anywhere never satisfies it.
    await database.db.execute(
      sql`update todos set resume_when = '{pr_merged:#5}' where id = ${work.id}`,
    );
    await t.ok(RECORD, merged(goalId, 'git:github.com/o/r', '5'), steward);
    expect(rowOf(await frontierOf(a.token, goalId), work.id).guards).toEqual([
      expect.objectContaining({
        kind: 'RESUME_CONDITION',
        condition: 'pr_merged:#5',
        repository: null,
        detail: expect.stringContaining('fails closed'),
      }),
    ]);
  });

  it('refuses bad facts and callers, writing nothing', async () => {
    const { goalId, a } = await team(t);
    const other = await peerInNewGoal(t);
    const before = await counts(goalId);
    const bad = (input: Record<string, unknown>, message: string) =>
      expectBadInput(
        RECORD,
        { input: { ...merged(goalId, 'git:github.com/o/r', '1').input, ...input } },
        a.token,
        message,
      );
    await bad({ ref: 'abc' }, 'ref must be the pull request number');
    await bad({ ref: '0' }, 'ref must be the pull request number');
    await bad({ observedAt: new Date(Date.now() + 3_600_000).toISOString() }, 'not in the future');
    await bad({ repository: 'https://alice:pw@github.com/o/r' }, 'with credentials is refused');
    const provider = await issueCredential(t, {
      kind: 'PROVIDER',
      providerId: uid('tmux'),
      goalIds: [goalId],
    });
    for (const [token, input] of [
      [provider.token, {}],
      [a.token, { agentId: 'someone-else' }], // a PEER records as itself only
    ] as const) {
      const refused = await t.gql(
        RECORD,
        { input: { ...merged(goalId, 'git:github.com/o/r', '1').input, ...input } },
        token,
      );
      expect(refused.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    }
    const gap = await t.ok(RECORD, merged(goalId, 'git:github.com/o/r', '1'), other.token);
    expect(gap.recordExternalEvent).toEqual({
      __typename: 'ScopeGap',
      goalId,
      reason: 'AUDIENCE_NOT_AUTHORIZED',
    });
    expect(await counts(goalId)).toEqual(before);
    const external = rowsOf<{ n: number }>(
      await database.db.execute(
        sql`select count(*)::int as n from external_events where goal_id = ${goalId}`,
      ),
    );
    expect(external[0]?.n).toBe(0);
  });
});
