import { and, asc, desc, eq, inArray, lt, or, type SQL } from 'drizzle-orm';
import type { Caller } from '../core/caller.ts';
import { InputError } from '../core/errors.ts';
import type { Listing } from '../core/results.ts';
import { oneOf, validateId } from '../core/validate.ts';
import type { Db } from '../db/database.ts';
import { findAgent } from '../registry/registry.ts';
import { checkGoalScope } from '../registry/scope.ts';
import { noticesOfAll } from './notices.ts';
import { settle, Tracker } from './outcomes.ts';
import type { Delivery } from './read.ts';
import { agentKey, recipientIn, senderOf } from './sender.ts';
import { deliveriesTable, deliveryOutcomesTable } from './tables.ts';

/** Which deliveries of an agent: addressed to it, sent by it, or both. */
export const deliveryDirections = ['TO', 'FROM', 'BOTH'] as const;
export type DeliveryDirection = (typeof deliveryDirections)[number];

export const deliveryListingLimitations = ['ONLY_CALLERS_OWN_DELIVERIES'] as const;
export type DeliveryListingLimitation = (typeof deliveryListingLimitations)[number];

export const DEFAULT_DELIVERIES_LIMIT = 20;
export const MAX_DELIVERIES_LIMIT = 100;

export type DeliveryListing = Listing<Delivery> & {
  readonly agentId: string;
  readonly direction: DeliveryDirection;
  /** Older rows pass the same filters: this page is not the whole history. */
  readonly hasOlder: boolean;
  /** Pass as `before` for the next older page; null when there is none. */
  readonly olderCursor: bigint | null;
  readonly limitations: readonly DeliveryListingLimitation[];
};

export interface DeliveriesQuery {
  goalId: string;
  agentId: string;
  direction?: DeliveryDirection | null;
  limit?: number | null;
  before?: string | null;
}

/**
 * One agent's deliveries, newest first (by inbox-stream seq), one keyset page at a time, each
 * with its outcome settled and its history — the same as `delivery(id)` answers, in a
 * constant number of statements however many rows the page has. Scoped like `delivery(id)`:
 * an ADMIN or STEWARD of the goal sees all of them; a PEER only those it sent or received
 * (limitation ONLY_CALLERS_OWN_DELIVERIES when it asks about another agent, so a short list is
 * never read as the agent's whole traffic). The agent must be registered to the goal (retired
 * included): anything else is BAD_USER_INPUT, checked after scope so it tells an outsider nothing.
 */
export async function listDeliveries(
  db: Db,
  caller: Caller,
  query: DeliveriesQuery,
): Promise<DeliveryListing> {
  const goalId = validateId('goalId', query.goalId);
  const agentId = validateId('agentId', query.agentId);
  const direction = oneOf('direction', query.direction ?? 'BOTH', deliveryDirections);
  const limit = query.limit ?? DEFAULT_DELIVERIES_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_DELIVERIES_LIMIT) {
    throw new InputError(`limit must be an integer from 1 to ${MAX_DELIVERIES_LIMIT}`, 'limit');
  }
  const empty = { agentId, direction, hasOlder: false, olderCursor: null, limitations: [] };
  const gap = await checkGoalScope(db, caller, goalId);
  if (gap) return { goalId, rows: [], scopeGap: gap, ...empty };
  if (!(await findAgent(db, goalId, agentId))) {
    throw new InputError(`agentId: no agent ${agentId} is registered to goal ${goalId}`, 'agentId');
  }

  const d = deliveriesTable;
  const to = eq(d.toAgentId, agentId);
  const from = eq(d.senderKey, agentKey(goalId, agentId));
  const filters: (SQL | undefined)[] = [
    eq(d.goalId, goalId),
    direction === 'TO' ? to : direction === 'FROM' ? from : or(to, from),
  ];
  const limitations: DeliveryListingLimitation[] = [];
  if (caller.kind === 'PEER') {
    const own = recipientIn(caller, goalId);
    filters.push(
      own === null
        ? eq(d.senderKey, senderOf(caller).key)
        : or(eq(d.senderKey, senderOf(caller).key), eq(d.toAgentId, own)),
    );
    if (own !== agentId) limitations.push('ONLY_CALLERS_OWN_DELIVERIES');
  }
  if (query.before != null) filters.push(lt(d.seq, BigInt(query.before)));
  const found = await db
    .select()
    .from(d)
    .where(and(...filters))
    .orderBy(desc(d.seq))
    .limit(limit + 1);
  const page = found.slice(0, limit);
  const trackers = page.map((row) => new Tracker(row));
  const open = trackers.filter((tracker) => tracker.open);
  if (open.length > 0) await settle(db, goalId, open);
  const ids = trackers.map((tracker) => tracker.row.id);
  const history =
    ids.length === 0
      ? []
      : await db
          .select()
          .from(deliveryOutcomesTable)
          .where(inArray(deliveryOutcomesTable.deliveryId, ids))
          .orderBy(asc(deliveryOutcomesTable.deliveryId), asc(deliveryOutcomesTable.version));
  const notices = await noticesOfAll(db, ids);
  const hasOlder = found.length > limit;
  return {
    goalId,
    scopeGap: null,
    agentId,
    direction,
    hasOlder,
    olderCursor: hasOlder ? (page.at(-1)?.seq ?? null) : null,
    limitations,
    rows: trackers.map((tracker) => ({
      type: 'Delivery',
      row: tracker.row,
      history: history.filter((h) => h.deliveryId === tracker.row.id),
      notices: notices.filter((n) => n.deliveryId === tracker.row.id),
      replayed: false,
    })),
  };
}
