/**
 * Write-scope conflicts: a claim whose write scope overlaps another agent's in the same repository
 * is held back and warned of.
 */
import { describe, expect, it } from 'vitest';
import { CreateTodoDocument } from '../../src/client/generated/graphql.ts';
import { t } from '../support/gateway-per-file.ts';
import { driver, issueCredential, registerAgent } from '../support/harness.ts';
import { type Peer, team } from '../support/team.ts';
import {
  CLAIM,
  COMPLETE,
  counts,
  declareWorkspace,
  expectBadInput,
  frontierOf,
  guardKinds,
  rowOf,
  todo,
} from './fixtures.ts';

describe(`write-scope conflicts (${driver})`, () => {
  const REPO = 'git:github.com/acme/app';
  const claim = async (peer: Peer, todoId: string) =>
    (await t.ok(CLAIM, { input: { goalId: peer.goalId, todoId } }, peer.token)).claimTodo;

  it('overlapping scopes across two agents: the later claim is held back, with a warning when it is made', async () => {
    const { goalId, a, b } = await team(t);
    await declareWorkspace(a, REPO);
    await declareWorkspace(b, REPO);
    const wide = await todo(a.token, goalId, { taskRepository: REPO, writeScope: ['src/**'] });
    const narrow = await todo(a.token, goalId, {
      taskRepository: REPO,
      writeScope: ['docs/**', 'src/ledger/**'],
    });
    const disjoint = await todo(a.token, goalId, { taskRepository: REPO, writeScope: ['test/**'] });
    expect((await claim(a, wide.id)).warnings).toEqual([]);

    // For b, the unclaimed narrow todo would write inside a's claimed scope.
    let forB = await frontierOf(b.token, goalId);
    expect(rowOf(forB, narrow.id)).toMatchObject({
      runnable: false,
      guards: [
        {
          kind: 'WRITE_SCOPE_CONFLICT',
          todoId: wide.id,
          agentId: a.agentId,
          writeScope: 'src/**',
          repository: REPO,
          detail: expect.stringContaining(
            `writes src/ledger/**, which overlaps src/** of ${wide.id}, claimed by ${a.agentId}`,
          ),
        },
      ],
    });
    expect(rowOf(forB, disjoint.id)).toMatchObject({ runnable: true, guards: [] });
    // a's own claim holds nothing back for a.
    expect(rowOf(await frontierOf(a.token, goalId), narrow.id)).toMatchObject({ runnable: true });

    // The claim is made all the same (a soft owner, not a lock), with the conflict alongside.
    const taken = await claim(b, narrow.id);
    expect(taken).toMatchObject({
      __typename: 'ClaimedTodo',
      todo: { id: narrow.id, claim: { agentId: b.agentId } },
      warnings: [
        {
          kind: 'WRITE_SCOPE_CONFLICT',
          todoId: wide.id,
          owner: a.agentId,
          repository: REPO,
          writeScope: 'src/ledger/**',
          otherWriteScope: 'src/**',
        },
      ],
    });
    // Both claimed: exactly one of the two is runnable for its owner — the earlier claim.
    forB = await frontierOf(b.token, goalId);
    const forA = await frontierOf(a.token, goalId);
    expect(rowOf(forA, wide.id)).toMatchObject({ runnable: true, guards: [] });
    expect(guardKinds(rowOf(forB, narrow.id))).toEqual(['WRITE_SCOPE_CONFLICT']);
    // b's own claims never conflict for b: the wide todo is held for b by a's claim only.
    expect(guardKinds(rowOf(forB, wide.id))).toEqual(['CLAIMED_BY_OTHER']);

    // Claiming it again writes nothing and still says what it overlaps.
    const settled = await counts(goalId);
    expect((await claim(b, narrow.id)).warnings).toHaveLength(1);
    expect(await counts(goalId)).toEqual(settled);

    // Once the wide todo is done it conflicts with nothing.
    await t.ok(COMPLETE, { input: { goalId, todoId: wide.id, evidenceRefs: ['x'] } }, a.token);
    expect(rowOf(await frontierOf(b.token, goalId), narrow.id)).toMatchObject({ runnable: true });
  });

  it('compares scopes only within one repository (no repository matches only no repository)', async () => {
    const { goalId, a, b } = await team(t);
    await declareWorkspace(b, 'git:github.com/acme/other');
    const here = await todo(a.token, goalId, { taskRepository: REPO, writeScope: ['src/**'] });
    const there = await todo(a.token, goalId, {
      taskRepository: 'git:github.com/acme/other',
      writeScope: ['src/**'],
    });
    const unnamed = await todo(a.token, goalId, { writeScope: ['src/**'] });
    const unnamedToo = await todo(a.token, goalId, { writeScope: ['src/x/**'] });
    const readOnly = await todo(a.token, goalId, { taskRepository: REPO });
    await claim(a, here.id);
    await claim(a, unnamed.id);
    const forB = await frontierOf(b.token, goalId);
    expect(rowOf(forB, there.id)).toMatchObject({ runnable: true });
    expect(rowOf(forB, readOnly.id)).toMatchObject({ runnable: true });
    expect(rowOf(forB, unnamedToo.id).guards).toMatchObject([
      { kind: 'WRITE_SCOPE_CONFLICT', todoId: unnamed.id, agentId: a.agentId, repository: null },
    ]);
  });

  it('names one conflict per other agent, its earliest overlapping claim', async () => {
    const { goalId, a, b } = await team(t);
    await declareWorkspace(a, REPO);
    const c = await registerAgent(t, goalId);
    const cPeer: Peer = {
      goalId,
      agentId: c,
      token: (await issueCredential(t, { kind: 'PEER', goalId, agentId: c })).token,
    };
    const mine = await todo(a.token, goalId, {
      taskRepository: REPO,
      writeScope: ['src/ledger/read.ts'],
    });
    const first = await todo(a.token, goalId, { taskRepository: REPO, writeScope: ['src/ledger'] });
    const second = await todo(a.token, goalId, {
      taskRepository: REPO,
      writeScope: ['src/*/read.ts'],
    });
    const third = await todo(a.token, goalId, { taskRepository: REPO, writeScope: ['src/**'] });
    await claim(b, first.id);
    await claim(b, second.id);
    await claim(cPeer, third.id);
    const guards = rowOf(await frontierOf(a.token, goalId), mine.id).guards;
    expect(guards.map((g: any) => [g.kind, g.agentId, g.todoId])).toEqual(
      [
        ['WRITE_SCOPE_CONFLICT', b.agentId, first.id],
        ['WRITE_SCOPE_CONFLICT', c, third.id],
      ].sort((x, y) => (String(x[1]) < String(y[1]) ? -1 : 1)),
    );
  });

  it('stores one spelling of each entry and refuses globs it could not compare', async () => {
    const { goalId, a } = await team(t);
    const created = await todo(a.token, goalId, { writeScope: ['./src//ledger/', 'src/ledger/'] });
    expect(created.writeScope).toEqual(['src/ledger/']);
    const before = await counts(goalId);
    for (const [entry, message] of [
      ['src/{a,b}/**', "may use only '*', '?' and '**'"],
      ['src/[ab].ts', "may use only '*', '?' and '**'"],
      ['!src/**', 'must not be a negation'],
      ['./', 'must name a path'],
    ]) {
      await expectBadInput(
        CreateTodoDocument,
        { input: { goalId, title: 'x', taskClass: 'BLOCKER', writeScope: [entry] } },
        a.token,
        message as string,
      );
    }
    expect(await counts(goalId)).toEqual(before);
  });
});
