/**
 * Reading deliveries: one delivery as its sender, its recipient or a steward sees it (its
 * outcome settled first, then its history and notices), that history as a list of changes, and
 * the goal's STALLED deliveries for the attention rollup. Writing one is `deliver`; following
 * its outcome as it changes is `followOutcome`.
 */

import { and, asc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Caller } from '../core/caller.ts';
import type { Db, Queryable } from '../db/database.ts';
import type { Liveness } from '../presence/tables.ts';
import { checkGoalScope } from '../registry/scope.ts';
import { noticesOf } from './notices.ts';
import { settle, Tracker } from './outcomes.ts';
import { recipientIn, senderOf } from './sender.ts';
import {
  type DeliveryNoticeRow,
  type DeliveryOutcomeRow,
  type DeliveryRow,
  deliveriesTable,
  deliveryOutcomesTable,
  type Outcome,
  type OutcomeReason,
  terminalOutcomes,
} from './tables.ts';

/** A delivery as its sender (or recipient, or a steward) sees it, with its outcome history. */
export interface Delivery {
  readonly type: 'Delivery';
  readonly row: DeliveryRow;
  readonly history: readonly DeliveryOutcomeRow[];
  /** Its safe-point notices, in the order they were recorded. */
  readonly notices: readonly DeliveryNoticeRow[];
  /** This answer is the original, returned again for a retried idempotency key. */
  readonly replayed: boolean;
}

export interface UnknownDelivery {
  readonly type: 'UnknownDelivery';
  readonly deliveryId: string;
}

/**
 * Whether the caller may see a delivery: its sender, its recipient, and an ADMIN or STEWARD
 * whose scope covers the goal. Anyone else is told it does not exist, like a wait.
 */
export async function visible(
  db: Queryable,
  caller: Caller | null,
  row: DeliveryRow,
): Promise<boolean> {
  if (!caller || caller.kind === 'PROVIDER') return false;
  if (await checkGoalScope(db, caller, row.goalId)) return false;
  if (caller.kind !== 'PEER') return true;
  return (
    senderOf(caller).key === row.senderKey || recipientIn(caller, row.goalId) === row.toAgentId
  );
}

/** Settles one delivery from the log and the clock, then loads its history. */
export async function currentDelivery(db: Db, row: DeliveryRow): Promise<Delivery> {
  const tracker = new Tracker(row);
  if (tracker.open) await settle(db, row.goalId, [tracker]);
  return {
    type: 'Delivery',
    row: tracker.row,
    history: await historyOf(db, tracker.row.id),
    notices: await noticesOf(db, tracker.row.id),
    replayed: false,
  };
}

/** Every outcome change after SUBMITTED: at most two (STALLED, then a terminal one). */
export function historyOf(db: Queryable, deliveryId: string): Promise<DeliveryOutcomeRow[]> {
  return db
    .select()
    .from(deliveryOutcomesTable)
    .where(eq(deliveryOutcomesTable.deliveryId, deliveryId))
    .orderBy(asc(deliveryOutcomesTable.version));
}

export async function loadDelivery(db: Queryable, id: string): Promise<DeliveryRow | undefined> {
  const [row] = await db.select().from(deliveriesTable).where(eq(deliveriesTable.id, id));
  return row;
}

/** A delivery as it stands now: its outcome is settled first, so a decided one never reads pending. */
export async function readDelivery(
  db: Db,
  caller: Caller | null,
  id: string,
): Promise<Delivery | UnknownDelivery> {
  const row = await loadDelivery(db, id);
  if (!row || !(await visible(db, caller, row))) return { type: 'UnknownDelivery', deliveryId: id };
  return currentDelivery(db, row);
}

/** One entry of a delivery's outcome history; version 0 is the submission itself. */
export interface OutcomeChange {
  readonly type: 'DeliveryOutcomeChange';
  readonly deliveryId: string;
  readonly version: number;
  readonly outcome: Outcome;
  readonly previousOutcome: Outcome | null;
  readonly reason: OutcomeReason | null;
  readonly seq: bigint | null;
  readonly liveness: Liveness | null;
  readonly effectiveAt: Date;
  readonly recordedAt: Date;
  /** No further change can come: a terminal outcome, or SUBMITTED when activity is not observable. */
  readonly final: boolean;
}

export function outcomeChanges(
  row: DeliveryRow,
  history: readonly DeliveryOutcomeRow[],
): OutcomeChange[] {
  const submitted: OutcomeChange = {
    type: 'DeliveryOutcomeChange',
    deliveryId: row.id,
    version: 0,
    outcome: 'SUBMITTED',
    previousOutcome: null,
    reason: null,
    seq: null,
    liveness: null,
    effectiveAt: row.submittedAt,
    recordedAt: row.submittedAt,
    final: row.pinState !== 'PINNED',
  };
  let previous: Outcome = 'SUBMITTED';
  return [
    submitted,
    ...history.map((h) => {
      const change: OutcomeChange = {
        type: 'DeliveryOutcomeChange',
        deliveryId: row.id,
        version: h.version,
        outcome: h.outcome,
        previousOutcome: previous,
        reason: h.reason,
        seq: h.seq,
        liveness: h.liveness,
        effectiveAt: h.effectiveAt,
        recordedAt: h.recordedAt,
        final: terminalOutcomes.includes(h.outcome),
      };
      previous = h.outcome;
      return change;
    }),
  ];
}

// ---- attention -----------------------------------------------------------------------

export interface StalledDelivery {
  readonly deliveryId: string;
  readonly goalId: string;
  readonly senderKind: DeliveryRow['senderKind'];
  /** The sending agent; null for a STEWARD or ADMIN sender. */
  readonly from: string | null;
  readonly to: string;
  readonly todoId: string | null;
  readonly subject: string;
  readonly submittedAt: Date;
  /** When the activity window ended with no activity observed. */
  readonly stalledSince: Date;
  readonly deadline: Date;
}

export const MAX_STALLED = 500;

/**
 * The goal's deliveries that are STALLED now, oldest first (at most MAX_STALLED), for the
 * attention rollup. Deliveries past their window that nobody followed are settled first, so
 * the answer does not depend on whether a client was watching. No scope check: the caller
 * (the rollup) has established scope for the goal.
 */
export async function stalledDeliveries(db: Db, goalId: string): Promise<StalledDelivery[]> {
  const rows = await db
    .select()
    .from(deliveriesTable)
    .where(
      and(
        eq(deliveriesTable.goalId, goalId),
        inArray(deliveriesTable.outcome, ['SUBMITTED', 'STALLED']),
        eq(deliveriesTable.pinState, 'PINNED'),
        lt(deliveriesTable.windowEndsAt, sql`now()`),
      ),
    )
    .orderBy(asc(deliveriesTable.submittedAt))
    .limit(MAX_STALLED);
  const trackers = rows.map((row) => new Tracker(row));
  await settle(db, goalId, trackers);
  return trackers
    .map((t) => t.row)
    .filter((row) => row.outcome === 'STALLED')
    .map((row) => ({
      deliveryId: row.id,
      goalId: row.goalId,
      senderKind: row.senderKind,
      from: row.senderAgentId,
      to: row.toAgentId,
      todoId: row.todoId,
      subject: row.subject,
      submittedAt: row.submittedAt,
      stalledSince: row.windowEndsAt,
      deadline: row.deadline,
    }));
}
