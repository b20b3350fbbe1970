import type { Db, Tx } from '../db/database.ts';

/** Thrown by `refuse` inside a transaction: rolls it back and carries the answer out. */
class Refusal {
  constructor(readonly result: unknown) {}
}

/**
 * Ends the transaction `transactOrRefuse` runs: everything it wrote rolls back and the call
 * answers with `result`, a typed refusal. Callable from any depth of the transaction's body.
 */
export function refuse(result: unknown): never {
  throw new Refusal(result);
}

/**
 * Runs `body` in one transaction. An expected refusal found inside it (`refuse(result)`) rolls
 * the whole transaction back, so it writes nothing, and is returned as the answer; any other
 * error propagates. `T` names every answer, refusals included.
 */
export async function transactOrRefuse<T>(db: Db, body: (tx: Tx) => Promise<T>): Promise<T> {
  try {
    return await db.transaction(body);
  } catch (error) {
    if (error instanceof Refusal) return error.result as T;
    throw error;
  }
}
