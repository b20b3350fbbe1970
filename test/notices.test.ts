/**
 * Safe-point notices through the real server: recordDeliveryNotice's receipt as the sender sees
 * it, each typed refusal (and that it writes nothing), pendingNotices, and the statement count.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  DeliverDocument,
  EndPresenceDocument,
  ResolveMessageDocument,
} from '../src/client/generated/graphql.ts';
import { rowsOf } from '../src/db/sql.ts';
import { database, t } from './support/gateway-per-file.ts';
import {
  countingDatabase,
  driver,
  issueCredential,
  peerInNewGoal,
  registerAgent,
  registerProvider,
  startTestGateway,
} from './support/harness.ts';

const RECORD = `mutation($input: RecordDeliveryNoticeInput!) {
  recordDeliveryNotice(input: $input) {
    __typename
    ... on DeliveryNotice { deliveryId via provider providerSessionRef occupantRef text observedAt recordedAt seq }
    ... on DeliveryNoticeRefused { reason goalId deliveryId liveness }
    ... on ScopeGap { goalId scopeGapReason: reason }
  }
}`;
const PENDING = `query($goalId: ID!) {
  pendingNotices(goalId: $goalId) {
    __typename
    ... on PendingNotices { goalId notices { deliveryId agentId providerSessionRef occupantRef } }
    ... on ScopeGap { goalId reason }
  }
}`;
const READ = `query($id: ID!) {
  delivery(id: $id) { __typename ... on Delivery {
    outcome history { outcome }
    receipt { submittedAt notifiedAt readAt processedAt notices { via provider providerSessionRef text observedAt } }
  } }
}`;

/** A goal with a recipient seen IDLE by a provider at pane %7, and a sender (a peer) with a delivery to it. */
async function scenario() {
  const { goalId, agentId, token: recipientToken } = await peerInNewGoal(t);
  const sender = await registerAgent(t, goalId);
  const { token: senderToken } = await issueCredential(t, {
    kind: 'PEER',
    goalId,
    agentId: sender,
  });
  const provider = await registerProvider(t, [goalId]);
  await provider.report([{ goalId, agentId, liveness: 'IDLE', providerSessionRef: '%7' }]);
  const { deliver } = await t.ok(
    DeliverDocument,
    {
      input: {
        goalId,
        to: agentId,
        kind: 'REQUEST',
        subject: 'review the parser',
        body: 'please',
        idempotencyKey: `k-${Math.random()}`,
      },
    },
    senderToken,
  );
  return { goalId, agentId, recipientToken, senderToken, provider, deliveryId: deliver.id };
}

const record = (token: string, input: Record<string, unknown>) =>
  t.ok(RECORD, { input: { via: 'TERMINAL_NOTICE', providerSessionRef: '%7', ...input } }, token);

async function noticeRows(deliveryId: string) {
  return rowsOf<{ n: number }>(
    await database.db.execute(
      sql`select count(*)::int as n from delivery_notices where delivery_id = ${deliveryId}`,
    ),
  )[0]?.n;
}
async function inboxHead(goalId: string) {
  return rowsOf<{ seq: string }>(
    await database.db.execute(
      sql`select seq::text from stream_heads where goal_id = ${goalId} and stream = 'inbox'`,
    ),
  )[0]?.seq;
}

describe(`safe-point notices (${driver})`, () => {
  it('records a typed receipt the sender sees apart from SUBMITTED, and moves the inbox sequence', async () => {
    const s = await scenario();
    const before = await inboxHead(s.goalId);
    const text = '1 unread message — run `switchboard next` (token sk-ant-abcdefghijklmnopqrstu)';
    const { recordDeliveryNotice: n } = await record(s.provider.token, {
      goalId: s.goalId,
      deliveryId: s.deliveryId,
      text,
    });
    expect(n).toMatchObject({
      __typename: 'DeliveryNotice',
      deliveryId: s.deliveryId,
      via: 'TERMINAL_NOTICE',
      provider: s.provider.providerId,
      providerSessionRef: '%7',
      occupantRef: 'pane-1/agent',
    });
    expect(n.text).not.toContain('sk-ant-');
    expect(n.text).toContain('[redacted');
    expect(BigInt(n.seq)).toBe(BigInt(before ?? 0) + 1n);
    expect(await inboxHead(s.goalId)).toBe(n.seq);

    const { delivery } = await t.ok(READ, { id: s.deliveryId }, s.senderToken);
    expect(delivery.outcome).toBe('SUBMITTED');
    expect(delivery.history.map((h: { outcome: string }) => h.outcome)).toEqual(['SUBMITTED']);
    expect(delivery.receipt.notifiedAt).toBe(n.observedAt);
    expect(delivery.receipt.readAt).toBeNull();
    expect(delivery.receipt.notices).toEqual([
      {
        via: 'TERMINAL_NOTICE',
        provider: s.provider.providerId,
        providerSessionRef: '%7',
        text: n.text,
        observedAt: n.observedAt,
      },
    ]);
  });

  it('refuses, writing nothing: unknown delivery, another goal, not its agent, BLOCKED, processed, a second terminal notice', async () => {
    const s = await scenario();
    const refusal = async (token: string, input: Record<string, unknown>) =>
      (await record(token, { goalId: s.goalId, deliveryId: s.deliveryId, ...input }))
        .recordDeliveryNotice;
    const head = await inboxHead(s.goalId);

    expect(await refusal(s.provider.token, { deliveryId: 'dlv_nope' })).toMatchObject({
      __typename: 'DeliveryNoticeRefused',
      reason: 'UNKNOWN_DELIVERY',
    });
    // The same delivery named under another goal of the provider is unknown there.
    const other = await peerInNewGoal(t);
    const both = await registerProvider(t, [s.goalId, other.goalId]);
    expect(await refusal(both.token, { goalId: other.goalId })).toMatchObject({
      reason: 'UNKNOWN_DELIVERY',
    });
    // A goal outside the credential: a scope gap, nothing about the delivery.
    const outsider = await registerProvider(t, [other.goalId]);
    expect(await refusal(outsider.token, {})).toMatchObject({ __typename: 'ScopeGap' });
    // A provider of the goal that does not see the recipient, or not at that pane.
    expect(await refusal(both.token, {})).toMatchObject({ reason: 'NOT_PROVIDERS_AGENT' });
    expect(await refusal(s.provider.token, { providerSessionRef: '%8' })).toMatchObject({
      reason: 'NOT_PROVIDERS_AGENT',
      liveness: null,
    });

    await s.provider.report([
      { goalId: s.goalId, agentId: s.agentId, liveness: 'BLOCKED', providerSessionRef: '%7' },
    ]);
    expect(await refusal(s.provider.token, {})).toMatchObject({
      reason: 'AGENT_BLOCKED',
      liveness: 'BLOCKED',
    });
    await s.provider.report([
      { goalId: s.goalId, agentId: s.agentId, liveness: 'IDLE', providerSessionRef: '%7' },
    ]);
    expect(await noticeRows(s.deliveryId)).toBe(0);
    expect(await inboxHead(s.goalId)).toBe(head);

    expect((await refusal(s.provider.token, {})).__typename).toBe('DeliveryNotice');
    expect(await refusal(s.provider.token, {})).toMatchObject({ reason: 'ALREADY_NOTIFIED' });
    // A hook hand-over is its own receipt, even after a typed notice.
    expect((await refusal(s.provider.token, { via: 'LIFECYCLE_HOOK' })).__typename).toBe(
      'DeliveryNotice',
    );
    await t.ok(ResolveMessageDocument, { id: s.deliveryId }, s.recipientToken);
    expect(await refusal(s.provider.token, { via: 'LIFECYCLE_HOOK' })).toMatchObject({
      reason: 'ALREADY_PROCESSED',
    });
    expect(await noticeRows(s.deliveryId)).toBe(2);

    // After the occupant ended, the provider no longer sees it.
    const ended = await scenario();
    await t.ok(
      EndPresenceDocument,
      {
        input: {
          goalId: ended.goalId,
          agentId: ended.agentId,
          providerSessionRef: '%7',
          observedAt: new Date().toISOString(),
          reportSeq: '99',
        },
      },
      ended.provider.token,
    );
    expect(
      (
        await record(ended.provider.token, {
          goalId: ended.goalId,
          deliveryId: ended.deliveryId,
        })
      ).recordDeliveryNotice,
    ).toMatchObject({ reason: 'NOT_PROVIDERS_AGENT' });
    expect(await noticeRows(ended.deliveryId)).toBe(0);
  });

  it('is bad input, writing nothing, for a future time, a multi-line text, and a caller that is not a provider', async () => {
    const s = await scenario();
    const bad = async (input: Record<string, unknown>, token = s.provider.token) =>
      t.gql(
        RECORD,
        {
          input: {
            goalId: s.goalId,
            deliveryId: s.deliveryId,
            via: 'TERMINAL_NOTICE',
            providerSessionRef: '%7',
            ...input,
          },
        },
        token,
      );
    const future = await bad({ observedAt: new Date(Date.now() + 3_600_000).toISOString() });
    expect(future.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const twoLines = await bad({ text: 'one\ntwo' });
    expect(twoLines.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const peer = await bad({}, s.senderToken);
    expect(peer.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const pending = await t.gql(PENDING, { goalId: s.goalId }, s.senderToken);
    expect(pending.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(await noticeRows(s.deliveryId)).toBe(0);
  });

  it('pendingNotices lists what the provider may notify, ids only, until a terminal notice or a read', async () => {
    const s = await scenario();
    const pending = async (token = s.provider.token) =>
      (await t.ok(PENDING, { goalId: s.goalId }, token)).pendingNotices;
    expect(await pending()).toEqual({
      __typename: 'PendingNotices',
      goalId: s.goalId,
      notices: [
        {
          deliveryId: s.deliveryId,
          agentId: s.agentId,
          providerSessionRef: '%7',
          occupantRef: 'pane-1/agent',
        },
      ],
    });
    const other = await registerProvider(t, [s.goalId]);
    expect((await pending(other.token)).notices).toEqual([]);
    const outsider = await registerProvider(t, [(await peerInNewGoal(t)).goalId]);
    expect((await pending(outsider.token)).__typename).toBe('ScopeGap');
    await record(s.provider.token, { goalId: s.goalId, deliveryId: s.deliveryId });
    expect((await pending()).notices).toEqual([]);
  });

  it('a TERMINAL_SIGNAL (shown to the person, not typed) is its own receipt, once: it sets no notifiedAt and leaves the delivery pending for a typed notice', async () => {
    const s = await scenario();
    const signal = await record(s.provider.token, {
      goalId: s.goalId,
      deliveryId: s.deliveryId,
      via: 'TERMINAL_SIGNAL',
      text: 'Switchboard: 1 unread message for an agent (switchboard next)',
    });
    expect(signal.recordDeliveryNotice).toMatchObject({
      __typename: 'DeliveryNotice',
      via: 'TERMINAL_SIGNAL',
    });
    const again = await record(s.provider.token, {
      goalId: s.goalId,
      deliveryId: s.deliveryId,
      via: 'TERMINAL_SIGNAL',
    });
    expect(again.recordDeliveryNotice).toMatchObject({ reason: 'ALREADY_NOTIFIED' });
    const { delivery } = await t.ok(READ, { id: s.deliveryId }, s.senderToken);
    expect(delivery.receipt.notifiedAt).toBeNull();
    expect(delivery.receipt.notices.map((n: { via: string }) => n.via)).toEqual([
      'TERMINAL_SIGNAL',
    ]);
    const { pendingNotices } = await t.ok(PENDING, { goalId: s.goalId }, s.provider.token);
    expect(pendingNotices.notices.map((n: { deliveryId: string }) => n.deliveryId)).toEqual([
      s.deliveryId,
    ]);
    const typed = await record(s.provider.token, { goalId: s.goalId, deliveryId: s.deliveryId });
    expect(typed.recordDeliveryNotice.__typename).toBe('DeliveryNotice');
    const after = await t.ok(READ, { id: s.deliveryId }, s.senderToken);
    expect(after.delivery.receipt.notifiedAt).toBe(typed.recordDeliveryNotice.observedAt);
  });

  it('records in a constant number of SQL statements', async () => {
    const counting = countingDatabase(database);
    const gateway = await startTestGateway(counting.database, { adminToken: t.adminToken });
    try {
      const measure = async () => {
        const s = await scenario();
        counting.reset();
        const { recordDeliveryNotice } = await gateway.ok(
          RECORD,
          {
            input: {
              goalId: s.goalId,
              deliveryId: s.deliveryId,
              via: 'TERMINAL_NOTICE',
              providerSessionRef: '%7',
            },
          },
          s.provider.token,
        );
        expect(recordDeliveryNotice.__typename).toBe('DeliveryNotice');
        return counting.statements();
      };
      const first = await measure();
      expect(await measure()).toBe(first);
      expect(first).toBeLessThanOrEqual(6);
    } finally {
      await gateway.stop();
    }
  });
});
