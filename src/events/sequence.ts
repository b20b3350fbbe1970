import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { Queryable, Tx } from '../db/database.ts';
import { rowsOf } from '../db/sql.ts';
import { ringSql } from './doorbell.ts';
import { streamHeadsTable } from './tables.ts';

/**
 * The per-goal streams with a gap-free sequence. Each but `work` is also the ring kind of its
 * doorbell; the work sequence only orders and versions the work graph's writes.
 */
export type Stream = 'presence' | 'inbox' | 'ledger' | 'work';
/** The streams whose heads ring the doorbell when they move. */
export type RingedStream = Exclude<Stream, 'work'>;

/**
 * Locks the goal's head of `stream` until the transaction ends and returns its current value.
 * Writers that lock first are serialized per goal, so what they number commits in order.
 */
export async function lockHead(tx: Tx, goalId: string, stream: Stream): Promise<bigint> {
  const [row] = rowsOf<{ seq: string }>(
    await tx.execute(sql`
      insert into stream_heads (goal_id, stream) values (${goalId}, ${stream})
      on conflict (goal_id, stream) do update set seq = stream_heads.seq
      returning seq::text`),
  );
  return BigInt(row?.seq ?? 0);
}

/**
 * Moves a head locked by lockHead to `seq` and rings the doorbell, both in one statement;
 * the ring is delivered when the transaction commits.
 */
export async function advanceHead(
  tx: Tx,
  goalId: string,
  stream: RingedStream,
  seq: bigint,
): Promise<void> {
  await tx.execute(sql`
    with moved as (
      update stream_heads set seq = ${seq.toString()}::bigint
      where goal_id = ${goalId} and stream = ${stream} returning seq)
    select ${ringSql(stream, goalId, seq.toString())} from moved`);
}

/**
 * Appends one item at the next number of a goal's stream in a single statement: moves the
 * head (taking its row lock, held to commit), runs `insert` with that number, and rings the
 * doorbell for when the transaction commits. The same guarantee as lockHead + advanceHead
 * in one round trip, for the writers whose lock hold time bounds a goal's write rate.
 * `insert` receives the new number as an SQL expression and must return what it wrote.
 */
export async function appendAtNextSeq<R>(
  tx: Queryable,
  goalId: string,
  stream: RingedStream,
  insert: (seq: SQL) => SQL,
): Promise<R> {
  const [row] = rowsOf<R>(await tx.execute(appendAtNextSeqSql(goalId, stream, insert)));
  if (!row) throw new Error(`${stream} item was written but cannot be read`);
  return row;
}

/** appendAtNextSeq's statement, for a caller that prepares it (db/sql.ts, preparedSql). */
export function appendAtNextSeqSql(
  goalId: string | SQL,
  stream: RingedStream,
  insert: (seq: SQL) => SQL,
): SQL {
  return sql`
    with head as (
      insert into stream_heads (goal_id, stream, seq) values (${goalId}, ${stream}, 1)
      on conflict (goal_id, stream) do update set seq = stream_heads.seq + 1
      returning seq),
    item as (${insert(sql`(select seq from head)`)})
    select item.*, ${ringSql(stream, goalId, sql`select seq from head`)}
    from item`;
}

/**
 * Moves the goal's head of `stream` one step and returns the new value, in one statement that
 * takes the head's row lock until the transaction ends: the writes it numbers are serialized
 * per goal and commit in order. Rings nothing; a rollback undoes the step.
 */
export async function nextSeq(tx: Tx, goalId: string, stream: Stream): Promise<bigint> {
  const [row] = await tx
    .insert(streamHeadsTable)
    .values({ goalId, stream, seq: 1n })
    .onConflictDoUpdate({
      target: [streamHeadsTable.goalId, streamHeadsTable.stream],
      set: { seq: sql`${streamHeadsTable.seq} + 1` },
    })
    .returning({ seq: streamHeadsTable.seq });
  if (!row) throw new Error(`the ${stream} sequence did not move`);
  return row.seq;
}

/** The head of a goal's stream as an SQL expression (null when nothing was written yet). */
export const headSql = (goalId: string | SQLWrapper, stream: Stream) =>
  sql<string | null>`(select ${streamHeadsTable.seq} from ${streamHeadsTable}
    where ${streamHeadsTable.goalId} = ${goalId} and ${streamHeadsTable.stream} = ${stream})`;

/** The last committed sequence of a goal's stream (0 when nothing was written yet). */
export async function readHead(db: Queryable, goalId: string, stream: Stream): Promise<bigint> {
  const [row] = rowsOf<{ seq: string }>(
    await db.execute(
      sql`select seq::text from stream_heads where goal_id = ${goalId} and stream = ${stream}`,
    ),
  );
  return BigInt(row?.seq ?? 0);
}

/** The smallest of some sequence numbers (bigint has no Math.min); `fallback` when there are none. */
export function minSeq(values: readonly bigint[], fallback: bigint): bigint {
  let min = values[0] ?? fallback;
  for (const value of values) if (value < min) min = value;
  return min;
}

/**
 * A stream resumed from before what retention kept: `after` is the cursor given, and
 * `resumeAfter` the oldest one a reader can resume from without missing an item (after
 * re-reading the current state, which retention never removes).
 */
export interface RetentionGap {
  readonly type: 'RetentionGap';
  readonly goalId: string;
  readonly after: bigint;
  readonly resumeAfter: bigint;
}

/**
 * Where a reader of `stream` starts: after `after`, or from the head when it gives none (one
 * read either way). A cursor older than what retention kept is a RetentionGap instead.
 */
export async function resumeFrom(
  db: Queryable,
  goalId: string,
  stream: Stream,
  after: string | null,
): Promise<bigint | RetentionGap> {
  if (after === null) return readHead(db, goalId, stream);
  const [row] = rowsOf<{ pruned: string }>(
    await db.execute(
      sql`select pruned_through::text as pruned from stream_heads
        where goal_id = ${goalId} and stream = ${stream}`,
    ),
  );
  const cursor = BigInt(after);
  const resumeAfter = BigInt(row?.pruned ?? 0);
  return cursor < resumeAfter
    ? { type: 'RetentionGap', goalId, after: cursor, resumeAfter }
    : cursor;
}
