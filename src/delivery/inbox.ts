import { and, asc, desc, eq, gt, inArray, isNull, lte, type SQL, sql } from 'drizzle-orm';
import type { PeerCaller } from '../core/caller.ts';
import { InputError } from '../core/errors.ts';
import type { ScopeGap } from '../core/scope.ts';
import { single } from '../core/stream.ts';
import { validateId } from '../core/validate.ts';
import type { Db, Queryable, Tx } from '../db/database.ts';
import { prepared, rowsOf } from '../db/sql.ts';
import type { Doorbell } from '../events/doorbell.ts';
import { type Batch, follow } from '../events/follow.ts';
import { type RetentionGap, readHead, resumeFrom } from '../events/sequence.ts';
import { type UnknownAgent, unknownAgent } from '../registry/registry.ts';
import { checkGoalScope } from '../registry/scope.ts';
import { recipientIn } from './sender.ts';
import { type DeliveryRow, deliveriesTable } from './tables.ts';

/**
 * The recipient's side of deliveries (docs/api.md, "Delivery, inbox and roster"): a PEER reads the
 * messages addressed to its agent in its own goal. Receipts are separate times — submitted
 * (on the delivery), read, processed — and the sender sees each. `takeNextMessage` hands out
 * one message at a time per recipient, and the same one until it is resolved or released, so
 * an agent loop never injects a message twice or skips one.
 */
export interface InboxMessage {
  readonly type: 'InboxMessage';
  readonly row: DeliveryRow;
  /** It is the recipient's active message (taken, not yet resolved or released). */
  readonly active: boolean;
}

export interface Inbox {
  readonly type: 'Inbox';
  readonly goalId: string;
  readonly recipient: string;
  /** Newest first, at most `tail`. */
  readonly messages: readonly InboxMessage[];
  /** Pass as `after` next time to see only newer messages. */
  readonly cursor: bigint;
  /** Messages matching the filters after the cursor that `tail` left out (the older ones). */
  readonly omittedCount: number;
  readonly unreadCount: number;
  readonly unprocessedCount: number;
  readonly activeMessageId: string | null;
}

export const DEFAULT_TAIL = 20;
export const MAX_TAIL = 200;
export const MAX_MARK_IDS = 100;
const STREAM_PAGE = 200;

/** The recipient a PEER is in `goalId`, or the typed reason it has no inbox there. */
async function recipientOf(
  db: Queryable,
  caller: PeerCaller,
  goalId: string,
): Promise<string | ScopeGap | UnknownAgent> {
  validateId('goalId', goalId);
  const gap = await checkGoalScope(db, caller, goalId);
  if (gap) return gap;
  // A delegated goal is in scope, but the peer is not an agent there: it has no inbox in it.
  return recipientIn(caller, goalId) ?? unknownAgent(goalId, caller.agentId);
}

const addressedTo = (goalId: string, agentId: string) =>
  and(eq(deliveriesTable.goalId, goalId), eq(deliveriesTable.toAgentId, agentId));

async function activeIdOf(db: Queryable, goalId: string, agentId: string): Promise<string | null> {
  const [row] = rowsOf<{ active_id: string | null }>(
    await db.execute(
      sql`select active_id from inboxes where goal_id = ${goalId} and agent_id = ${agentId}`,
    ),
  );
  return row?.active_id ?? null;
}

export interface InboxQuery {
  goalId: string;
  unread?: boolean | null;
  unprocessed?: boolean | null;
  tail?: number | null;
  after?: string | null;
}

/**
 * The newest `tail` messages after the cursor (all when `after` is omitted), newest first,
 * with how many older matches were left out. The cursor is the goal's inbox head, read
 * first: every message at or below it is committed, so the next call with it misses none.
 */
export async function readInbox(
  db: Db,
  caller: PeerCaller,
  query: InboxQuery,
): Promise<Inbox | ScopeGap | UnknownAgent> {
  const tail = query.tail ?? DEFAULT_TAIL;
  if (!Number.isInteger(tail) || tail < 1 || tail > MAX_TAIL) {
    throw new InputError(`tail must be an integer from 1 to ${MAX_TAIL}`, 'tail');
  }
  const recipient = await recipientOf(db, caller, query.goalId);
  if (typeof recipient !== 'string') return recipient;
  const head = await readHead(db, query.goalId, 'inbox');
  const after = BigInt(query.after ?? '0');
  const filters: SQL[] = [gt(deliveriesTable.seq, after)];
  if (query.unread) filters.push(isNull(deliveriesTable.readAt));
  if (query.unprocessed) filters.push(isNull(deliveriesTable.processedAt));
  const mine = and(addressedTo(query.goalId, recipient), lte(deliveriesTable.seq, head));
  const matching = and(mine, ...filters);
  const rows = await db
    .select()
    .from(deliveriesTable)
    .where(matching)
    .orderBy(desc(deliveriesTable.seq))
    .limit(tail);
  const [counts] = await db
    .select({
      matching: sql<number>`count(*) filter (where ${and(...filters)})`.mapWith(Number),
      unread: sql<number>`count(*) filter (where ${isNull(deliveriesTable.readAt)})`.mapWith(
        Number,
      ),
      unprocessed:
        sql<number>`count(*) filter (where ${isNull(deliveriesTable.processedAt)})`.mapWith(Number),
    })
    .from(deliveriesTable)
    .where(mine);
  const activeId = await activeIdOf(db, query.goalId, recipient);
  return {
    type: 'Inbox',
    goalId: query.goalId,
    recipient,
    messages: rows.map((row) => ({ type: 'InboxMessage', row, active: row.id === activeId })),
    cursor: head > after ? head : after,
    omittedCount: (counts?.matching ?? 0) - rows.length,
    unreadCount: counts?.unread ?? 0,
    unprocessedCount: counts?.unprocessed ?? 0,
    activeMessageId: activeId,
  };
}

/** Locks the recipient's inbox row until the transaction ends, creating it if needed. */
async function lockInbox(tx: Tx, goalId: string, agentId: string): Promise<string | null> {
  const [row] = rowsOf<{ active_id: string | null }>(
    await tx.execute(sql`
      insert into inboxes (goal_id, agent_id) values (${goalId}, ${agentId})
      on conflict (goal_id, agent_id) do update set active_id = inboxes.active_id
      returning active_id`),
  );
  return row?.active_id ?? null;
}

/** The caller's own messages among `ids`; any other id is bad input (nothing is written). */
async function ownMessages(
  db: Queryable,
  caller: PeerCaller,
  ids: readonly string[],
): Promise<{ goalId: string; recipient: string; rows: DeliveryRow[] } | ScopeGap> {
  const goalId = caller.goalId;
  const gap = await checkGoalScope(db, caller, goalId);
  if (gap) return gap;
  const recipient = caller.agentId;
  const rows = await db
    .select()
    .from(deliveriesTable)
    .where(and(addressedTo(goalId, recipient), inArray(deliveriesTable.id, [...ids])));
  const missing = ids.filter((id) => !rows.some((row) => row.id === id));
  if (missing.length > 0) {
    throw new InputError(`not messages in your inbox: ${missing.join(', ')}`, 'ids');
  }
  return { goalId, recipient, rows };
}

function validateIds(ids: readonly string[]): string[] {
  const unique = [...new Set(ids.map((id) => validateId('ids', id)))];
  if (unique.length === 0 || unique.length > MAX_MARK_IDS) {
    throw new InputError(`name from 1 to ${MAX_MARK_IDS} messages`, 'ids');
  }
  return unique;
}

export interface MarkedRead {
  readonly type: 'MarkedRead';
  readonly messages: readonly InboxMessage[];
}

/** Records the read receipt of each message (once: a second mark keeps the first time). */
export async function markRead(
  db: Db,
  caller: PeerCaller,
  ids: readonly string[],
): Promise<MarkedRead | ScopeGap> {
  const own = await ownMessages(db, caller, validateIds(ids));
  if ('type' in own) return own;
  const rows = await db
    .update(deliveriesTable)
    .set({ readAt: sql`coalesce(${deliveriesTable.readAt}, now())` })
    .where(
      inArray(
        deliveriesTable.id,
        own.rows.map((r) => r.id),
      ),
    )
    .returning();
  const activeId = await activeIdOf(db, own.goalId, own.recipient);
  rows.sort((a, b) => (a.seq < b.seq ? 1 : -1));
  return {
    type: 'MarkedRead',
    messages: rows.map((row) => ({ type: 'InboxMessage', row, active: row.id === activeId })),
  };
}

/**
 * Records that the recipient processed a message (read too, if it was not): it is never
 * handed out by takeNextMessage again. If it was the active message, the slot is free.
 */
export async function resolveMessage(
  db: Db,
  caller: PeerCaller,
  id: string,
): Promise<InboxMessage | ScopeGap> {
  const own = await ownMessages(db, caller, validateIds([id]));
  if ('type' in own) return own;
  return db.transaction(async (tx) => {
    const active = await lockInbox(tx, own.goalId, own.recipient);
    const [row] = await tx
      .update(deliveriesTable)
      .set({
        processedAt: sql`coalesce(${deliveriesTable.processedAt}, now())`,
        readAt: sql`coalesce(${deliveriesTable.readAt}, now())`,
      })
      .where(eq(deliveriesTable.id, id))
      .returning();
    if (active === id) await setActive(tx, own.goalId, own.recipient, null);
    return { type: 'InboxMessage', row: row as DeliveryRow, active: false };
  });
}

/**
 * Puts the active message back, unprocessed: the next takeNextMessage hands out the oldest
 * unprocessed message again (which may be this one; its takeCount shows it was handed out
 * before). Releasing a message that is not active changes nothing.
 */
export async function releaseMessage(
  db: Db,
  caller: PeerCaller,
  id: string,
): Promise<InboxMessage | ScopeGap> {
  const own = await ownMessages(db, caller, validateIds([id]));
  if ('type' in own) return own;
  return db.transaction(async (tx) => {
    const active = await lockInbox(tx, own.goalId, own.recipient);
    if (active === id) await setActive(tx, own.goalId, own.recipient, null);
    return { type: 'InboxMessage', row: own.rows[0] as DeliveryRow, active: false };
  });
}

/**
 * Records that the recipient's MCP server pushed a message of its inbox into a live session
 * (a Claude Code channel event): the first time is kept, each push counted. A receipt of the
 * push, not of reading: it sets no read receipt and changes no outcome.
 */
export async function recordSessionPush(
  db: Db,
  caller: PeerCaller,
  id: string,
): Promise<InboxMessage | ScopeGap> {
  const own = await ownMessages(db, caller, validateIds([id]));
  if ('type' in own) return own;
  const [row] = await db
    .update(deliveriesTable)
    .set({
      pushedAt: sql`coalesce(${deliveriesTable.pushedAt}, now())`,
      pushCount: sql`${deliveriesTable.pushCount} + 1`,
    })
    .where(eq(deliveriesTable.id, id))
    .returning();
  const activeId = await activeIdOf(db, own.goalId, own.recipient);
  return { type: 'InboxMessage', row: row as DeliveryRow, active: id === activeId };
}

async function setActive(tx: Tx, goalId: string, agentId: string, id: string | null) {
  await tx.execute(
    sql`update inboxes set active_id = ${id} where goal_id = ${goalId} and agent_id = ${agentId}`,
  );
}

export interface TakenMessage {
  readonly type: 'TakenMessage';
  readonly message: InboxMessage;
  /** It was already the active message: handed out before, so do not inject it again. */
  readonly repeated: boolean;
}

export interface InboxEmpty {
  readonly type: 'InboxEmpty';
  readonly goalId: string;
  readonly recipient: string;
}

/**
 * One active message at a time: the active one while it is unresolved (repeated: true),
 * else the oldest unprocessed message, which becomes active (read receipt set, takeCount
 * up). Serialized per recipient by the inbox row lock, so two loops of one agent never get
 * two different messages.
 */
export async function takeNextMessage(
  db: Db,
  caller: PeerCaller,
  goalId: string,
): Promise<TakenMessage | InboxEmpty | ScopeGap | UnknownAgent> {
  const recipient = await recipientOf(db, caller, goalId);
  if (typeof recipient !== 'string') return recipient;
  return db.transaction(async (tx) => {
    const activeId = await lockInbox(tx, goalId, recipient);
    if (activeId !== null) {
      const [active] = await tx
        .select()
        .from(deliveriesTable)
        .where(and(eq(deliveriesTable.id, activeId), isNull(deliveriesTable.processedAt)));
      if (active) {
        return {
          type: 'TakenMessage' as const,
          message: { type: 'InboxMessage' as const, row: active, active: true },
          repeated: true,
        };
      }
    }
    const [next] = await tx
      .select({ id: deliveriesTable.id })
      .from(deliveriesTable)
      .where(and(addressedTo(goalId, recipient), isNull(deliveriesTable.processedAt)))
      .orderBy(asc(deliveriesTable.seq))
      .limit(1);
    await setActive(tx, goalId, recipient, next?.id ?? null);
    if (!next) return { type: 'InboxEmpty' as const, goalId, recipient };
    const [taken] = await tx
      .update(deliveriesTable)
      .set({
        takenAt: sql`now()`,
        takeCount: sql`${deliveriesTable.takeCount} + 1`,
        readAt: sql`coalesce(${deliveriesTable.readAt}, now())`,
      })
      .where(eq(deliveriesTable.id, next.id))
      .returning();
    return {
      type: 'TakenMessage' as const,
      message: { type: 'InboxMessage' as const, row: taken as DeliveryRow, active: true },
      repeated: false,
    };
  });
}

/** One page of a followed inbox: run on every ring, so built once. */
const inboxPage = prepared('inbox_page', (db) =>
  db
    .select()
    .from(deliveriesTable)
    .where(
      and(
        eq(deliveriesTable.goalId, sql.placeholder('goalId')),
        eq(deliveriesTable.toAgentId, sql.placeholder('recipient')),
        gt(deliveriesTable.seq, sql.placeholder('cursor')),
      ),
    )
    .orderBy(asc(deliveriesTable.seq))
    .limit(STREAM_PAGE),
);

/**
 * Messages arriving in the caller's inbox after `after` (or from now), in sequence order,
 * each once, as a live stream. The sequence is the goal's inbox stream (gap-free under its
 * head lock), so a recipient's own messages skip the numbers of other recipients' messages;
 * resuming after N never misses or repeats one of its own. Resumed from before what retention
 * kept: one RetentionGap, then the end.
 */
export async function followInbox(
  db: Db,
  doorbell: Doorbell,
  caller: PeerCaller,
  goalId: string,
  after: string | null,
): Promise<AsyncIterable<InboxMessage | ScopeGap | UnknownAgent | RetentionGap>> {
  const recipient = await recipientOf(db, caller, goalId);
  if (typeof recipient !== 'string') {
    return single(recipient);
  }
  const start = await resumeFrom(db, goalId, 'inbox', after);
  if (typeof start !== 'bigint') return single(start);
  const read = async (cursor: bigint): Promise<Batch<InboxMessage, bigint>> => {
    const rows = await inboxPage(db).execute({ goalId, recipient, cursor: String(cursor) });
    return {
      items: rows.map((row) => ({ type: 'InboxMessage', row, active: false })),
      cursor: rows.at(-1)?.seq ?? cursor,
      more: rows.length === STREAM_PAGE,
    };
  };
  return follow(doorbell, 'inbox', goalId, start, read);
}
