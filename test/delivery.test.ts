import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  CreateTodoDocument,
  DelegateGoalDocument,
  DeliveriesDocument,
  DeliveryOutcomeDocument,
  EndPresenceDocument,
  InboxDocument,
  InboxMessagesDocument,
  MarkReadDocument,
  ReleaseMessageDocument,
  RemovePeerDocument,
  ResolveMessageDocument,
  RetireAgentDocument,
  RosterDocument,
} from '../src/client/generated/graphql.ts';
import { rowsOf } from '../src/db/sql.ts';
import { trajectory } from '../src/delivery/outcomes.ts';
import { stalledDeliveries } from '../src/delivery/read.ts';
import type { DeliveryRow } from '../src/delivery/tables.ts';
import { database, t } from './support/gateway-per-file.ts';
import {
  countingDatabase,
  createGoal,
  driver,
  eventually,
  issueCredential,
  openTestDatabase,
  peerInNewGoal,
  registerAgent,
  registerProvider,
  startTestGateway,
  subscribe,
  type TestGateway,
  uid,
  wsClient,
} from './support/harness.ts';

// ---- operations ------------------------------------------------------------------------

const DELIVERY_FIELDS = `
  id seq from to kind subject threadId replyTo bodyPreview submittedAt idempotencyKey replayed
  outcome outcomeVersion limitations activityWindowMs timeoutMs
  pin { state provider occupantRef baselineSeq }
  sender { kind agentId goalId credentialId }
  receipt { submittedAt readAt processedAt }
  history { version outcome previousOutcome reason seq liveness final }`;
const DELIVER = `mutation($input: DeliverInput!) {
  deliver(input: $input) {
    __typename
    ... on Delivery { ${DELIVERY_FIELDS} }
    ... on DeliveryRefused {
      reason goalId target choices notReadyReason
      scopeGap { goalId reason }
      blocked { liveness kind stateChangeSeq }
    }
    ... on IdempotencyConflict { goalId idempotencyKey differingFields original { id outcome } }
  }
}`;
const READ_DELIVERY = `query($id: ID!) {
  delivery(id: $id) { __typename ... on Delivery { ${DELIVERY_FIELDS} } ... on UnknownDelivery { deliveryId } }
}`;
const TAKE = `mutation($goalId: ID!) {
  takeNextMessage(goalId: $goalId) {
    __typename
    ... on TakenMessage { repeated message { id subject takeCount active readAt } }
    ... on InboxEmpty { recipient }
    ... on ScopeGap { goalId }
    ... on UnknownAgent { agentId }
  }
}`;
const ROSTER_FIELDS = `
  __typename
  ... on Roster {
    goalId self selfKind primaryPeer
    peers { agentId status source attachedAt lastActiveAt isPrimary }
  }
  ... on ScopeGap { goalId reason }`;
const ROSTER_CHANGE_FIELDS = `${ROSTER_FIELDS} ... on UnknownAgent { goalId agentId }`;
const ADD_PEER = `mutation($goalId: ID!, $agentId: ID!) { addPeer(goalId: $goalId, agentId: $agentId) { ${ROSTER_CHANGE_FIELDS} } }`;
const SET_PRIMARY = `mutation($goalId: ID!, $agentId: ID) { setPrimaryPeer(goalId: $goalId, agentId: $agentId) { ${ROSTER_CHANGE_FIELDS} } }`;
const DISCOVER = `query($goalId: ID!) {
  discover(goalId: $goalId) {
    __typename
    ... on Discovery {
      goalId self limitations
      agents { agentId isSelf sources freshness staleReason liveness connected isPrimary lastMessageAt }
    }
    ... on ScopeGap { goalId reason }
  }
}`;

// ---- fixtures --------------------------------------------------------------------------

interface Peer {
  agentId: string;
  token: string;
}

/**
 * A goal with agents alpha, beta and gamma, each with a PEER token. With a provider, beta is
 * seen IDLE at w1:p1 (seq 1): deliveries to it are pinned.
 */
/** A todo of `goalId`, for deliveries that name the work they are about. */
async function todoIn(goalId: string, gateway: TestGateway = t): Promise<string> {
  const created = await gateway.ok(CreateTodoDocument, {
    input: { goalId, title: 'the work', taskClass: 'ADVANCEMENT_TASK' },
  });
  return created.createTodo.id;
}

async function world(
  options: { provider?: boolean; presenceTtlMs?: number; gateway?: TestGateway } = {},
) {
  const gateway = options.gateway ?? t;
  const goalId = await createGoal(gateway);
  const peers: Record<'alpha' | 'beta' | 'gamma', Peer> = {} as never;
  for (const agentId of ['alpha', 'beta', 'gamma'] as const) {
    await registerAgent(gateway, goalId, agentId);
    const { token } = await issueCredential(gateway, { kind: 'PEER', goalId, agentId });
    peers[agentId] = { agentId, token };
  }
  const provider = options.provider
    ? await registerProvider(gateway, [goalId], { presenceTtlMs: options.presenceTtlMs ?? 60_000 })
    : null;
  /** Reports beta's presence (at w1:p1 as pane-1/agent unless overridden). */
  const seeBeta = async (liveness: string, extra: Record<string, unknown> = {}) => {
    const result = await provider?.report([{ goalId, agentId: 'beta', liveness, ...extra }]);
    expect(result?.__typename).toBe('PresenceAccepted');
  };
  if (provider) await seeBeta('IDLE');
  return { goalId, provider, seeBeta, ...peers };
}

const request = (goalId: string, extra: Record<string, unknown> = {}) => ({
  goalId,
  to: 'beta',
  kind: 'REQUEST',
  subject: 'Please review the parser change',
  body: 'The tokenizer now splits on unicode whitespace. Can you check src/parse.ts?',
  idempotencyKey: uid('key'),
  ...extra,
});

async function send(token: string, input: Record<string, unknown>, gateway = t) {
  return (await gateway.ok(DELIVER, { input }, token)).deliver;
}

async function counts(goalId: string) {
  const [row] = rowsOf<{ deliveries: number; outcomes: number; heads: number; inboxes: number }>(
    await database.db.execute(sql`
      select
        (select count(*)::int from deliveries where goal_id = ${goalId}) as deliveries,
        (select count(*)::int from delivery_outcomes o join deliveries d on d.id = o.delivery_id
          where d.goal_id = ${goalId}) as outcomes,
        (select count(*)::int from stream_heads where goal_id = ${goalId} and stream = 'inbox') as heads,
        (select count(*)::int from inboxes where goal_id = ${goalId}) as inboxes`),
  );
  return row;
}

function followOutcome(token: string, variables: Record<string, unknown>, gateway = t) {
  const client = wsClient(gateway.wsUrl, token);
  const stream = subscribe(client, DeliveryOutcomeDocument, variables, 'deliveryOutcome');
  return {
    stream,
    async close() {
      stream.dispose();
      await client.dispose();
    },
  };
}

function followInbox(token: string, variables: Record<string, unknown>, gateway = t) {
  const client = wsClient(gateway.wsUrl, token);
  const stream = subscribe(client, InboxMessagesDocument, variables, 'inboxMessages');
  return {
    stream,
    async close() {
      stream.dispose();
      await client.dispose();
    },
  };
}

// ---- refusal before write ----------------------------------------------------------------

describe(`refusal before write (${driver})`, () => {
  it('refuses a delivery to a peer at a gate and writes nothing: no row, no event, no sequence', async () => {
    const { goalId, alpha, beta, gamma, seeBeta } = await world({ provider: true });
    await seeBeta('BLOCKED', { blockedKind: 'PERMISSION', basis: 'PROGRAM_STATUS' });
    const arrivals = followInbox(beta.token, { goalId, after: '0' });
    const before = await counts(goalId);
    const refused = await send(alpha.token, request(goalId));
    expect(refused).toEqual({
      __typename: 'DeliveryRefused',
      reason: 'AGENT_BLOCKED',
      goalId,
      target: 'beta',
      choices: [],
      notReadyReason: null,
      scopeGap: null,
      blocked: { liveness: 'BLOCKED', kind: 'PERMISSION', stateChangeSeq: '2' },
    });
    expect(await counts(goalId)).toEqual(before);
    expect(before).toEqual({ deliveries: 0, outcomes: 0, heads: 0, inboxes: 0 });

    // The first delivery written takes seq 1 and is the first arrival: the refusal consumed
    // no sequence number and rang nothing.
    await seeBeta('WORKING');
    const accepted = await send(gamma.token, request(goalId, { subject: 'after the gate' }));
    expect(accepted).toMatchObject({ __typename: 'Delivery', seq: '1', outcome: 'SUBMITTED' });
    const [first] = await arrivals.stream.take(1);
    expect(first).toMatchObject({ id: accepted.id, seq: '1', subject: 'after the gate' });
    expect(arrivals.stream.items).toHaveLength(1);
    await arrivals.close();
  });

  it('types every other refusal, and none of them writes', async () => {
    const { goalId, alpha } = await world();
    await registerAgent(t, goalId, 'delta');
    await t.ok(RetireAgentDocument, { goalId, agentId: 'delta' });
    const outsider = await peerInNewGoal(t);

    expect(await send(alpha.token, request(goalId, { to: 'ghost' }))).toMatchObject({
      reason: 'UNKNOWN_TARGET',
      target: 'ghost',
    });
    expect(await send(alpha.token, request(goalId, { to: 'delta' }))).toMatchObject({
      reason: 'NOT_READY',
      target: 'delta',
      notReadyReason: 'TARGET_RETIRED',
    });
    expect(await send(alpha.token, request(goalId, { to: null }))).toMatchObject({
      reason: 'NOT_READY',
      target: null,
      notReadyReason: 'NO_CONNECTED_PEER',
    });
    // Out of scope looks exactly like a goal that does not exist.
    const gap = await send(outsider.token, request(goalId));
    const missing = await send(outsider.token, request(uid('no-such-goal')));
    expect(gap).toMatchObject({
      reason: 'SCOPE_GAP',
      scopeGap: { goalId, reason: 'AUDIENCE_NOT_AUTHORIZED' },
    });
    expect({ ...missing, goalId, scopeGap: { ...missing.scopeGap, goalId } }).toEqual(gap);
    expect(await counts(goalId)).toEqual({ deliveries: 0, outcomes: 0, heads: 0, inboxes: 0 });
  });

  it('rejects bad input with BAD_USER_INPUT and writes nothing; providers may not deliver', async () => {
    const { goalId, alpha, provider } = await world({ provider: true });
    const cases: [Record<string, unknown>, string][] = [
      [{ body: 'x'.repeat(16_385) }, 'body is 16385 bytes; at most 16384 (UTF-8) are accepted'],
      [{ body: 'é'.repeat(8_193) }, 'body is 16386 bytes'],
      [{ body: '  ' }, 'body must not be empty'],
      [{ subject: 's'.repeat(201) }, 'subject must be at most 200 characters'],
      [{ idempotencyKey: '' }, 'idempotencyKey must not be empty'],
      [{ timeoutMs: 86_400_001 }, 'timeoutMs must be an integer from 1 to 86400000'],
      [
        { timeoutMs: 1000, activityWindowMs: 2000 },
        'activityWindowMs must be an integer from 1 to timeoutMs (1000)',
      ],
      [{ to: 'alpha' }, 'an agent does not deliver to itself'],
      [{ to: 'no spaces' }, 'to may contain only'],
      [{ replyTo: 'dlv_nothing' }, 'replyTo must name a message you sent or received'],
    ];
    for (const [extra, message] of cases) {
      const result = await t.gql(DELIVER, { input: request(goalId, extra) }, alpha.token);
      expect(result.errors?.[0]?.message, message).toContain(message);
      expect(result.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    }
    const asProvider = await t.gql(DELIVER, { input: request(goalId) }, provider?.token);
    expect(asProvider.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(await counts(goalId)).toEqual({ deliveries: 0, outcomes: 0, heads: 0, inboxes: 0 });
  });
});

// ---- the durable path --------------------------------------------------------------------

describe(`the durable path without a provider (${driver})`, () => {
  it('submits, reaches the recipient, and shows the sender each receipt; the outcome stays SUBMITTED', async () => {
    const { goalId, alpha, beta } = await world();
    const arrivals = followInbox(beta.token, { goalId, after: '0' });
    const todo7 = await todoIn(goalId);
    const sent = await send(alpha.token, request(goalId, { todoId: todo7 }));
    expect(sent).toMatchObject({
      __typename: 'Delivery',
      seq: '1',
      from: 'alpha',
      to: 'beta',
      kind: 'REQUEST',
      replayed: false,
      outcome: 'SUBMITTED',
      outcomeVersion: 0,
      limitations: ['ACTIVITY_NOT_OBSERVABLE'],
      pin: { state: 'NO_PROVIDER', provider: null, baselineSeq: '0' },
      sender: { kind: 'PEER', agentId: 'alpha', goalId, credentialId: null },
      receipt: { readAt: null, processedAt: null },
      history: [
        { version: 0, outcome: 'SUBMITTED', previousOutcome: null, final: true, seq: null },
      ],
    });
    expect(sent.threadId).toBe(sent.id);

    // The sender's stream says SUBMITTED and ends: nothing more can be observed.
    const outcome = followOutcome(alpha.token, { deliveryId: sent.id });
    await outcome.stream.completed;
    expect(outcome.stream.items).toEqual([
      expect.objectContaining({ version: 0, outcome: 'SUBMITTED', final: true }),
    ]);
    await outcome.close();

    // The recipient: the arrival, the inbox, a read, a take, a resolve.
    const [arrival] = await arrivals.stream.take(1);
    expect(arrival).toMatchObject({ id: sent.id, from: 'alpha', body: request(goalId).body });
    await arrivals.close();
    const inbox = (await t.ok(InboxDocument, { goalId }, beta.token)).inbox;
    expect(inbox).toMatchObject({ recipient: 'beta', unreadCount: 1, unprocessedCount: 1 });
    expect(inbox.messages.map((m: any) => m.id)).toEqual([sent.id]);

    const read = (await t.ok(MarkReadDocument, { ids: [sent.id, sent.id] }, beta.token)).markRead;
    expect(read.messages).toHaveLength(1);
    const afterRead = (await t.ok(READ_DELIVERY, { id: sent.id }, alpha.token)).delivery;
    expect(afterRead.receipt.readAt).toBe(read.messages[0].readAt);
    expect(afterRead.receipt.processedAt).toBeNull();

    const taken = (await t.ok(TAKE, { goalId }, beta.token)).takeNextMessage;
    expect(taken).toMatchObject({ repeated: false, message: { id: sent.id, takeCount: 1 } });
    const resolved = (await t.ok(ResolveMessageDocument, { id: sent.id }, beta.token))
      .resolveMessage;
    const final = (await t.ok(READ_DELIVERY, { id: sent.id }, alpha.token)).delivery;
    expect(final.receipt).toEqual({
      submittedAt: sent.submittedAt,
      readAt: read.messages[0].readAt,
      processedAt: resolved.processedAt,
    });
    expect(Date.parse(final.receipt.processedAt)).toBeGreaterThanOrEqual(
      Date.parse(final.receipt.readAt),
    );
    expect(final.outcome).toBe('SUBMITTED');
  });

  it('a steward sends as its credential: from is null, sender.kind says STEWARD', async () => {
    const { goalId, beta } = await world();
    const steward = await issueCredential(t, { kind: 'STEWARD', goalIds: [goalId] });
    const sent = await send(steward.token, request(goalId, { kind: 'CONTEXT' }));
    expect(sent).toMatchObject({
      from: null,
      to: 'beta',
      kind: 'CONTEXT',
      sender: { kind: 'STEWARD', agentId: null, goalId: null, credentialId: steward.id },
    });
    const inbox = (await t.ok(InboxDocument, { goalId }, beta.token)).inbox;
    expect(inbox.messages[0]).toMatchObject({ id: sent.id, from: null });
    // A steward is no agent: it has no inbox.
    const noInbox = await t.gql(InboxDocument, { goalId }, steward.token);
    expect(noInbox.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });
});

// ---- outcomes with a provider ------------------------------------------------------------

describe(`observed activity with a provider (${driver})`, () => {
  it('reports STALLED when the window passes, then ACTIVITY_OBSERVED when the peer starts', async () => {
    const { goalId, alpha, seeBeta, provider } = await world({ provider: true });
    const sent = await send(
      alpha.token,
      request(goalId, { activityWindowMs: 300, timeoutMs: 30_000 }),
    );
    expect(sent).toMatchObject({
      outcome: 'SUBMITTED',
      limitations: [],
      pin: {
        state: 'PINNED',
        provider: provider?.providerId,
        occupantRef: 'pane-1/agent',
        baselineSeq: '1',
      },
    });
    const { stream, close } = followOutcome(alpha.token, { deliveryId: sent.id });
    const [submitted, stalled] = await stream.take(2, 5000);
    expect(submitted).toMatchObject({ version: 0, outcome: 'SUBMITTED', final: false });
    expect(stalled).toMatchObject({
      version: 1,
      outcome: 'STALLED',
      previousOutcome: 'SUBMITTED',
      seq: null,
      final: false,
    });
    await seeBeta('WORKING'); // seq 2
    await stream.completed;
    expect(stream.items[2]).toMatchObject({
      version: 2,
      outcome: 'ACTIVITY_OBSERVED',
      previousOutcome: 'STALLED',
      seq: '2',
      liveness: 'WORKING',
      final: true,
    });
    expect(stream.items).toHaveLength(3);
    await close();
    // Read later, the same history.
    const read = (await t.ok(READ_DELIVERY, { id: sent.id }, alpha.token)).delivery;
    expect(read.history.map((h: any) => h.outcome)).toEqual([
      'SUBMITTED',
      'STALLED',
      'ACTIVITY_OBSERVED',
    ]);
  });

  it('counts only a change after submission to WORKING or BLOCKED: heartbeats and IDLE/DONE do not', async () => {
    const { goalId, alpha, seeBeta } = await world({ provider: true });
    const sent = await send(alpha.token, request(goalId));
    const read = async () => (await t.ok(READ_DELIVERY, { id: sent.id }, alpha.token)).delivery;
    await seeBeta('IDLE'); // heartbeat of the state at submission
    await seeBeta('DONE'); // a change, but not activity
    expect((await read()).outcome).toBe('SUBMITTED');
    await seeBeta('BLOCKED'); // seq 3: at a gate after submission is activity
    expect(await read()).toMatchObject({
      outcome: 'ACTIVITY_OBSERVED',
      history: [
        { version: 0, outcome: 'SUBMITTED' },
        { version: 1, outcome: 'ACTIVITY_OBSERVED', seq: '3', liveness: 'BLOCKED', final: true },
      ],
    });
  });

  it('a timeout ends it EXPIRED and never resends: one row, one inbox message, one arrival', async () => {
    const { goalId, alpha, beta, gamma, seeBeta } = await world({ provider: true });
    const arrivals = followInbox(beta.token, { goalId, after: '0' });
    const sent = await send(
      alpha.token,
      request(goalId, { activityWindowMs: 100, timeoutMs: 400 }),
    );
    const { stream, close } = followOutcome(alpha.token, { deliveryId: sent.id });
    await stream.completed;
    expect(stream.items.map((c) => [c.version, c.outcome, c.final])).toEqual([
      [0, 'SUBMITTED', false],
      [1, 'STALLED', false],
      [2, 'EXPIRED', true],
    ]);
    await close();
    await seeBeta('WORKING'); // after the deadline: too late to count
    const read = (await t.ok(READ_DELIVERY, { id: sent.id }, alpha.token)).delivery;
    expect(read.outcome).toBe('EXPIRED');
    expect(read.outcomeVersion).toBe(2);

    // A sentinel delivered after everything: once it has arrived, nothing else did.
    const sentinel = await send(gamma.token, request(goalId, { subject: 'sentinel' }));
    await arrivals.stream.take(2);
    expect(arrivals.stream.items.map((m) => m.id)).toEqual([sent.id, sentinel.id]);
    await arrivals.close();
    expect((await counts(goalId))?.deliveries).toBe(2);
    const inbox = (await t.ok(InboxDocument, { goalId }, beta.token)).inbox;
    expect(inbox.messages.filter((m: any) => m.subject === sent.subject)).toHaveLength(1);
  });

  it('UNREACHABLE when the pinned occupant is replaced, ends, or becomes unreachable', async () => {
    const cases: [Record<string, unknown> | 'end', string][] = [
      [{ liveness: 'WORKING', occupantRef: 'pane-1/newcomer' }, 'PINNED_OCCUPANT_REPLACED'],
      [{ liveness: 'UNREACHABLE' }, 'LIVENESS_UNREACHABLE'],
      ['end', 'PRESENCE_ENDED'],
    ];
    for (const [change, reason] of cases) {
      const { goalId, alpha, seeBeta, provider } = await world({ provider: true });
      const sent = await send(alpha.token, request(goalId));
      if (change === 'end') {
        await t.ok(
          EndPresenceDocument,
          {
            input: {
              goalId,
              agentId: 'beta',
              providerSessionRef: 'w1:p1',
              observedAt: new Date().toISOString(),
              reportSeq: '99',
            },
          },
          provider?.token,
        );
      } else {
        await seeBeta(change.liveness as string, change);
      }
      const read = (await t.ok(READ_DELIVERY, { id: sent.id }, alpha.token)).delivery;
      expect(read.history[1], reason).toMatchObject({ outcome: 'UNREACHABLE', reason, seq: '2' });
    }
  });

  it("UNREACHABLE (COVERAGE_LOST) when the recipient's provider stops reporting inside the window, streamed at once", async () => {
    const { goalId, alpha, seeBeta } = await world({ provider: true, presenceTtlMs: 2000 });
    // beta's last report (a heartbeat of seq 1): then its provider goes silent.
    await seeBeta('IDLE');
    const sent = await send(
      alpha.token,
      request(goalId, { activityWindowMs: 20_000, timeoutMs: 30_000 }),
    );
    expect(sent.pin.state).toBe('PINNED');
    const { stream, close } = followOutcome(alpha.token, { deliveryId: sent.id });
    await stream.completed;
    expect(
      stream.items.map((c) => [c.outcome, c.previousOutcome, c.reason, c.seq, c.liveness, c.final]),
    ).toEqual([
      ['SUBMITTED', null, null, null, null, false],
      ['UNREACHABLE', 'SUBMITTED', 'COVERAGE_LOST', '2', 'UNKNOWN', true],
    ]);
    await close();
    // Sent to it now, while its presence is lapsed: nothing can be observed, and it says why.
    const later = await send(alpha.token, request(goalId));
    expect(later).toMatchObject({
      outcome: 'SUBMITTED',
      limitations: ['ACTIVITY_NOT_OBSERVABLE'],
      pin: { state: 'COVERAGE_LOST' },
    });
  });

  it('is computed lazily on read without any subscriber, and feeds stalledDeliveries', async () => {
    const { goalId, alpha, seeBeta } = await world({ provider: true });
    const todo9 = await todoIn(goalId);
    const sent = await send(
      alpha.token,
      request(goalId, { todoId: todo9, activityWindowMs: 200, timeoutMs: 60_000 }),
    );
    expect(await stalledDeliveries(database.db, goalId)).toEqual([]);
    const stalled = await eventually(async () => {
      const read = (await t.ok(READ_DELIVERY, { id: sent.id }, alpha.token)).delivery;
      return read.outcome === 'STALLED' ? read : undefined;
    }, 'the delivery to read STALLED');
    expect(stalled.history.map((h: any) => h.outcome)).toEqual(['SUBMITTED', 'STALLED']);
    expect(await stalledDeliveries(database.db, goalId)).toEqual([
      expect.objectContaining({
        deliveryId: sent.id,
        senderKind: 'PEER',
        from: 'alpha',
        to: 'beta',
        todoId: todo9,
        subject: sent.subject,
      }),
    ]);
    await seeBeta('WORKING');
    const read = (await t.ok(READ_DELIVERY, { id: sent.id }, alpha.token)).delivery;
    expect(read.history.map((h: any) => h.outcome)).toEqual([
      'SUBMITTED',
      'STALLED',
      'ACTIVITY_OBSERVED',
    ]);
    expect(await stalledDeliveries(database.db, goalId)).toEqual([]);
  });

  it('stalledDeliveries settles deliveries nobody read, oldest first', async () => {
    const { goalId, alpha, gamma } = await world({ provider: true });
    const first = await send(alpha.token, request(goalId, { activityWindowMs: 50 }));
    const second = await send(gamma.token, request(goalId, { activityWindowMs: 50 }));
    const unstalled = await send(alpha.token, request(goalId, { activityWindowMs: 600_000 }));
    const stalled = await eventually(async () => {
      const rows = await stalledDeliveries(database.db, goalId);
      return rows.length === 2 ? rows : undefined;
    }, 'two stalled deliveries');
    expect(stalled.map((s) => [s.deliveryId, s.from])).toEqual([
      [first.id, 'alpha'],
      [second.id, 'gamma'],
    ]);
    expect(stalled.map((s) => s.deliveryId)).not.toContain(unstalled.id);
  });

  it('names why activity is not observable: no presence, or a provider without pinned waits', async () => {
    const { goalId, alpha } = await world({ provider: true });
    const toGamma = await send(alpha.token, request(goalId, { to: 'gamma' }));
    expect(toGamma).toMatchObject({
      outcome: 'SUBMITTED',
      limitations: ['ACTIVITY_NOT_OBSERVABLE'],
      pin: { state: 'NO_PRESENCE_AT_SUBMISSION' },
    });
    const other = await world();
    const provider = await registerProvider(t, [other.goalId], { supportsPinnedWaits: false });
    await provider.report([{ goalId: other.goalId, agentId: 'beta', liveness: 'IDLE' }]);
    const unpinned = await send(other.alpha.token, request(other.goalId));
    expect(unpinned).toMatchObject({
      limitations: ['ACTIVITY_NOT_OBSERVABLE'],
      pin: { state: 'PROVIDER_WITHOUT_PINNED_WAITS', provider: null },
    });
  });

  it('streams over SSE, and resumes from a version', async () => {
    const { goalId, alpha, seeBeta } = await world({ provider: true });
    const sent = await send(alpha.token, request(goalId, { activityWindowMs: 100 }));
    const controller = new AbortController();
    const response = await fetch(t.url, {
      method: 'POST',
      signal: controller.signal,
      headers: {
        accept: 'text/event-stream',
        'content-type': 'application/json',
        authorization: `Bearer ${alpha.token}`,
      },
      body: JSON.stringify({ query: DeliveryOutcomeDocument, variables: { deliveryId: sent.id } }),
    });
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    const deadline = Date.now() + 5000;
    while (!text.includes('"STALLED"') && Date.now() < deadline) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value);
    }
    expect(text).toContain('"outcome":"SUBMITTED"');
    expect(text).toContain('"outcome":"STALLED"');
    controller.abort();

    const resumed = followOutcome(alpha.token, { deliveryId: sent.id, after: 1 });
    await seeBeta('WORKING');
    await resumed.stream.completed;
    expect(resumed.stream.items.map((c) => [c.version, c.outcome])).toEqual([
      [2, 'ACTIVITY_OBSERVED'],
    ]);
    await resumed.close();
    // Resuming after the final version: nothing more can come, so it ends at once.
    const done = followOutcome(alpha.token, { deliveryId: sent.id, after: 2 });
    await done.stream.completed;
    expect(done.stream.items).toEqual([]);
    await done.close();
  });

  it('two instances follow one delivery to the same history, and racing readers record it once', async () => {
    const other = driver === 'postgres' ? await openTestDatabase() : database;
    const b = await startTestGateway(other, { adminToken: t.adminToken });
    const { goalId, alpha, seeBeta } = await world({ provider: true });
    const sent = await send(alpha.token, request(goalId, { activityWindowMs: 150 }));
    const onA = followOutcome(alpha.token, { deliveryId: sent.id });
    const onB = followOutcome(alpha.token, { deliveryId: sent.id }, b);
    await onA.stream.take(2);
    await onB.stream.take(2);
    // Readers on both instances settle at once; the compare-and-set keeps one history.
    const reads = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        (i % 2 ? b : t).ok(READ_DELIVERY, { id: sent.id }, alpha.token),
      ),
    );
    for (const { delivery } of reads) expect(delivery.outcomeVersion).toBe(1);
    await seeBeta('WORKING');
    await Promise.all([onA.stream.completed, onB.stream.completed]);
    expect(onA.stream.items).toEqual(onB.stream.items);
    expect(onA.stream.items.map((c) => c.outcome)).toEqual([
      'SUBMITTED',
      'STALLED',
      'ACTIVITY_OBSERVED',
    ]);
    expect((await counts(goalId))?.outcomes).toBe(2);
    await onA.close();
    await onB.close();
    await b.stop();
    if (other !== database) await other.close();
  });
});

// ---- no blind resend -----------------------------------------------------------------------

describe(`idempotency (${driver})`, () => {
  it('a retried key returns the original and its current outcome; a different request is a conflict', async () => {
    const { goalId, alpha, gamma, seeBeta } = await world({ provider: true });
    const input = request(goalId, { todoId: await todoIn(goalId) });
    const sent = await send(alpha.token, input);
    await seeBeta('WORKING');
    const retried = await send(alpha.token, input);
    expect(retried).toMatchObject({
      __typename: 'Delivery',
      id: sent.id,
      seq: sent.seq,
      replayed: true,
      outcome: 'ACTIVITY_OBSERVED',
    });
    const conflict = await send(alpha.token, { ...input, body: 'something else entirely' });
    expect(conflict).toEqual({
      __typename: 'IdempotencyConflict',
      goalId,
      idempotencyKey: input.idempotencyKey,
      differingFields: ['BODY'],
      original: { id: sent.id, outcome: 'ACTIVITY_OBSERVED' },
    });
    const several = await send(alpha.token, {
      ...input,
      to: 'gamma',
      kind: 'CONTEXT',
      todoId: null,
    });
    expect(several.differingFields).toEqual(['TO', 'KIND', 'TODO_ID']);
    // The key belongs to its sender: another sender's same key is a different delivery.
    const theirs = await send(gamma.token, input);
    expect(theirs).toMatchObject({ __typename: 'Delivery', replayed: false });
    expect(theirs.id).not.toBe(sent.id);
    expect((await counts(goalId))?.deliveries).toBe(2);
  });

  it('a retry is answered with its original even where a new request would now be refused', async () => {
    const { goalId, alpha, seeBeta } = await world({ provider: true });
    const input = request(goalId);
    const sent = await send(alpha.token, input);
    await seeBeta('BLOCKED');
    expect(await send(alpha.token, input)).toMatchObject({
      __typename: 'Delivery',
      id: sent.id,
      replayed: true,
    });
    expect(await send(alpha.token, { ...input, body: 'something else entirely' })).toMatchObject({
      __typename: 'IdempotencyConflict',
      differingFields: ['BODY'],
      original: { id: sent.id },
    });
    // A new key is refused, and writes nothing.
    expect(await send(alpha.token, { ...input, idempotencyKey: uid('key') })).toMatchObject({
      __typename: 'DeliveryRefused',
      reason: 'AGENT_BLOCKED',
    });
    expect((await counts(goalId))?.deliveries).toBe(1);
  });

  it('concurrent requests with one key write one delivery and all answer with it', async () => {
    const { goalId, alpha } = await world();
    const input = request(goalId);
    const answers = await Promise.all(Array.from({ length: 8 }, () => send(alpha.token, input)));
    expect(new Set(answers.map((a) => a.id)).size).toBe(1);
    expect(answers.filter((a) => !a.replayed)).toHaveLength(1);
    expect(await counts(goalId)).toMatchObject({ deliveries: 1 });
  });
});

// ---- the inbox -----------------------------------------------------------------------------

describe(`the inbox (${driver})`, () => {
  it('takeNextMessage hands out one message until it is resolved or released; a processed one never again', async () => {
    const { goalId, alpha, beta, gamma } = await world();
    const first = await send(alpha.token, request(goalId, { subject: 'first' }));
    const second = await send(gamma.token, request(goalId, { subject: 'second' }));
    const take = async () => (await t.ok(TAKE, { goalId }, beta.token)).takeNextMessage;

    expect(await take()).toMatchObject({
      repeated: false,
      message: { id: first.id, takeCount: 1, active: true },
    });
    expect(await take()).toMatchObject({ repeated: true, message: { id: first.id, takeCount: 1 } });
    // Released: back in the queue, handed out again (and visibly so).
    expect(
      (await t.ok(ReleaseMessageDocument, { id: first.id }, beta.token)).releaseMessage.active,
    ).toBe(false);
    expect(await take()).toMatchObject({
      repeated: false,
      message: { id: first.id, takeCount: 2 },
    });
    await t.ok(ResolveMessageDocument, { id: first.id }, beta.token);
    expect(await take()).toMatchObject({ repeated: false, message: { id: second.id } });
    // Resolving a message that is not active processes it too; it is then never taken.
    const third = await send(alpha.token, request(goalId, { subject: 'third' }));
    await t.ok(ResolveMessageDocument, { id: third.id }, beta.token);
    await t.ok(ResolveMessageDocument, { id: second.id }, beta.token);
    expect(await take()).toEqual({ __typename: 'InboxEmpty', recipient: 'beta' });
    const seen = (await t.ok(InboxDocument, { goalId, unprocessed: true }, beta.token)).inbox;
    expect(seen).toMatchObject({ messages: [], unprocessedCount: 0, activeMessageId: null });
    // Resolving twice keeps the first time.
    const again = (await t.ok(ResolveMessageDocument, { id: first.id }, beta.token)).resolveMessage;
    const read = (await t.ok(READ_DELIVERY, { id: first.id }, alpha.token)).delivery;
    expect(read.receipt.processedAt).toBe(again.processedAt);
  });

  it('two loops of one agent taking at once get the same single message', async () => {
    const { goalId, alpha, beta } = await world();
    const sent = await send(alpha.token, request(goalId));
    await send(alpha.token, request(goalId));
    const taken = await Promise.all(
      Array.from({ length: 6 }, () => t.ok(TAKE, { goalId }, beta.token)),
    );
    const ids = taken.map((r) => r.takeNextMessage.message.id);
    expect(new Set(ids)).toEqual(new Set([sent.id]));
    expect(taken.filter((r) => !r.takeNextMessage.repeated)).toHaveLength(1);
  });

  it('lists newest first with a tail, names what it left out, and moves forward with its cursor', async () => {
    const { goalId, alpha, beta } = await world();
    const ids: string[] = [];
    for (let i = 1; i <= 5; i++)
      ids.push((await send(alpha.token, request(goalId, { subject: `m${i}` }))).id);
    const page = (await t.ok(InboxDocument, { goalId, tail: 2 }, beta.token)).inbox;
    expect(page.messages.map((m: any) => m.subject)).toEqual(['m5', 'm4']);
    expect(page).toMatchObject({ omittedCount: 3, unreadCount: 5, cursor: '5' });
    await t.ok(MarkReadDocument, { ids: [ids[0], ids[4]] }, beta.token);
    const unread = (await t.ok(InboxDocument, { goalId, unread: true }, beta.token)).inbox;
    expect(unread.messages.map((m: any) => m.subject)).toEqual(['m4', 'm3', 'm2']);
    expect(unread.unreadCount).toBe(3);
    const nothingNew = (await t.ok(InboxDocument, { goalId, after: page.cursor }, beta.token))
      .inbox;
    expect(nothingNew).toMatchObject({ messages: [], omittedCount: 0, cursor: '5' });
    await send(alpha.token, request(goalId, { subject: 'm6' }));
    const newer = (await t.ok(InboxDocument, { goalId, after: page.cursor }, beta.token)).inbox;
    expect(newer.messages.map((m: any) => m.subject)).toEqual(['m6']);
    expect(newer.cursor).toBe('6');
    // A message that is not yours is bad input, and nothing is marked.
    const bad = await t.gql(MarkReadDocument, { ids: [ids[1], 'dlv_not-yours'] }, beta.token);
    expect(bad.errors?.[0]).toMatchObject({
      message: 'not messages in your inbox: dlv_not-yours',
      extensions: { code: 'BAD_USER_INPUT' },
    });
    const stillUnread = (await t.ok(InboxDocument, { goalId, unread: true }, beta.token)).inbox;
    expect(stillUnread.unreadCount).toBe(4);
  });

  it('inboxMessages resumes from a cursor gap-free: nothing missed, nothing twice', async () => {
    const { goalId, alpha, beta, gamma } = await world();
    const mine: string[] = [];
    const toBeta = async (subject: string) =>
      mine.push((await send(alpha.token, request(goalId, { subject }))).id);
    const toGamma = (subject: string) =>
      send(alpha.token, request(goalId, { to: 'gamma', subject }));
    await toBeta('b1');
    await toGamma('g1');
    await toBeta('b2');
    const first = followInbox(beta.token, { goalId, after: '0' });
    const seen = await first.stream.take(2);
    expect(seen.map((m) => [m.seq, m.subject])).toEqual([
      ['1', 'b1'],
      ['3', 'b2'],
    ]);
    await first.close();
    // While beta is away, more arrive, interleaved with gamma's, some concurrently.
    await Promise.all([toBeta('b3'), toGamma('g2'), toBeta('b4'), toGamma('g3'), toBeta('b5')]);
    const resumed = followInbox(beta.token, { goalId, after: seen[1].seq });
    await resumed.stream.take(3);
    await toBeta('b6');
    const all = await resumed.stream.take(4);
    // Concurrent sends finish in any order; the stream's order is seq order, checked below.
    expect(all.map((m) => m.id).sort()).toEqual(mine.slice(2).sort());
    const seqs = all.map((m) => Number(m.seq));
    expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);
    expect(resumed.stream.items).toHaveLength(4);
    await resumed.close();
    void gamma;
  });

  it('a reply names the message it answers and keeps its thread', async () => {
    const { goalId, alpha, beta, gamma } = await world();
    const question = await send(alpha.token, request(goalId, { threadId: 'parser-review' }));
    expect(question.threadId).toBe('parser-review');
    const answer = await send(
      beta.token,
      request(goalId, { to: 'alpha', kind: 'CONTEXT', replyTo: question.id }),
    );
    expect(answer).toMatchObject({ replyTo: question.id, threadId: 'parser-review', from: 'beta' });
    const mismatch = await t.gql(
      DELIVER,
      { input: request(goalId, { to: 'alpha', replyTo: question.id, threadId: 'other' }) },
      beta.token,
    );
    expect(mismatch.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    // gamma neither sent nor received it: it cannot reply to it.
    const stranger = await t.gql(
      DELIVER,
      { input: request(goalId, { to: 'alpha', replyTo: question.id }) },
      gamma.token,
    );
    expect(stranger.errors?.[0]?.message).toContain(
      'replyTo must name a message you sent or received',
    );
  });

  it("a thread named after a delivery must be one of this goal: another goal's is refused as an unknown one is, and nothing is written", async () => {
    const mine = await world();
    const theirs = await world();
    const started = await send(mine.alpha.token, request(mine.goalId));
    const joined = await send(mine.gamma.token, request(mine.goalId, { threadId: started.id }));
    expect(joined.threadId).toBe(started.id);
    const before = await counts(theirs.goalId);
    const refusals = [];
    for (const threadId of [started.id, 'dlv_00000000-0000-4000-8000-000000000000']) {
      const result = await t.gql(
        DELIVER,
        { input: request(theirs.goalId, { threadId }) },
        theirs.alpha.token,
      );
      expect(result.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      refusals.push(result.errors?.[0]?.message);
    }
    expect(refusals[0]).toContain('threadId names no delivery of this goal');
    expect(refusals[1]).toBe(refusals[0]);
    expect(await counts(theirs.goalId)).toEqual(before);
    // A thread name of the sender's own is still free.
    const named = await send(theirs.alpha.token, request(theirs.goalId, { threadId: 'rollout' }));
    expect(named.threadId).toBe('rollout');
  });

  it('bodyPreview is short, one line, and carries no credential or absolute path', async () => {
    const { goalId, alpha, beta } = await world();
    const body = [
      'Deploy with token=sb_abcdefghijklmnopqrstuvwxyz012345 and',
      'key ghp_0123456789abcdefghijABCDEFGHIJ, config in /home/alice/.config/app.toml',
      'x'.repeat(300),
    ].join('\n');
    const sent = await send(alpha.token, request(goalId, { body }));
    expect(sent.bodyPreview.length).toBeLessThanOrEqual(120);
    expect(sent.bodyPreview).not.toMatch(/\n|sb_abc|ghp_|\/home\/alice/);
    expect(sent.bodyPreview).toContain('[redacted:credential]');
    // The recipient gets the body as sent: redaction is for evidence, not delivery.
    const inbox = (await t.ok(InboxDocument, { goalId }, beta.token)).inbox;
    expect(inbox.messages[0].body).toBe(body);
  });
});

// ---- roster and discovery ----------------------------------------------------------------

describe(`roster and discovery (${driver})`, () => {
  it('discovery shows available agents as not connected, and never connects them', async () => {
    const { goalId, alpha, seeBeta } = await world({ provider: true });
    await registerAgent(t, goalId, 'delta');
    await t.ok(RetireAgentDocument, { goalId, agentId: 'delta' });
    await seeBeta('WORKING');
    const found = (await t.ok(DISCOVER, { goalId }, alpha.token)).discover;
    expect(found).toMatchObject({ goalId, self: 'alpha', limitations: ['PRESENCE_IS_ADVISORY'] });
    const byId = Object.fromEntries(found.agents.map((a: any) => [a.agentId, a]));
    expect(byId.alpha).toMatchObject({ isSelf: true, sources: ['REGISTRY'], freshness: 'UNKNOWN' });
    expect(byId.beta).toEqual({
      agentId: 'beta',
      isSelf: false,
      sources: ['REGISTRY', 'PRESENCE'],
      freshness: 'FRESH',
      staleReason: null,
      liveness: 'WORKING',
      connected: false,
      isPrimary: false,
      lastMessageAt: null,
    });
    expect(byId.gamma).toMatchObject({
      sources: ['REGISTRY'],
      freshness: 'UNKNOWN',
      connected: false,
    });
    expect(byId.delta).toMatchObject({ freshness: 'STALE', staleReason: 'AGENT_RETIRED' });
    expect((await t.ok(RosterDocument, { goalId }, alpha.token)).roster.peers).toEqual([]);

    // Connected only by an explicit act; a message adds the MESSAGE source, not a connection.
    await t.ok(ADD_PEER, { goalId, agentId: 'gamma' }, alpha.token);
    await send(alpha.token, request(goalId, { to: 'beta' }));
    const after = (await t.ok(DISCOVER, { goalId }, alpha.token)).discover;
    const now = Object.fromEntries(after.agents.map((a: any) => [a.agentId, a]));
    expect(now.gamma.connected).toBe(true);
    expect(now.beta).toMatchObject({
      connected: false,
      sources: ['REGISTRY', 'PRESENCE', 'MESSAGE'],
    });
    expect(now.beta.lastMessageAt).not.toBeNull();
  });

  it('deliver without `to` fails closed with the choices, and goes to the primary once one is set', async () => {
    const { goalId, alpha, beta, gamma } = await world();
    await t.ok(ADD_PEER, { goalId, agentId: 'beta' }, alpha.token);
    const single = await send(alpha.token, request(goalId, { to: null }));
    expect(single).toMatchObject({ __typename: 'Delivery', to: 'beta' });

    await t.ok(ADD_PEER, { goalId, agentId: 'gamma' }, alpha.token);
    const before = await counts(goalId);
    const ambiguous = await send(alpha.token, request(goalId, { to: null }));
    expect(ambiguous).toMatchObject({
      __typename: 'DeliveryRefused',
      reason: 'AMBIGUOUS_TARGET',
      target: null,
      choices: ['beta', 'gamma'],
    });
    expect(await counts(goalId)).toEqual(before);

    const roster = (await t.ok(SET_PRIMARY, { goalId, agentId: 'gamma' }, alpha.token))
      .setPrimaryPeer;
    expect(roster).toMatchObject({ self: 'alpha', selfKind: 'PEER', primaryPeer: 'gamma' });
    const toPrimary = await send(alpha.token, request(goalId, { to: null }));
    expect(toPrimary).toMatchObject({ __typename: 'Delivery', to: 'gamma' });
    // `to` still wins over the primary.
    expect(await send(alpha.token, request(goalId, { to: 'beta' }))).toMatchObject({ to: 'beta' });

    // Removing the primary clears it: ambiguous again.
    const removed = (await t.ok(RemovePeerDocument, { goalId, agentId: 'gamma' }, alpha.token))
      .removePeer;
    expect(removed).toMatchObject({ primaryPeer: null, peers: [{ agentId: 'beta' }] });
    expect(await send(alpha.token, request(goalId, { to: null }))).toMatchObject({ to: 'beta' });
    void beta;
    void gamma;
  });

  it('the roster shows status, source, times and the primary; refusals are typed', async () => {
    const { goalId, alpha, beta } = await world();
    await registerAgent(t, goalId, 'delta');
    await t.ok(ADD_PEER, { goalId, agentId: 'beta' }, alpha.token);
    await t.ok(SET_PRIMARY, { goalId, agentId: 'delta' }, alpha.token);
    await send(beta.token, request(goalId, { to: 'alpha' }));
    await t.ok(RetireAgentDocument, { goalId, agentId: 'delta' });
    const roster = (await t.ok(RosterDocument, { goalId }, alpha.token)).roster;
    expect(roster).toMatchObject({
      goalId,
      self: 'alpha',
      primaryPeer: 'delta',
      peers: [
        { agentId: 'beta', status: 'CONNECTED', source: 'ADD_PEER', isPrimary: false },
        {
          agentId: 'delta',
          status: 'STALE',
          source: 'SET_PRIMARY_PEER',
          isPrimary: true,
          lastActiveAt: null,
        },
      ],
    });
    expect(roster.peers[0].lastActiveAt).not.toBeNull();
    // A retired primary is not ready, and says so.
    expect(await send(alpha.token, request(goalId, { to: null }))).toMatchObject({
      reason: 'NOT_READY',
      target: 'delta',
      notReadyReason: 'TARGET_RETIRED',
    });

    const outsider = await peerInNewGoal(t);
    expect((await t.ok(ADD_PEER, { goalId, agentId: 'ghost' }, alpha.token)).addPeer).toEqual({
      __typename: 'UnknownAgent',
      goalId,
      agentId: 'ghost',
    });
    expect(
      (await t.ok(ADD_PEER, { goalId, agentId: 'delta' }, alpha.token)).addPeer.__typename,
    ).toBe('UnknownAgent');
    expect((await t.ok(ADD_PEER, { goalId, agentId: 'beta' }, outsider.token)).addPeer).toEqual({
      __typename: 'ScopeGap',
      goalId,
      reason: 'AUDIENCE_NOT_AUTHORIZED',
    });
    const self = await t.gql(ADD_PEER, { goalId, agentId: 'alpha' }, alpha.token);
    expect(self.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('survives a gateway restart', async () => {
    const first = await startTestGateway(database, { adminToken: t.adminToken });
    const { goalId, alpha } = await world({ gateway: first });
    await first.ok(ADD_PEER, { goalId, agentId: 'beta' }, alpha.token);
    await first.ok(SET_PRIMARY, { goalId, agentId: 'gamma' }, alpha.token);
    const before = (await first.ok(RosterDocument, { goalId }, alpha.token)).roster;
    await first.stop();
    const second = await startTestGateway(database, { adminToken: t.adminToken });
    const after = (await second.ok(RosterDocument, { goalId }, alpha.token)).roster;
    expect(after).toEqual(before);
    expect(after).toMatchObject({
      primaryPeer: 'gamma',
      peers: [{ agentId: 'beta' }, { agentId: 'gamma' }],
    });
    expect(await send(alpha.token, request(goalId, { to: null }), second)).toMatchObject({
      to: 'gamma',
    });
    await second.stop();
  });

  it('a steward has its own roster, keyed by its credential', async () => {
    const { goalId, alpha } = await world();
    const steward = await issueCredential(t, { kind: 'STEWARD', goalIds: [goalId] });
    const roster = (await t.ok(SET_PRIMARY, { goalId, agentId: 'beta' }, steward.token))
      .setPrimaryPeer;
    expect(roster).toMatchObject({ self: null, selfKind: 'STEWARD', primaryPeer: 'beta' });
    expect((await t.ok(RosterDocument, { goalId }, alpha.token)).roster.primaryPeer).toBeNull();
    expect(await send(steward.token, request(goalId, { to: null }))).toMatchObject({
      to: 'beta',
      from: null,
    });
  });
});

// ---- scope ---------------------------------------------------------------------------------

describe(`scope (${driver})`, () => {
  it('out-of-scope callers get typed scope gaps and see nothing', async () => {
    const { goalId, alpha } = await world();
    const sent = await send(alpha.token, request(goalId));
    const outsider = await peerInNewGoal(t);
    const gap = { __typename: 'ScopeGap', goalId, reason: 'AUDIENCE_NOT_AUTHORIZED' };
    expect((await t.ok(InboxDocument, { goalId }, outsider.token)).inbox).toEqual(gap);
    expect((await t.ok(RosterDocument, { goalId }, outsider.token)).roster).toEqual(gap);
    expect((await t.ok(DISCOVER, { goalId }, outsider.token)).discover).toEqual(gap);
    expect((await t.ok(TAKE, { goalId }, outsider.token)).takeNextMessage).toEqual({
      __typename: 'ScopeGap',
      goalId,
    });
    expect((await t.ok(READ_DELIVERY, { id: sent.id }, outsider.token)).delivery).toEqual({
      __typename: 'UnknownDelivery',
      deliveryId: sent.id,
    });
    const client = wsClient(t.wsUrl, outsider.token);
    const outcome = subscribe(
      client,
      DeliveryOutcomeDocument,
      { deliveryId: sent.id },
      'deliveryOutcome',
    );
    const arrivals = subscribe(
      client,
      InboxMessagesDocument,
      { goalId, after: '0' },
      'inboxMessages',
    );
    await Promise.all([outcome.completed, arrivals.completed]);
    expect(outcome.items).toEqual([{ __typename: 'UnknownDelivery', deliveryId: sent.id }]);
    expect(arrivals.items).toEqual([gap]);
    await client.dispose();
    // Marking someone else's message is bad input, not a way to learn it exists.
    const foreign = await t.gql(MarkReadDocument, { ids: [sent.id] }, outsider.token);
    expect(foreign.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });

  it('a peer of the goal who is neither sender nor recipient cannot read a delivery; a steward can', async () => {
    const { goalId, alpha, gamma } = await world();
    const sent = await send(alpha.token, request(goalId));
    expect((await t.ok(READ_DELIVERY, { id: sent.id }, gamma.token)).delivery.__typename).toBe(
      'UnknownDelivery',
    );
    const steward = await issueCredential(t, { kind: 'STEWARD', goalIds: [goalId] });
    expect((await t.ok(READ_DELIVERY, { id: sent.id }, steward.token)).delivery.id).toBe(sent.id);
  });

  it('a delegated peer has no inbox in the delegated goal; a provider has none at all', async () => {
    const { goalId, provider } = await world({ provider: true });
    const visitor = await peerInNewGoal(t);
    await t.ok(DelegateGoalDocument, {
      input: { goalId, agentGoalId: visitor.goalId, agentId: visitor.agentId },
    });
    expect((await t.ok(InboxDocument, { goalId }, visitor.token)).inbox).toEqual({
      __typename: 'UnknownAgent',
      goalId,
      agentId: visitor.agentId,
    });
    // It may deliver there, as itself.
    const sent = await send(visitor.token, request(goalId));
    expect(sent).toMatchObject({ from: visitor.agentId, sender: { goalId: visitor.goalId } });
    for (const query of [InboxDocument, RosterDocument, DISCOVER]) {
      const result = await t.gql(query, { goalId }, provider?.token);
      expect(result.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    }
  });
});

// ---- the rule itself -----------------------------------------------------------------------

describe(`one agent's deliveries (${driver})`, () => {
  /** alpha → beta twice, beta → gamma, gamma → alpha, a steward → beta: five deliveries. */
  async function traffic() {
    const w = await world();
    const steward = await issueCredential(t, { kind: 'STEWARD', goalIds: [w.goalId] });
    const ab1 = await send(w.alpha.token, request(w.goalId, { subject: 'ab1' }));
    const ab2 = await send(w.alpha.token, request(w.goalId, { subject: 'ab2' }));
    const bg = await send(w.beta.token, request(w.goalId, { to: 'gamma', subject: 'bg' }));
    const ga = await send(w.gamma.token, request(w.goalId, { to: 'alpha', subject: 'ga' }));
    const sb = await send(steward.token, request(w.goalId, { subject: 'sb' }));
    return { ...w, steward, ids: { ab1: ab1.id, ab2: ab2.id, bg: bg.id, ga: ga.id, sb: sb.id } };
  }
  const subjects = (listing: { rows: { subject: string }[] }) => listing.rows.map((r) => r.subject);

  it('lists to, from or both, newest first, and pages back with before', async () => {
    const { goalId, steward } = await traffic();
    const read = async (vars: Record<string, unknown>) =>
      (await t.ok(DeliveriesDocument, { goalId, ...vars }, steward.token)).deliveries;
    expect(subjects(await read({ agentId: 'beta' }))).toEqual(['sb', 'bg', 'ab2', 'ab1']);
    expect(subjects(await read({ agentId: 'beta', direction: 'TO' }))).toEqual([
      'sb',
      'ab2',
      'ab1',
    ]);
    expect(subjects(await read({ agentId: 'beta', direction: 'FROM' }))).toEqual(['bg']);
    expect(subjects(await read({ agentId: 'alpha', direction: 'FROM' }))).toEqual(['ab2', 'ab1']);
    const first = await read({ agentId: 'beta', limit: 3 });
    expect(first).toMatchObject({ hasOlder: true, limitations: [], scopeGap: null });
    expect(subjects(first)).toEqual(['sb', 'bg', 'ab2']);
    const older = await read({ agentId: 'beta', limit: 3, before: first.olderCursor });
    expect(older).toMatchObject({ hasOlder: false, olderCursor: null });
    expect(subjects(older)).toEqual(['ab1']);
    // Each row is what delivery(id) answers: its outcome and history from submission.
    expect(older.rows[0]).toMatchObject({
      from: 'alpha',
      to: 'beta',
      outcome: 'SUBMITTED',
      history: [{ version: 0, outcome: 'SUBMITTED', final: true }],
    });
  });

  it('settles outcomes when read: a stalled delivery reads STALLED without any subscriber', async () => {
    const { goalId, alpha } = await world({ provider: true });
    await send(alpha.token, request(goalId, { activityWindowMs: 1, timeoutMs: 60_000 }));
    const listing = await eventually(async () => {
      const { deliveries } = await t.ok(DeliveriesDocument, { goalId, agentId: 'beta' });
      return deliveries.rows[0]?.outcome === 'STALLED' ? deliveries : undefined;
    }, 'the delivery to stall');
    expect(listing.rows[0].history.map((h: { outcome: string }) => h.outcome)).toEqual([
      'SUBMITTED',
      'STALLED',
    ]);
  });

  it('a peer sees only what it sent or received, and says so for another agent', async () => {
    const { goalId, alpha, gamma } = await traffic();
    const own = (await t.ok(DeliveriesDocument, { goalId, agentId: 'alpha' }, alpha.token))
      .deliveries;
    expect(subjects(own)).toEqual(['ga', 'ab2', 'ab1']);
    expect(own.limitations).toEqual([]);
    // gamma asks about beta: only beta → gamma is gamma's; alpha → beta and the steward's are not.
    const other = (await t.ok(DeliveriesDocument, { goalId, agentId: 'beta' }, gamma.token))
      .deliveries;
    expect(subjects(other)).toEqual(['bg']);
    expect(other.limitations).toEqual(['ONLY_CALLERS_OWN_DELIVERIES']);
  });

  it('out of scope: a scope gap and no rows; bad input and providers get clear errors', async () => {
    const { goalId, provider } = await world({ provider: true });
    const outsider = await peerInNewGoal(t);
    const gap = (await t.ok(DeliveriesDocument, { goalId, agentId: 'beta' }, outsider.token))
      .deliveries;
    expect(gap).toMatchObject({
      rows: [],
      hasOlder: false,
      scopeGap: { goalId, reason: 'AUDIENCE_NOT_AUTHORIZED' },
    });
    // An unknown agent of an out-of-scope goal is still just the gap: nothing is told.
    const unknownOutside = await t.ok(
      DeliveriesDocument,
      { goalId, agentId: 'nobody' },
      outsider.token,
    );
    expect(unknownOutside.deliveries.scopeGap.reason).toBe('AUDIENCE_NOT_AUTHORIZED');
    const cases: [Record<string, unknown>, string][] = [
      [{ agentId: 'nobody' }, 'no agent nobody is registered to goal'],
      [{ agentId: 'beta', limit: 0 }, 'limit must be an integer from 1 to 100'],
      [{ agentId: 'beta', limit: 101 }, 'limit must be an integer from 1 to 100'],
    ];
    for (const [vars, message] of cases) {
      const result = await t.gql(DeliveriesDocument, { goalId, ...vars });
      expect(result.errors?.[0]?.message, message).toContain(message);
      expect(result.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    }
    const bad = await t.gql(DeliveriesDocument, { goalId, agentId: 'beta', before: '-1' });
    expect(bad.errors?.[0]?.message).toContain('Seq must be a decimal integer');
    const asProvider = await t.gql(
      DeliveriesDocument,
      { goalId, agentId: 'beta' },
      provider?.token,
    );
    expect(asProvider.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });

  it('is read in a constant number of SQL statements, however many rows the page has', async () => {
    const counting = countingDatabase(database);
    const gateway = await startTestGateway(counting.database, { adminToken: t.adminToken });
    try {
      const measure = async (deliveries: number) => {
        const { goalId, alpha } = await world({ provider: true, gateway });
        for (let i = 0; i < deliveries; i++) await send(alpha.token, request(goalId), gateway);
        counting.reset();
        const { deliveries: listing } = await gateway.ok(DeliveriesDocument, {
          goalId,
          agentId: 'beta',
        });
        expect(listing.rows).toHaveLength(deliveries);
        return counting.statements();
      };
      const small = await measure(2);
      const large = await measure(15);
      expect(large).toBe(small);
      expect(large).toBeLessThanOrEqual(10);
    } finally {
      await gateway.stop();
    }
  });
});

describe('the outcome rule is a function of the decisive change, the windows and the clock', () => {
  const at = (ms: number) => new Date(1_000_000 + ms);
  const row = {
    pinState: 'PINNED',
    submittedAt: at(0),
    windowEndsAt: at(100),
    deadline: at(1000),
  } as DeliveryRow;
  const change = (
    ms: number,
    outcome: 'ACTIVITY_OBSERVED' | 'UNREACHABLE' = 'ACTIVITY_OBSERVED',
  ) => ({
    outcome,
    reason: null,
    seq: 7n,
    liveness: 'WORKING' as const,
    at: at(ms),
  });
  const steps = (decisive: ReturnType<typeof change> | null, now: number | null) =>
    trajectory(row, decisive, now === null ? null : at(now)).map((s) => [
      s.outcome,
      s.effectiveAt.getTime() - 1_000_000,
    ]);

  it('decides from a change alone, with STALLED first when the change came after the window', () => {
    expect(steps(change(100), null)).toEqual([['ACTIVITY_OBSERVED', 100]]);
    expect(steps(change(101), null)).toEqual([
      ['STALLED', 100],
      ['ACTIVITY_OBSERVED', 101],
    ]);
    expect(steps(change(500, 'UNREACHABLE'), 999_999)).toEqual([
      ['STALLED', 100],
      ['UNREACHABLE', 500],
    ]);
  });

  it('decides from absence only past a boundary, strictly, and only when given a clock', () => {
    expect(steps(null, null)).toEqual([]);
    expect(steps(null, 100)).toEqual([]);
    expect(steps(null, 101)).toEqual([['STALLED', 100]]);
    expect(steps(null, 1000)).toEqual([['STALLED', 100]]);
    expect(steps(null, 1001)).toEqual([
      ['STALLED', 100],
      ['EXPIRED', 1000],
    ]);
  });

  it('never moves an unpinned delivery, and a window as long as the timeout never stalls', () => {
    expect(trajectory({ ...row, pinState: 'NO_PROVIDER' }, change(50), at(5000))).toEqual([]);
    const noStall = { ...row, windowEndsAt: row.deadline };
    expect(trajectory(noStall, null, at(1001)).map((s) => s.outcome)).toEqual(['EXPIRED']);
  });
});
