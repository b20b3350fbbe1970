import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { ProviderCaller } from '../core/caller.ts';
import { InputError } from '../core/errors.ts';
import type { ScopeGap } from '../core/scope.ts';
import { refuse, transactOrRefuse } from '../core/transaction.ts';
import { oneOf, screenText, validateId, validateText } from '../core/validate.ts';
import type { Db, Queryable } from '../db/database.ts';
import { bare } from '../db/sql.ts';
import { appendAtNextSeq } from '../events/sequence.ts';
import { type Liveness, presenceTable, providersTable } from '../presence/tables.ts';
import { checkGoalScope } from '../registry/scope.ts';
import {
  type DeliveryNoticeRow,
  deliveriesTable,
  deliveryNoticesTable,
  type NoticeVia,
  noticeVias,
} from './tables.ts';

/**
 * Safe-point notices (docs/agents.md, "Delivery at safe points"): a provider records that it told a
 * delivery's recipient about it at a lifecycle safe point — its Stop hook handed the message
 * over (LIFECYCLE_HOOK), or it typed a one-line notice at an idle prompt with an empty input
 * line (TERMINAL_NOTICE), or, where typing was not safe, it showed the person a message without
 * touching the pane's input (TERMINAL_SIGNAL: the agent itself was not told). Only the provider that sees the recipient at that location may
 * record one, never while it shows the recipient BLOCKED. A receipt is kept apart from the
 * delivery's outcome: it does not move SUBMITTED, and it is not proof the agent read anything.
 */

export const MAX_NOTICE_TEXT = 200;
/** A provider's clock may run a little ahead of the database's; more is bad input. */
const MAX_CLOCK_AHEAD_MS = 60_000;

export interface NoticeInput {
  goalId: string;
  deliveryId: string;
  via: NoticeVia;
  providerSessionRef: string;
  text?: string | null;
  observedAt?: Date | null;
}

/** A recorded notice, as the mutation answers it. */
export type DeliveryNotice = DeliveryNoticeRow & { readonly type: 'DeliveryNotice' };

export const noticeRefusalReasons = [
  'UNKNOWN_DELIVERY',
  'NOT_PROVIDERS_AGENT',
  'AGENT_BLOCKED',
  'ALREADY_PROCESSED',
  'ALREADY_NOTIFIED',
] as const;
export type NoticeRefusalReason = (typeof noticeRefusalReasons)[number];

export interface DeliveryNoticeRefused {
  readonly type: 'DeliveryNoticeRefused';
  readonly reason: NoticeRefusalReason;
  readonly goalId: string;
  readonly deliveryId: string;
  /** The recipient's liveness at that location as this provider last reported it; null when none. */
  readonly liveness: Liveness | null;
}

export type RecordNoticeResult = DeliveryNotice | DeliveryNoticeRefused | ScopeGap;

function validate(input: NoticeInput) {
  const observedAt = input.observedAt ?? null;
  if (observedAt !== null) {
    if (Number.isNaN(observedAt.getTime()))
      throw new InputError('observedAt is not a time', 'observedAt');
    if (observedAt.getTime() > Date.now() + MAX_CLOCK_AHEAD_MS)
      throw new InputError('observedAt is in the future', 'observedAt');
  }
  return {
    goalId: validateId('goalId', input.goalId),
    deliveryId: validateId('deliveryId', input.deliveryId),
    via: oneOf('via', input.via, noticeVias),
    providerSessionRef: validateText('providerSessionRef', input.providerSessionRef, 200, 1, 'one'),
    text: input.text == null ? null : screenText('text', input.text, MAX_NOTICE_TEXT, 1, 'one'),
    observedAt,
  };
}

/**
 * Records one notice, in one transaction of two statements after the scope check: a read of
 * the delivery (locked, so a concurrent resolve or notice waits) with this provider's presence
 * row for its recipient at the location, then the insert at the next number of the goal's
 * inbox stream (moving its head and ringing its doorbell on commit). A refusal writes nothing.
 */
export async function recordDeliveryNotice(
  db: Db,
  caller: ProviderCaller,
  input: NoticeInput,
): Promise<RecordNoticeResult> {
  const v = validate(input);
  const gap = await checkGoalScope(db, caller, v.goalId);
  if (gap) return gap;
  return transactOrRefuse(db, async (tx) => {
    const d = deliveriesTable;
    const p = presenceTable;
    const [found] = await tx
      .select({
        toAgentId: d.toAgentId,
        processedAt: d.processedAt,
        occupantRef: p.occupantRef,
        liveness: p.liveness,
        endedAt: p.endedAt,
        current: sql<boolean>`${p.instanceId} = ${providersTable.instanceId}`,
        notified: sql<boolean>`exists (select 1 from ${deliveryNoticesTable}
          where ${deliveryNoticesTable.deliveryId} = ${d.id}
            and ${deliveryNoticesTable.via} = ${v.via})`,
      })
      .from(d)
      .leftJoin(
        p,
        and(
          eq(p.goalId, d.goalId),
          eq(p.agentId, d.toAgentId),
          eq(p.providerId, caller.providerId),
          eq(p.providerSessionRef, v.providerSessionRef),
        ),
      )
      .leftJoin(providersTable, eq(providersTable.providerId, p.providerId))
      .where(and(eq(d.id, v.deliveryId), eq(d.goalId, v.goalId)))
      .for('update', { of: d });
    const refused = (reason: NoticeRefusalReason): DeliveryNoticeRefused => ({
      type: 'DeliveryNoticeRefused',
      reason,
      goalId: v.goalId,
      deliveryId: v.deliveryId,
      liveness: found?.liveness ?? null,
    });
    if (!found) refuse(refused('UNKNOWN_DELIVERY'));
    const seen = found.occupantRef !== null && found.endedAt === null && found.current;
    if (!seen) refuse(refused('NOT_PROVIDERS_AGENT'));
    if (found.liveness === 'BLOCKED') refuse(refused('AGENT_BLOCKED'));
    if (found.processedAt !== null) refuse(refused('ALREADY_PROCESSED'));
    if (v.via !== 'LIFECYCLE_HOOK' && found.notified) refuse(refused('ALREADY_NOTIFIED'));
    const n = deliveryNoticesTable;
    const observed = v.observedAt ? sql`${v.observedAt.toISOString()}::timestamptz` : sql`now()`;
    const row = await appendAtNextSeq<{
      seq: string;
      observed_ms: number;
      recorded_ms: number;
    }>(
      tx,
      v.goalId,
      'inbox',
      (seq) => sql`insert into ${n} (${bare(n.goalId)}, ${bare(n.seq)}, ${bare(n.deliveryId)},
          ${bare(n.via)}, ${bare(n.providerId)}, ${bare(n.providerSessionRef)}, ${bare(n.occupantRef)},
          ${bare(n.text)}, ${bare(n.observedAt)})
        values (${v.goalId}, ${seq}, ${v.deliveryId}, ${v.via}, ${caller.providerId},
          ${v.providerSessionRef}, ${found.occupantRef}, ${v.text}, ${observed})
        returning ${bare(n.seq)}::text as seq,
          floor(extract(epoch from ${bare(n.observedAt)}) * 1000)::float8 as observed_ms,
          floor(extract(epoch from ${bare(n.recordedAt)}) * 1000)::float8 as recorded_ms`,
    );
    return {
      type: 'DeliveryNotice' as const,
      goalId: v.goalId,
      seq: BigInt(row.seq),
      deliveryId: v.deliveryId,
      via: v.via,
      providerId: caller.providerId,
      providerSessionRef: v.providerSessionRef,
      occupantRef: found.occupantRef as string,
      text: v.text,
      observedAt: new Date(Number(row.observed_ms)),
      recordedAt: new Date(Number(row.recorded_ms)),
    };
  });
}

/** The notices of one delivery, in the order they were recorded. */
export function noticesOf(db: Queryable, deliveryId: string): Promise<DeliveryNoticeRow[]> {
  return db
    .select()
    .from(deliveryNoticesTable)
    .where(eq(deliveryNoticesTable.deliveryId, deliveryId))
    .orderBy(asc(deliveryNoticesTable.seq));
}

/** The notices of several deliveries in one statement, in the order they were recorded. */
export function noticesOfAll(db: Queryable, deliveryIds: string[]): Promise<DeliveryNoticeRow[]> {
  if (deliveryIds.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(deliveryNoticesTable)
    .where(inArray(deliveryNoticesTable.deliveryId, deliveryIds))
    .orderBy(asc(deliveryNoticesTable.seq));
}

export const MAX_PENDING_NOTICES = 200;

/** A delivery a provider may notify its recipient of. Names no subject, body or sender. */
export interface PendingNotice {
  readonly deliveryId: string;
  readonly agentId: string;
  readonly providerSessionRef: string;
  readonly occupantRef: string;
  readonly submittedAt: Date;
}

export interface PendingNotices {
  readonly type: 'PendingNotices';
  readonly goalId: string;
  /** Oldest first, at most MAX_PENDING_NOTICES. */
  readonly notices: readonly PendingNotice[];
}

/**
 * For a terminal provider: the goal's deliveries whose recipient it sees now (a presence row
 * of its current instance, not ended) that are unread, unprocessed and not yet the subject of
 * a TERMINAL_NOTICE — what it may type a notice about at the next safe point. One statement.
 */
export async function pendingNotices(
  db: Db,
  caller: ProviderCaller,
  goalId: string,
): Promise<PendingNotices | ScopeGap> {
  validateId('goalId', goalId);
  const gap = await checkGoalScope(db, caller, goalId);
  if (gap) return gap;
  const d = deliveriesTable;
  const p = presenceTable;
  const rows = await db
    .select({
      deliveryId: d.id,
      agentId: d.toAgentId,
      providerSessionRef: p.providerSessionRef,
      occupantRef: p.occupantRef,
      submittedAt: d.submittedAt,
    })
    .from(d)
    .innerJoin(
      p,
      and(
        eq(p.goalId, d.goalId),
        eq(p.agentId, d.toAgentId),
        eq(p.providerId, caller.providerId),
        isNull(p.endedAt),
      ),
    )
    .innerJoin(
      providersTable,
      and(eq(providersTable.providerId, p.providerId), eq(providersTable.instanceId, p.instanceId)),
    )
    .where(
      and(
        eq(d.goalId, goalId),
        isNull(d.readAt),
        isNull(d.processedAt),
        sql`not exists (select 1 from ${deliveryNoticesTable}
          where ${deliveryNoticesTable.deliveryId} = ${d.id}
            and ${deliveryNoticesTable.via} = 'TERMINAL_NOTICE')`,
      ),
    )
    .orderBy(asc(d.seq))
    .limit(MAX_PENDING_NOTICES);
  return { type: 'PendingNotices', goalId, notices: rows };
}
