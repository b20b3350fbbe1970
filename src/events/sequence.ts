import { sql } from 'drizzle-orm';
import type { Queryable, Tx } from '../db/database.ts';
import { rowsOf } from '../db/sql.ts';

export type Stream = 'presence';

/**
 * Locks the goal's head of `stream` until the transaction ends and returns its current value.
 * Writers that lock first are serialized per goal, so what they number commits in order.
 */
export async function lockHead(tx: Tx, goalId: string, stream: Stream): Promise<bigint> {
  await tx.execute(
    sql`insert into stream_heads (goal_id, stream) values (${goalId}, ${stream}) on conflict do nothing`,
  );
  const [row] = rowsOf<{ seq: string }>(
    await tx.execute(
      sql`select seq::text from stream_heads where goal_id = ${goalId} and stream = ${stream} for update`,
    ),
  );
  return BigInt(row?.seq ?? 0);
}

/** Moves a head locked by lockHead to `seq`. */
export async function advanceHead(
  tx: Tx,
  goalId: string,
  stream: Stream,
  seq: bigint,
): Promise<void> {
  await tx.execute(
    sql`update stream_heads set seq = ${seq.toString()}::bigint where goal_id = ${goalId} and stream = ${stream}`,
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
