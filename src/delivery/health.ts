/**
 * Whether delivery in a goal is healthy, for an operator: the oldest unread message of each
 * agent, messages pushed to an agent's session and never taken, deliveries STALLED now or
 * EXPIRED in the last hour. Deliveries past their window or deadline that nobody followed are
 * settled first, so the answer does not depend on whether a client was watching.
 */

import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Caller } from '../core/caller.ts';
import { ForbiddenError } from '../core/errors.ts';
import type { ScopeGap } from '../core/scope.ts';
import { validateId } from '../core/validate.ts';
import type { Db } from '../db/database.ts';
import { checkGoalScope } from '../registry/scope.ts';
import { settle, Tracker } from './outcomes.ts';
import { type DeliveryRow, deliveriesTable, deliveryOutcomesTable } from './tables.ts';

/** The most rows each list of the answer holds (the oldest first). */
export const HEALTH_ROWS = 50;
/** How far back EXPIRED deliveries are listed. */
export const EXPIRED_WINDOW_MS = 60 * 60 * 1000;
/** The most overdue deliveries one read settles. */
const SETTLE_ROWS = 500;

/** One delivery named by the health read: who it is to, what it is, since when it is so. */
export interface DeliveryAlert {
  readonly deliveryId: string;
  readonly to: string;
  readonly from: string | null;
  readonly subject: string;
  readonly since: Date;
}

/** An agent's unread messages: how many, and the oldest of them. */
export interface UnreadBacklog {
  readonly agentId: string;
  readonly count: number;
  readonly oldest: DeliveryAlert;
}

export interface DeliveryHealth {
  readonly goalId: string;
  readonly checkedAt: Date;
  readonly scopeGap: ScopeGap | null;
  readonly unread: readonly UnreadBacklog[];
  readonly offeredNotTaken: readonly DeliveryAlert[];
  readonly stalled: readonly DeliveryAlert[];
  readonly expired: readonly DeliveryAlert[];
}

const alert = (row: DeliveryRow, since: Date): DeliveryAlert => ({
  deliveryId: row.id,
  to: row.toAgentId,
  from: row.senderAgentId,
  subject: row.subject,
  since,
});

/** The goal's delivery health. ADMIN, or a STEWARD of the goal; a PEER reads its own inbox. */
export async function deliveryHealth(
  db: Db,
  caller: Caller | null,
  goalIdArg: string,
): Promise<DeliveryHealth> {
  const goalId = validateId('goalId', goalIdArg);
  if (caller?.kind === 'PEER' || caller?.kind === 'PROVIDER')
    throw new ForbiddenError(
      'delivery health is an operator read (ADMIN or STEWARD): a PEER reads its own inbox',
    );
  const empty = { unread: [], offeredNotTaken: [], stalled: [], expired: [] };
  const gap = await checkGoalScope(db, caller, goalId);
  if (gap) return { goalId, checkedAt: new Date(), scopeGap: gap, ...empty };
  const d = deliveriesTable;

  // Open deliveries whose window end or deadline has passed: their outcome is decided now.
  const overdue = await db
    .select()
    .from(d)
    .where(
      and(
        eq(d.goalId, goalId),
        inArray(d.outcome, ['SUBMITTED', 'STALLED']),
        sql`(${d.pinState} = 'PINNED' and ${d.windowEndsAt} < now() or ${d.deadline} < now())`,
      ),
    )
    .orderBy(asc(d.submittedAt))
    .limit(SETTLE_ROWS);
  await settle(
    db,
    goalId,
    overdue.map((row) => new Tracker(row)),
  );

  const unreadCounts = db
    .select({
      agentId: d.toAgentId,
      count: sql<number>`count(*)::int`.as('count'),
      oldestSeq: sql<string>`min(${d.seq})`.as('oldest_seq'),
    })
    .from(d)
    .where(and(eq(d.goalId, goalId), isNull(d.readAt)))
    .groupBy(d.toAgentId)
    .as('unread');
  const [unread, offered, stalled, expired] = await Promise.all([
    db
      .select({ row: d, count: unreadCounts.count })
      .from(unreadCounts)
      .innerJoin(d, and(eq(d.goalId, goalId), eq(d.seq, sql`${unreadCounts.oldestSeq}`)))
      .orderBy(asc(d.submittedAt))
      .limit(HEALTH_ROWS),
    db
      .select()
      .from(d)
      .where(and(eq(d.goalId, goalId), isNotNull(d.pushedAt), isNull(d.takenAt), isNull(d.readAt)))
      .orderBy(asc(d.pushedAt))
      .limit(HEALTH_ROWS),
    db
      .select()
      .from(d)
      .where(and(eq(d.goalId, goalId), eq(d.outcome, 'STALLED')))
      .orderBy(asc(d.windowEndsAt))
      .limit(HEALTH_ROWS),
    db
      .select({ row: d, at: deliveryOutcomesTable.effectiveAt })
      .from(d)
      .innerJoin(
        deliveryOutcomesTable,
        and(
          eq(deliveryOutcomesTable.deliveryId, d.id),
          eq(deliveryOutcomesTable.outcome, 'EXPIRED'),
        ),
      )
      .where(
        and(
          eq(d.goalId, goalId),
          eq(d.outcome, 'EXPIRED'),
          gt(
            deliveryOutcomesTable.effectiveAt,
            sql`now() - make_interval(secs => ${EXPIRED_WINDOW_MS / 1000})`,
          ),
        ),
      )
      .orderBy(desc(deliveryOutcomesTable.effectiveAt))
      .limit(HEALTH_ROWS),
  ]);
  return {
    goalId,
    checkedAt: new Date(),
    scopeGap: null,
    unread: unread.map(({ row, count }) => ({
      agentId: row.toAgentId,
      count,
      oldest: alert(row, row.submittedAt),
    })),
    offeredNotTaken: offered.map((row) => alert(row, row.pushedAt ?? row.submittedAt)),
    stalled: stalled.map((row) => alert(row, row.windowEndsAt)),
    expired: expired.map(({ row, at }) => alert(row, at)),
  };
}
