import { Repeater } from '@repeaterjs/repeater';
import type { Doorbell, RingKind } from './doorbell.ts';
import { RingGroups } from './groups.ts';
import { minSeq } from './sequence.ts';

/** One read of a stream: items after a cursor, in sequence order, and the new cursor. */
export interface Page<T> {
  readonly items: readonly T[];
  readonly cursor: bigint;
  /** The read stopped at a page size: there may be more right away. */
  readonly more: boolean;
}

/**
 * Most items a subscriber may have queued before it is cut off (it can resume from its
 * cursor). Items wait in the member's own queue and are handed to the consumer one at a
 * time, so a burst never meets the Repeater's limit of 1,024 pending pushes.
 */
export const MAX_PENDING_PER_SUBSCRIBER = 10_000;

export class SubscriberTooSlow extends Error {
  override name = 'SubscriberTooSlow';
}

/**
 * Narrows a batch a member accepted, asynchronously (a scoped stream that must read the
 * subscriber's current scope first). It may return new objects for the items it keeps.
 */
export type Select<T> = (items: readonly T[]) => Promise<readonly T[]>;

interface Member<T> {
  cursor: bigint;
  readonly accept: (item: T) => boolean;
  readonly select: Select<T> | null;
  /** Items delivered and not yet taken by the consumer, oldest first. */
  readonly queue: T[];
  readonly wake: () => void;
  readonly fail: (error: Error) => void;
}

/**
 * Live streams of one kind (presence changes of a goal, say), shared by every subscriber on
 * this instance: a ring costs one read from the lowest cursor among the stream's subscribers,
 * and each subscriber gets the items above its own cursor that it accepts, in order. The
 * tables are the truth and the ring only a doorbell, so a lost ring delays items until the
 * next ring or reconnect and never drops one; a subscriber that joins behind the others
 * makes the next read start from its cursor.
 */
export class StreamHub<T> {
  private readonly groups: RingGroups<Member<T>>;

  constructor(
    doorbell: Doorbell,
    kind: RingKind,
    private readonly read: (id: string, after: bigint) => Promise<Page<T>>,
    private readonly seqOf: (item: T) => bigint,
  ) {
    this.groups = new RingGroups<Member<T>>(
      doorbell,
      kind,
      (id, members) => this.readOnce(id, [...members]),
      // The read failed (the database is briefly unreachable, say): tell the subscribers, who
      // can resume from their last seq, rather than stall them silently.
      (members, error) => {
        for (const member of members) member.fail(error);
      },
    );
  }

  /**
   * Items of stream `id` after `after` that `accept` lets through (and then `select`, when
   * given, keeps), live, until the consumer returns.
   */
  subscribe(
    id: string,
    after: bigint,
    accept: (item: T) => boolean = () => true,
    select: Select<T> | null = null,
  ): AsyncIterableIterator<T> {
    return new Repeater<T>(async (push, stop) => {
      let waiting: (() => void) | null = null;
      let stopped = false;
      const member: Member<T> = {
        cursor: after,
        accept,
        select,
        queue: [],
        wake: () => waiting?.(),
        fail: (error) => stop(error),
      };
      void stop.then(() => {
        stopped = true;
        member.wake();
      });
      this.groups.join(id, member);
      void this.groups.run(id);
      try {
        while (!stopped) {
          const item = member.queue.shift();
          if (item === undefined) {
            await new Promise<void>((resolve) => {
              waiting = resolve;
            });
            waiting = null;
          } else {
            await push(item);
          }
        }
      } finally {
        this.groups.leave(id, member);
      }
    });
  }

  close(): void {
    this.groups.close();
  }

  /** One read for every member, from the lowest cursor; true when the page was cut short. */
  private async readOnce(id: string, members: Member<T>[]): Promise<boolean> {
    const page = await this.read(
      id,
      minSeq(
        members.map((m) => m.cursor),
        0n,
      ),
    );
    for (const member of members) await this.deliver(member, page);
    return page.more;
  }

  private async deliver(member: Member<T>, page: Page<T>): Promise<void> {
    let items: readonly T[] = page.items.filter(
      (item) => this.seqOf(item) > member.cursor && member.accept(item),
    );
    if (member.select && items.length > 0) {
      try {
        items = await member.select(items);
      } catch (error) {
        member.fail(error as Error);
        return;
      }
    }
    if (member.queue.length + items.length > MAX_PENDING_PER_SUBSCRIBER) {
      member.fail(
        new SubscriberTooSlow('subscriber fell too far behind; resubscribe from its last seq'),
      );
      return;
    }
    member.queue.push(...items);
    if (items.length > 0) member.wake();
    if (page.cursor > member.cursor) member.cursor = page.cursor;
  }
}
