/**
 * Retention keeps the history tables bounded and never lies about it: what it removes is
 * history nothing open still reads, and a stream resumed from before what is kept ends with a
 * RetentionGap naming the cursor to resume from, never a silent skip.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DeliverDocument,
  DeliveryOutcomeDocument,
  FollowWaitDocument,
  InboxDocument,
  InboxMessagesDocument,
  PresenceChangedDocument,
  ResolveMessageDocument,
  StartWaitDocument,
} from '../src/client/generated/graphql.ts';
import { ConfigError, DEFAULT_RETENTION, loadConfig, type Retention } from '../src/config.ts';
import type { Database } from '../src/db/database.ts';
import { rowsOf } from '../src/db/sql.ts';
import { createLogger } from '../src/log.ts';
import { RetentionSweep } from '../src/retention.ts';
import {
  driver,
  eventually,
  openPrivateTestDatabase,
  registerProvider,
  startTestGateway,
  subscribe,
  type TestGateway,
  wsClient,
} from './support/harness.ts';
import { team } from './support/team.ts';

// A sweep removes history of every goal of its database: this file's is its own.
let database: Database;
let t: TestGateway;
beforeAll(async () => {
  database = await openPrivateTestDatabase();
  t = await startTestGateway(database);
});
afterAll(async () => {
  await t?.stop();
  await database?.close();
});

const sweepKeeping = (retention: Partial<Retention>) =>
  new RetentionSweep(
    database.db,
    {
      retention: {
        presenceChangesPerGoal: 0,
        finishedWaitsMs: 0,
        processedMessagesMs: 0,
        ...retention,
      },
    },
    createLogger('silent'),
  );

async function changeSeqs(goalId: string): Promise<bigint[]> {
  return rowsOf<{ seq: string }>(
    await database.db.execute(
      sql`select seq::text from presence_changes where goal_id = ${goalId} order by seq`,
    ),
  ).map((r) => BigInt(r.seq));
}

/** Everything a subscription sends until the server ends it. */
async function untilEnd(
  query: string | object,
  variables: Record<string, unknown>,
  field: string,
  token = t.adminToken,
) {
  const client = wsClient(t.wsUrl, token);
  const stream = subscribe(client, query as never, variables, field);
  await Promise.race([
    stream.completed,
    new Promise((_, reject) => setTimeout(() => reject(new Error(`${field} did not end`)), 10_000)),
  ]);
  stream.dispose();
  await client.dispose();
  expect(stream.errors).toEqual([]);
  return stream.items;
}

describe(`retention (${driver})`, () => {
  it('keeps the newest presence changes of a goal; a stream resumed from before them gets a RetentionGap, and from its resumeAfter every kept change', async () => {
    const { goalId, a } = await team(t, ['a']);
    const provider = await registerProvider(t, [goalId], { presenceTtlMs: 3_600_000 });
    for (const liveness of ['IDLE', 'WORKING', 'IDLE', 'WORKING', 'IDLE', 'WORKING'])
      await provider.report([{ agentId: a.agentId, goalId, liveness }]);
    const before = await changeSeqs(goalId);
    expect(before).toHaveLength(6);

    const stats = await sweepKeeping({ presenceChangesPerGoal: 2 }).sweep();
    expect(stats?.presenceChanges).toBe(4);
    const kept = await changeSeqs(goalId);
    expect(kept).toEqual(before.slice(4));

    const [gap] = await untilEnd(
      PresenceChangedDocument,
      { goalId, after: '0' },
      'presenceChanged',
    );
    expect(gap).toMatchObject({
      seq: null,
      presence: null,
      retentionGap: { goalId, after: '0', resumeAfter: String(before[3]) },
    });
    // From the cursor it names, every kept change, then live ones.
    const client = wsClient(t.wsUrl, t.adminToken);
    const resumed = subscribe(
      client,
      PresenceChangedDocument,
      { goalId, after: gap.retentionGap.resumeAfter },
      'presenceChanged',
    );
    const items = await resumed.take(2);
    expect(items.map((c) => BigInt(c.seq))).toEqual(kept);
    expect(items.every((c) => c.retentionGap === null)).toBe(true);
    resumed.dispose();
    await client.dispose();
    // A cursor at or after what is kept resumes as before.
    const fromKept = subscribe(
      wsClient(t.wsUrl, t.adminToken),
      PresenceChangedDocument,
      { goalId, after: String(before[4]) },
      'presenceChanged',
    );
    expect((await fromKept.take(1))[0].seq).toBe(String(before[5]));
    fromKept.dispose();
  });

  it('keeps every change after the baseline of a pending pinned wait, which still settles', async () => {
    const { goalId, a, b } = await team(t, ['a', 'b']);
    const provider = await registerProvider(t, [goalId], { presenceTtlMs: 3_600_000 });
    await provider.report([
      {
        agentId: b.agentId,
        goalId,
        liveness: 'WORKING',
        providerSessionRef: 'w1:p2',
        occupantRef: 'pane-2/agent',
      },
    ]);
    const started = await t.ok(StartWaitDocument, {
      input: { goalId, agentId: b.agentId, accept: ['IDLE'], timeoutMs: 60_000 },
    });
    expect(started.startWait).toMatchObject({ __typename: 'Wait', status: 'PENDING' });
    const baseline = BigInt(started.startWait.targets[0].baselineSeq);
    for (const liveness of ['IDLE', 'WORKING', 'IDLE', 'WORKING'])
      await provider.report([{ agentId: a.agentId, goalId, liveness }]);

    await sweepKeeping({ presenceChangesPerGoal: 1 }).sweep();
    const kept = await changeSeqs(goalId);
    expect(kept[0]).toBeLessThanOrEqual(baseline + 1n);
    expect(kept.at(-1)).toBe(baseline + 4n);

    await provider.report([
      {
        agentId: b.agentId,
        goalId,
        liveness: 'IDLE',
        providerSessionRef: 'w1:p2',
        occupantRef: 'pane-2/agent',
      },
    ]);
    const [settled] = await untilEnd(
      FollowWaitDocument,
      { waitId: started.startWait.id },
      'waitForAgent',
    );
    expect(settled).toMatchObject({ __typename: 'Wait', status: 'SATISFIED' });
    // Once it settled, the same sweep goes on to the newest one.
    await sweepKeeping({ presenceChangesPerGoal: 1 }).sweep();
    expect(await changeSeqs(goalId)).toHaveLength(1);
  });

  it('removes finished waits after their age, never a pending one; a removed wait is UnknownWait', async () => {
    const { goalId, a } = await team(t, ['a']);
    // No presence yet: the wait ends NOT_RUNNING at once.
    const finished = await t.ok(StartWaitDocument, {
      input: { goalId, agentId: a.agentId, accept: ['IDLE'], timeoutMs: 60_000 },
    });
    expect(finished.startWait.status).toBe('NOT_RUNNING');
    const provider = await registerProvider(t, [goalId], { presenceTtlMs: 3_600_000 });
    await provider.report([{ agentId: a.agentId, goalId, liveness: 'WORKING' }]);
    const pending = await t.ok(StartWaitDocument, {
      input: { goalId, agentId: a.agentId, accept: ['IDLE'], timeoutMs: 600_000 },
    });
    expect(pending.startWait.status).toBe('PENDING');

    const sweep = sweepKeeping({ finishedWaitsMs: 1 });
    await eventually(
      async () => ((await sweep.sweep())?.finishedWaits ?? 0) > 0 || undefined,
      'the finished wait removed',
    );
    const [gone] = await untilEnd(
      FollowWaitDocument,
      { waitId: finished.startWait.id },
      'waitForAgent',
    );
    expect(gone).toMatchObject({ __typename: 'UnknownWait' });
    const [still] = rowsOf<{ status: string }>(
      await database.db.execute(sql`select status from waits where id = ${pending.startWait.id}`),
    );
    expect(still?.status).toBe('PENDING');
  });

  it('removes processed messages after their age, never an unprocessed one; the inbox stream from before them gets a RetentionGap', async () => {
    const { goalId, a, b } = await team(t, ['a', 'b']);
    const send = async (subject: string) => {
      const { deliver } = await t.ok(
        DeliverDocument,
        {
          input: {
            goalId,
            to: b.agentId,
            kind: 'CONTEXT',
            subject,
            body: subject,
            idempotencyKey: subject,
          },
        },
        a.token,
      );
      expect(deliver.__typename).toBe('Delivery');
      return deliver as { id: string; seq: string };
    };
    const processed = await send('done with');
    const unread = await send('still to read');
    await t.ok(ResolveMessageDocument, { id: processed.id }, b.token);

    const sweep = sweepKeeping({ processedMessagesMs: 1 });
    await eventually(
      async () => ((await sweep.sweep())?.processedMessages ?? 0) > 0 || undefined,
      'the processed message removed',
    );

    const [gap] = await untilEnd(
      InboxMessagesDocument,
      { goalId, after: '0' },
      'inboxMessages',
      b.token,
    );
    expect(gap).toMatchObject({ __typename: 'RetentionGap', goalId, after: '0' });
    const resumed = subscribe(
      wsClient(t.wsUrl, b.token),
      InboxMessagesDocument,
      { goalId, after: gap.resumeAfter },
      'inboxMessages',
    );
    const [next] = await resumed.take(1);
    expect(next).toMatchObject({ __typename: 'InboxMessage', id: unread.id });
    resumed.dispose();
    const [outcome] = await untilEnd(
      DeliveryOutcomeDocument,
      { deliveryId: processed.id },
      'deliveryOutcome',
      a.token,
    );
    expect(outcome).toMatchObject({ __typename: 'UnknownDelivery' });
    const { inbox } = await t.ok(InboxDocument, { goalId }, b.token);
    expect(inbox.messages.map((m: { id: string }) => m.id)).toEqual([unread.id]);
  });

  it('reads its settings from the environment: a count of changes, ages with their unit, 0 keeps all; anything else is refused by name', () => {
    expect(loadConfig({}).retention).toEqual(DEFAULT_RETENTION);
    expect(
      loadConfig({
        SWITCHBOARD_RETAIN_PRESENCE_CHANGES: '5000',
        SWITCHBOARD_RETAIN_FINISHED_WAITS: '12h',
        SWITCHBOARD_RETAIN_PROCESSED_MESSAGES: '0',
      }).retention,
    ).toEqual({
      presenceChangesPerGoal: 5000,
      finishedWaitsMs: 43_200_000,
      processedMessagesMs: 0,
    });
    for (const [name, value] of [
      ['SWITCHBOARD_RETAIN_PRESENCE_CHANGES', '-1'],
      ['SWITCHBOARD_RETAIN_PRESENCE_CHANGES', '1e3'],
      ['SWITCHBOARD_RETAIN_FINISHED_WAITS', '7'],
      ['SWITCHBOARD_RETAIN_PROCESSED_MESSAGES', '30 days'],
    ] as const) {
      expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
      expect(() => loadConfig({ [name]: value })).toThrow(name);
    }
  });
});
