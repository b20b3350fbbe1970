/**
 * Following one delivery's outcome (`deliveryOutcome`): each change as it is recorded, from a
 * version on, then the end once no further change can come. The history table is the truth;
 * an OutcomeDriver (the DeliveryKeeper) settles the delivery on this instance meanwhile.
 */

import { Repeater } from '@repeaterjs/repeater';
import type { Caller } from '../core/caller.ts';
import { InputError } from '../core/errors.ts';
import { single } from '../core/stream.ts';
import type { Db } from '../db/database.ts';
import type { Doorbell } from '../events/doorbell.ts';
import { type Batch, follow } from '../events/follow.ts';
import {
  historyOf,
  loadDelivery,
  type OutcomeChange,
  outcomeChanges,
  type UnknownDelivery,
  visible,
} from './read.ts';
import { type DeliveryRow, terminalOutcomes } from './tables.ts';

const isFinal = (row: Pick<DeliveryRow, 'outcome' | 'pinState'>) =>
  terminalOutcomes.includes(row.outcome) || row.pinState !== 'PINNED';

/** Keeps a followed delivery settled while a client follows it (see DeliveryKeeper). */
export interface OutcomeDriver {
  keep(row: DeliveryRow): () => void;
}

/**
 * Every change of a delivery's outcome after version `after` (all of them, from SUBMITTED,
 * when omitted), then the end once no further change can come. The history table is the
 * truth: this reads it from the cursor on each ring, whichever instance recorded the change;
 * `driver` makes this instance settle the delivery meanwhile (ring, timer, reconnect).
 */
export async function followOutcome(
  db: Db,
  doorbell: Doorbell,
  driver: OutcomeDriver,
  caller: Caller | null,
  id: string,
  after: number | null,
): Promise<AsyncIterable<OutcomeChange | UnknownDelivery>> {
  if (after !== null && (!Number.isInteger(after) || after < 0)) {
    throw new InputError('after must be a version (an integer, 0 or more)', 'after');
  }
  const row = await loadDelivery(db, id);
  if (!row || !(await visible(db, caller, row))) {
    return single({ type: 'UnknownDelivery' as const, deliveryId: id });
  }
  const read = async (cursor: number): Promise<Batch<OutcomeChange, number>> => {
    const current = (await loadDelivery(db, id)) as DeliveryRow;
    // Whole (at most STALLED and one terminal step), so each step knows its previous outcome.
    const history = await historyOf(db, id);
    const items = outcomeChanges(current, history).filter((c) => c.version > cursor);
    const last = items.at(-1)?.version ?? cursor;
    return { items, cursor: last, done: isFinal(current) && last >= current.outcomeVersion };
  };
  // A Repeater, not an async generator: a client that leaves mid-wait must stop both at once.
  return new Repeater<OutcomeChange>(async (push, stop) => {
    const release = isFinal(row) ? () => {} : driver.keep(row);
    const changes = follow(doorbell, 'delivery', id, after ?? -1, read);
    void stop.then(() => changes.return?.());
    try {
      for await (const change of changes) await push(change);
    } finally {
      release();
    }
    stop();
  });
}
