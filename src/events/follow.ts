import { Repeater } from '@repeaterjs/repeater';
import type { Doorbell, RingKind } from './doorbell.ts';

/** One read from the tables: the items after the cursor, the new cursor, and whether to end. */
export interface Batch<T, C> {
  readonly items: readonly T[];
  readonly cursor: C;
  /** End the stream after these items (a terminal state was reached). */
  readonly done?: boolean;
  /** The read was cut at a page size: read again without waiting for a ring. */
  readonly more?: boolean;
}

/**
 * A live stream that never trusts the doorbell for content: it reads from `cursor` at once,
 * then again each time (kind, id) rings or the listening connection comes back. Rings that
 * arrive during a read collapse into one more read, so a burst costs one query, and a lost
 * ring only delays an item until the next ring or reconnect.
 *
 * For a stream only its own subscriber reads, which may end (a delivery's outcome history,
 * one recipient's inbox); streams that many subscribers share per goal go through StreamHub.
 */
export function follow<T, C>(
  doorbell: Doorbell,
  kind: RingKind,
  id: string,
  cursor: C,
  read: (after: C) => Promise<Batch<T, C>>,
): AsyncIterableIterator<T> {
  return new Repeater<T>(async (push, stop) => {
    let pending = true;
    let wake = () => {};
    const ring = () => {
      pending = true;
      wake();
    };
    const unsubscribe = [doorbell.on(kind, id, ring), doorbell.onReconnect(ring)];
    let stopped = false;
    void stop.then(() => {
      stopped = true;
      wake();
    });
    try {
      while (!stopped) {
        if (!pending) {
          await new Promise<void>((resolve) => {
            wake = resolve;
          });
          continue;
        }
        pending = false;
        const batch = await read(cursor);
        cursor = batch.cursor;
        for (const item of batch.items) await push(item);
        if (batch.done) break;
        if (batch.more) pending = true;
      }
      stop();
    } finally {
      for (const off of unsubscribe) off();
    }
  });
}
