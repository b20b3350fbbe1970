import { DONE } from '../core/stream.ts';
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

/**
 * Live streams of one kind (presence changes of a goal, say), shared by every subscriber on
 * this instance: a ring costs one read from the lowest cursor among the stream's subscribers,
 * and each subscriber gets the items above its own cursor that it accepts, in order. The
 * tables are the truth and the ring only a doorbell, so a lost ring delays items until the
 * next ring or reconnect and never drops one; a subscriber that joins behind the others
 * makes the next read start from its cursor.
 */
export class StreamHub<T> {
  private readonly groups: RingGroups<Subscriber<T>>;

  constructor(
    doorbell: Doorbell,
    kind: RingKind,
    private readonly read: (id: string, after: bigint) => Promise<Page<T>>,
    private readonly seqOf: (item: T) => bigint,
  ) {
    this.groups = new RingGroups<Subscriber<T>>(
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
    return new Subscriber(this.groups, id, after, accept, select);
  }

  close(): void {
    this.groups.close();
  }

  /** One read for every member, from the lowest cursor; true when the page was cut short. */
  private async readOnce(id: string, members: Subscriber<T>[]): Promise<boolean> {
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

  private async deliver(member: Subscriber<T>, page: Page<T>): Promise<void> {
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
    member.take(items);
    if (page.cursor > member.cursor) member.cursor = page.cursor;
  }
}

/**
 * One subscriber of a hub, as the iterator its consumer reads: it joins its group on the
 * first `next` and leaves when the consumer returns or it fails. Its fields are all the state
 * it has (no per-subscriber closures or generator frames: a gateway holds thousands of them).
 * One `next` at a time, as `for await` and graphql-ws call it.
 */
class Subscriber<T> implements AsyncIterableIterator<T> {
  /** Items delivered and not yet taken by the consumer, oldest first. */
  readonly queue: T[] = [];
  private joined = false;
  private ended = false;
  /** A failure the consumer has not yet been told of (it had no `next` pending). */
  private error: Error | null = null;
  private resolve: ((result: IteratorResult<T>) => void) | null = null;
  private reject: ((error: Error) => void) | null = null;

  constructor(
    private readonly groups: RingGroups<Subscriber<T>>,
    private readonly id: string,
    public cursor: bigint,
    readonly accept: (item: T) => boolean,
    readonly select: Select<T> | null,
  ) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  next(): Promise<IteratorResult<T>> {
    if (this.error) {
      const error = this.error;
      this.error = null;
      return Promise.reject(error);
    }
    if (this.ended) return Promise.resolve(DONE);
    if (!this.joined) {
      this.joined = true;
      this.groups.join(this.id, this);
      void this.groups.run(this.id);
    }
    if (this.queue.length > 0) return Promise.resolve({ done: false, value: this.shift() });
    return new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  async return(): Promise<IteratorResult<T>> {
    this.end();
    this.resolve?.(DONE);
    this.settled();
    return DONE;
  }

  async throw(error: unknown): Promise<IteratorResult<T>> {
    await this.return();
    throw error;
  }

  /** Items the hub delivered; a pending `next` gets the first at once. */
  take(items: readonly T[]): void {
    if (this.ended || items.length === 0) return;
    // A pending `next` means an empty queue: it takes the first item without queueing it, so
    // an idle subscriber's usual single item allocates no backing store.
    const resolve = this.resolve;
    for (let i = resolve ? 1 : 0; i < items.length; i++) this.queue.push(items[i] as T);
    if (resolve) {
      this.settled();
      resolve({ done: false, value: items[0] as T });
    }
  }

  /** Ends the stream with `error`: the consumer's pending or next `next` rejects with it. */
  fail(error: Error): void {
    if (this.ended) return;
    this.end();
    if (this.reject) {
      this.reject(error);
      this.settled();
    } else {
      this.error = error;
    }
  }

  /**
   * The oldest queued item. An emptied queue lets go of its backing store: shifting keeps it
   * (~150 B), and each of thousands of idle subscribers would hold one after its first event.
   */
  private shift(): T {
    const item = this.queue.shift() as T;
    if (this.queue.length === 0) this.queue.length = 0;
    return item;
  }

  private end(): void {
    this.ended = true;
    this.queue.length = 0;
    if (this.joined) this.groups.leave(this.id, this);
  }

  private settled(): void {
    this.resolve = null;
    this.reject = null;
  }
}
