import { type SQL, sql } from 'drizzle-orm';
import type { Queryable, Tx } from '../db/database.ts';
import { rowsOf } from '../db/sql.ts';
import { DOORBELL_CHANNEL, type Ring } from './doorbell.ts';

/** The per-goal gap-free streams: presence changes, and inbox arrivals (deliveries). */
export type Stream = 'presence' | 'inbox';

const ringOf = (stream: Stream, goalId: string, seq: bigint): Ring => ({
  kind: stream,
  id: goalId,
  seq: seq.toString(),
});

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
  stream: Stream,
  seq: bigint,
): Promise<void> {
  await tx.execute(sql`
    with moved as (
      update stream_heads set seq = ${seq.toString()}::bigint
      where goal_id = ${goalId} and stream = ${stream} returning seq)
    select pg_notify(${DOORBELL_CHANNEL}, ${JSON.stringify(ringOf(stream, goalId, seq))})
    from moved`);
}

/**
 * Appends one item to a goal's stream in a single statement: takes the head's row lock and
 * the next number, runs `insert` (an INSERT … SELECT … FROM head … RETURNING …, where
 * `head.seq` is the new number), and rings the doorbell for it. The lock is held from this
 * statement to the end of its transaction — the statement's own when `db` is not a
 * transaction, so no client round trip happens under it. If `insert` fails (a unique
 * violation, say), the whole statement rolls back: no number is used, nothing rings.
 */
export async function appendToStream<T>(
  db: Queryable,
  goalId: string,
  stream: Stream,
  insert: SQL,
): Promise<T[]> {
  return rowsOf<T>(
    await db.execute(sql`
      with head as (
        insert into stream_heads (goal_id, stream, seq) values (${goalId}, ${stream}, 1)
        on conflict (goal_id, stream) do update set seq = stream_heads.seq + 1
        returning seq
      ), appended as (${insert})
      select appended.*, pg_notify(${DOORBELL_CHANNEL}, json_build_object(
        'kind', ${stream}::text, 'id', ${goalId}::text, 'seq', head.seq::text)::text)
      from appended, head`),
  );
}

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
