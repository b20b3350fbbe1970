import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  AcquireLeaseDocument,
  ClaimTodoDocument,
  CompleteTodoDocument,
  CreateTodoDocument,
  DeclareWorkspaceDocument,
  EvidenceLedgerDocument,
  InboxDocument,
  OpenGateDocument,
  RecordEventDocument,
  RenewLeaseDocument,
} from '../../src/client/generated/graphql.ts';
import { rowsOf } from '../../src/db/sql.ts';
import { database, t } from '../support/gateway-per-file.ts';
import {
  countingDatabase,
  driver,
  registerProvider,
  startTestGateway,
  uid,
} from '../support/harness.ts';
import { team } from '../support/team.ts';

const REPO = 'git:github.com/acme/app';

const HANDOFF = `mutation($input: HandoffTodoInput!) {
  handoffTodo(input: $input) {
    __typename
    ... on Handoff {
      id goalId todoId sender receiver nextAction validation stopCondition omitted leaseTransferred
      deliveryId ledgerSeq authorityBoundary
      senderWorkspace { repository worktree revision }
      evidence { ref freshness ledgerSeq }
      todoAtHandoff { title status requiredCapability taskRepository writeScope gates { gateId state applies } }
      todo { id status claim { agentId } lease { state holder fence } }
      delivery { id kind to subject }
    }
    ... on HandoffRefused { refusal receiver capability delivery { reason target } }
    ... on LeaseHeld { lease { holder } }
    ... on ClaimedByOther { owner }
    ... on IllegalTransition { from attempted }
    ... on UnknownTodo { todoId }
    ... on UnknownAgent { agentId }
    ... on ScopeGap { reason }
  }
}`;
const READ = `query($goalId: ID!, $handoffId: ID!, $agentId: ID) {
  handoff(goalId: $goalId, handoffId: $handoffId, agentId: $agentId) {
    __typename
    ... on HandoffRead {
      id receiver sender readFor status live runnable claimedBy capabilities workSeq nextAction
      guards { kind workspaceReason capability }
      gates { gateId state applies }
      lease { state }
      evidence { ref freshness }
    }
    ... on UnknownHandoff { handoffId }
    ... on UnknownAgent { agentId }
    ... on ScopeGap { reason }
  }
}`;
const CAPABILITIES = `mutation($input: SetCapabilitiesInput!) { setCapabilities(input: $input) { __typename } }`;

async function todo(token: string, goalId: string, input: Record<string, unknown> = {}) {
  const data = await t.ok(
    CreateTodoDocument,
    { input: { goalId, title: uid('todo'), taskClass: 'ADVANCEMENT_TASK', ...input } },
    token,
  );
  return data.createTodo.id as string;
}

const packet = {
  nextAction: 'run the migration tests on both drivers',
  validation: 'npx vitest run test/work.test.ts passes',
  stopCondition: 'stop when both drivers pass, or hand back on a schema conflict',
  omitted: ['the reviewer thread (private): ask the steward'],
};

async function handoff(token: string, input: Record<string, unknown>) {
  const data = await t.ok(HANDOFF, { input: { ...packet, ...input } }, token);
  return data.handoffTodo;
}

async function read(token: string, goalId: string, handoffId: string, agentId?: string) {
  const data = await t.ok(READ, { goalId, handoffId, agentId }, token);
  return data.handoff;
}

/** Everything a handoff writes, for a goal. */
async function counts(goalId: string) {
  const [row] = rowsOf<Record<string, string>>(
    await database.db.execute(sql`select
      (select count(*) from handoffs where goal_id = ${goalId})::text as handoffs,
      (select count(*) from todo_transitions where goal_id = ${goalId})::text as transitions,
      (select count(*) from deliveries where goal_id = ${goalId})::text as deliveries,
      (select count(*) from ledger_events where goal_id = ${goalId})::text as ledger,
      (select coalesce(max(seq), 0) from stream_heads
        where goal_id = ${goalId} and stream = 'work')::text as seq,
      (select md5(coalesce(string_agg(t::text, ',' order by id), '')) from todos t
        where goal_id = ${goalId}) as digest`),
  );
  return row;
}

describe(`bounded handoffs (${driver})`, () => {
  it('hands a todo to a named peer: packet, HANDOFF row, CONTEXT delivery, claim moved, lease ended not transferred', async () => {
    const { goalId, a, b, steward } = await team(t, ['a', 'b', 'c']);
    const id = await todo(a.token, goalId, {
      taskRepository: REPO,
      writeScope: ['src/work/**'],
      requiredCapability: 'node',
    });
    await t.ok(ClaimTodoDocument, { input: { goalId, todoId: id } }, a.token);
    const lease = await t.ok(
      AcquireLeaseDocument,
      { input: { goalId, todoId: id, ttlMs: 60_000 } },
      a.token,
    );
    await t.ok(
      RecordEventDocument,
      {
        input: {
          goalId,
          eventKind: 'VALIDATION',
          todoId: id,
          summary: 'old run',
          evidenceRefs: ['ci/old.txt'],
        },
      },
      a.token,
    );
    await t.ok(
      DeclareWorkspaceDocument,
      {
        input: { goalId, repository: REPO, worktree: 'LINKED', revision: 'abcdef1234' },
      },
      a.token,
    );
    await t.ok(
      RecordEventDocument,
      {
        input: {
          goalId,
          eventKind: 'VALIDATION',
          todoId: id,
          summary: 'new run',
          evidenceRefs: ['ci/new.txt'],
        },
      },
      a.token,
    );
    await t.ok(CAPABILITIES, { input: { goalId, capabilities: ['node'] } }, b.token);
    const before = await counts(goalId);

    const h = await handoff(a.token, { goalId, todoId: id, to: b.agentId });
    expect(h).toMatchObject({
      __typename: 'Handoff',
      sender: a.agentId,
      receiver: b.agentId,
      leaseTransferred: false,
      senderWorkspace: { repository: REPO, worktree: 'LINKED', revision: 'abcdef1234' },
      todoAtHandoff: { status: 'OPEN', requiredCapability: 'node', taskRepository: REPO },
      todo: {
        status: 'OPEN',
        claim: { agentId: b.agentId },
        lease: { state: 'NONE', holder: null },
      },
      delivery: { kind: 'CONTEXT', to: b.agentId },
      omitted: packet.omitted,
    });
    expect(h.deliveryId).toBe(h.delivery.id);
    expect(h.evidence).toEqual([
      { ref: 'ci/new.txt', freshness: 'FRESH', ledgerSeq: expect.any(String) },
      { ref: 'ci/old.txt', freshness: 'STALE', ledgerSeq: expect.any(String) },
    ]);
    expect(h.authorityBoundary.join(' ')).toContain('not transferred');
    // One work write: the sequence moved once; one transition, one ledger row, one delivery.
    const after = await counts(goalId);
    expect(Number(after?.seq)).toBe(Number(before?.seq) + 1);
    expect(Number(after?.transitions)).toBe(Number(before?.transitions) + 1);
    expect(Number(after?.ledger)).toBe(Number(before?.ledger) + 1);
    expect(Number(after?.deliveries)).toBe(Number(before?.deliveries) + 1);
    expect(Number(after?.handoffs)).toBe(1);

    // The old lease is gone for its holder: its fence no longer renews anything.
    const renewed = await t.ok(
      RenewLeaseDocument,
      {
        input: { goalId, todoId: id, fence: lease.acquireLease.fence, ttlMs: 60_000 },
      },
      a.token,
    );
    expect(renewed.renewLease.__typename).not.toBe('Lease');

    // The receiver's inbox holds the CONTEXT delivery, and its ledger the HANDOFF row.
    const inbox = await t.ok(InboxDocument, { goalId }, b.token);
    expect(inbox.inbox.messages).toEqual([
      expect.objectContaining({ kind: 'CONTEXT', from: a.agentId, id: h.deliveryId }),
    ]);
    expect(inbox.inbox.messages[0].body).toContain(packet.nextAction);
    const ledger = await t.ok(EvidenceLedgerDocument, { goalId, agentId: b.agentId }, b.token);
    expect(ledger.evidenceLedger.events).toContainEqual(
      expect.objectContaining({
        eventKind: 'HANDOFF',
        agentId: a.agentId,
        relatedAgentId: b.agentId,
        todoId: id,
        relevance: 'HANDOFF',
        goalChange: null,
      }),
    );

    // The receiver's read evaluates its own guards now: it has no workspace yet.
    const first = await read(b.token, goalId, h.id);
    expect(first).toMatchObject({
      __typename: 'HandoffRead',
      readFor: b.agentId,
      live: true,
      runnable: false,
      claimedBy: b.agentId,
      capabilities: ['node'],
      guards: [{ kind: 'WORKSPACE', workspaceReason: 'NO_WORKSPACE' }],
      nextAction: packet.nextAction,
    });
    await t.ok(
      DeclareWorkspaceDocument,
      {
        input: { goalId, repository: REPO, worktree: 'LINKED', revision: 'abcdef1234' },
      },
      b.token,
    );
    const second = await read(b.token, goalId, h.id);
    expect(second).toMatchObject({ runnable: true, guards: [] });
    expect(BigInt(second.workSeq)).toBeGreaterThan(BigInt(first.workSeq));
    // Read for the sender, the same packet shows the sender's guards: it no longer owns it.
    // (and it never declared the capability the receiver had to have).
    expect((await read(a.token, goalId, h.id)).guards.map((g: any) => g.kind)).toEqual([
      'CLAIMED_BY_OTHER',
      'CAPABILITY',
    ]);
    // A steward reads for the named receiver by default.
    expect(await read(steward, goalId, h.id)).toMatchObject({ readFor: b.agentId, runnable: true });
    // Once the work is done, the packet says so and nothing is runnable.
    await t.ok(
      CompleteTodoDocument,
      { input: { goalId, todoId: id, evidenceRefs: ['ci/done.txt'] } },
      b.token,
    );
    expect(await read(b.token, goalId, h.id)).toMatchObject({
      status: 'DONE',
      live: false,
      runnable: false,
      guards: [],
      lease: null,
    });
  });

  it('leaves an unnamed handoff unclaimed for any qualified peer, with no delivery and a goal-level row', async () => {
    const { goalId, a, b, c, steward } = await team(t, ['a', 'b', 'c']);
    const g = await t.ok(
      OpenGateDocument,
      {
        input: {
          goalId,
          kind: 'PRODUCTION',
          granularity: 'ACTION',
          scopeKey: 'deploy',
          reason: 'may we?',
        },
      },
      steward,
    );
    const id = await todo(a.token, goalId, {
      requiredCapability: 'gpu',
      requiredDecisionScopes: ['production:action:deploy'],
    });
    await t.ok(ClaimTodoDocument, { input: { goalId, todoId: id } }, a.token);
    await t.ok(CAPABILITIES, { input: { goalId, capabilities: ['gpu'] } }, c.token);
    const h = await handoff(a.token, { goalId, todoId: id });
    expect(h).toMatchObject({
      __typename: 'Handoff',
      receiver: null,
      delivery: null,
      deliveryId: null,
      todo: { claim: null },
      todoAtHandoff: {
        gates: [{ gateId: g.openGate.id, state: 'OPEN', applies: 'COVERS_REQUIRED_SCOPE' }],
      },
    });
    // Every agent's ledger shows it (goal-level), and no inbox got anything.
    const ledger = await t.ok(EvidenceLedgerDocument, { goalId, agentId: b.agentId }, b.token);
    expect(ledger.evidenceLedger.events).toContainEqual(
      expect.objectContaining({
        eventKind: 'HANDOFF',
        relatedAgentId: null,
        goalChange: 'NEXT_ACTION',
      }),
    );
    expect((await t.ok(InboxDocument, { goalId }, c.token)).inbox.messages).toEqual([]);
    // Each reader gets its own guards: b lacks the capability, c only waits for the gate.
    expect((await read(b.token, goalId, h.id)).guards.map((g: any) => g.kind)).toEqual([
      'DECISION_SCOPE',
      'CAPABILITY',
    ]);
    const forC = await read(c.token, goalId, h.id);
    expect(forC.guards.map((g: any) => g.kind)).toEqual(['DECISION_SCOPE']);
    expect(forC.gates).toEqual([
      { gateId: g.openGate.id, state: 'OPEN', applies: 'COVERS_REQUIRED_SCOPE' },
    ]);
    // A steward must say whose guards to evaluate for an unnamed handoff.
    const unnamed = await t.gql(READ, { goalId, handoffId: h.id }, steward);
    expect(unnamed.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect((await read(steward, goalId, h.id, c.agentId)).readFor).toBe(c.agentId);
  });

  it('refuses with a typed reason and writes nothing: no capability, unknown receiver, not live, claimed, leased, blocked', async () => {
    const { goalId, a, b, c, steward } = await team(t, ['a', 'b', 'c']);
    const id = await todo(a.token, goalId, { requiredCapability: 'gpu' });
    await t.ok(ClaimTodoDocument, { input: { goalId, todoId: id } }, a.token);
    const before = await counts(goalId);
    expect(await handoff(a.token, { goalId, todoId: id, to: b.agentId })).toEqual({
      __typename: 'HandoffRefused',
      refusal: 'RECEIVER_LACKS_CAPABILITY',
      receiver: b.agentId,
      capability: 'gpu',
      delivery: null,
    });
    expect(await handoff(a.token, { goalId, todoId: id, to: 'nobody-here' })).toMatchObject({
      __typename: 'HandoffRefused',
      refusal: 'UNKNOWN_RECEIVER',
    });
    // Another agent's claim: only the claimant (or a steward) hands it off.
    expect(await handoff(c.token, { goalId, todoId: id })).toMatchObject({
      __typename: 'ClaimedByOther',
      owner: a.agentId,
    });
    expect(await handoff(a.token, { goalId, todoId: 'todo_missing' })).toMatchObject({
      __typename: 'UnknownTodo',
    });
    expect(await counts(goalId)).toEqual(before);

    // A lease someone else holds stays theirs: a steward cannot hand the work away under it.
    const leased = await todo(a.token, goalId);
    await t.ok(ClaimTodoDocument, { input: { goalId, todoId: leased } }, a.token);
    await t.ok(AcquireLeaseDocument, { input: { goalId, todoId: leased, ttlMs: 60_000 } }, a.token);
    const mid = await counts(goalId);
    expect(await handoff(steward, { goalId, todoId: leased, to: b.agentId })).toMatchObject({
      __typename: 'LeaseHeld',
      lease: { holder: a.agentId },
    });
    // Not live: a done todo is not handed off.
    const done = await todo(a.token, goalId);
    await t.ok(
      CompleteTodoDocument,
      { input: { goalId, todoId: done, evidenceRefs: ['ci/x.txt'] } },
      a.token,
    );
    const afterDone = await counts(goalId);
    expect(await handoff(a.token, { goalId, todoId: done, to: b.agentId })).toMatchObject({
      __typename: 'IllegalTransition',
      from: 'DONE',
      attempted: 'HANDOFF',
    });
    expect(await counts(goalId)).toEqual(afterDone);
    expect(Number(mid?.handoffs)).toBe(0);

    // A receiver at an approval gate: the delivery service refuses, and so the handoff.
    const provider = await registerProvider(t, [goalId]);
    await provider.report([{ goalId, agentId: b.agentId, liveness: 'BLOCKED' }]);
    const free = await todo(a.token, goalId);
    const beforeBlocked = await counts(goalId);
    expect(await handoff(a.token, { goalId, todoId: free, to: b.agentId })).toMatchObject({
      __typename: 'HandoffRefused',
      refusal: 'DELIVERY_REFUSED',
      delivery: { reason: 'AGENT_BLOCKED', target: b.agentId },
    });
    expect(await counts(goalId)).toEqual(beforeBlocked);
  });

  it('validates in full and screens every text field before writing', async () => {
    const { goalId, a, b } = await team(t, ['a', 'b', 'c']);
    const id = await todo(a.token, goalId);
    const before = await counts(goalId);
    const bad = async (input: Record<string, unknown>, message: string) => {
      const result = await t.gql(
        HANDOFF,
        { input: { ...packet, goalId, todoId: id, ...input } },
        a.token,
      );
      expect(result.errors?.[0]?.message, JSON.stringify(input)).toContain(message);
      expect(result.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    };
    await bad({ to: a.agentId }, 'does not hand off to itself');
    await bad({ nextAction: '   ' }, 'nextAction must not be empty');
    await bad({ validation: 'x'.repeat(501) }, 'at most 500');
    await bad({ omitted: Array.from({ length: 21 }, (_, i) => `item ${i}`) }, 'at most 20');
    await bad({ stopCondition: 'stop \u001b[31m now' }, 'control characters');
    await bad({ nextAction: '-----BEGIN RSA PRIVATE KEY-----\nabc' }, 'private key');
    expect(await counts(goalId)).toEqual(before);
    // Secrets and absolute paths are redacted, not stored.
    const h = await handoff(a.token, {
      goalId,
      todoId: id,
      to: b.agentId,
      nextAction:
        'read /home/alice/notes.txt then push with ghp_abcdefghijklmnopqrstuvwxyz0123456789',
      omitted: ['token sk-abcdefghijklmnopqrstuvwxyz012345 kept private'],
    });
    expect(h.nextAction).not.toContain('/home/alice');
    expect(h.nextAction).not.toContain('ghp_abcdef');
    expect(h.nextAction).toContain('[redacted');
    expect(h.omitted[0]).not.toContain('sk-abcdef');
    const [stored] = rowsOf<{ next_action: string }>(
      await database.db.execute(sql`select next_action from handoffs where id = ${h.id}`),
    );
    expect(stored?.next_action).toBe(h.nextAction);
    // The CONTEXT delivery's body carries the screened text too, never the raw input.
    const [body] = rowsOf<{ body: string }>(
      await database.db.execute(sql`select body from deliveries where id = ${h.deliveryId}`),
    );
    expect(body?.body).toContain(h.nextAction);
    expect(body?.body).not.toContain('ghp_abcdef');
    expect(body?.body).not.toContain('sk-abcdef');
  });

  it('reads a packet in a constant number of SQL statements, however many todos the goal has', async () => {
    const counting = countingDatabase(database);
    const gateway = await startTestGateway(counting.database);
    try {
      const measure = async (todoCount: number) => {
        const { goalId, a, b } = await team(t, ['a', 'b', 'c']);
        let last = '';
        for (let i = 0; i < todoCount; i++) {
          last = await todo(a.token, goalId, {
            taskRepository: REPO,
            writeScope: [`src/m${i % 3}/**`],
          });
        }
        const h = await handoff(a.token, { goalId, todoId: last, to: b.agentId });
        counting.reset();
        const data = await gateway.ok(READ, { goalId, handoffId: h.id }, b.token);
        expect(data.handoff.__typename).toBe('HandoffRead');
        return counting.statements();
      };
      const small = await measure(2);
      const large = await measure(30);
      expect(large).toBe(small);
      expect(large).toBeLessThanOrEqual(12);
    } finally {
      await gateway.stop();
    }
  }, 120_000);
});
