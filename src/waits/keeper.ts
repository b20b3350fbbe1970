import { DONE } from '../core/stream.ts';
import type { Db } from '../db/database.ts';
import type { Doorbell } from '../events/doorbell.ts';
import { GoalWatchers } from '../presence/watchers.ts';
import { decideOutcomes, type Outcome, recordOutcomes, Settler, type Wait } from './waits.ts';

interface Watcher {
  readonly settler: Settler;
  /** Delivers the recorded terminal state. */
  finish(wait: Wait): void;
}

/**
 * Watches the waits that clients on this instance subscribe to. Watchers are grouped by goal
 * (GoalWatchers): one presence ring costs one read of the goal's new changes, applied to every
 * watcher in memory, and one statement records all the outcomes it decides. Deadlines are
 * timers; a reconnect of the listening connection makes every goal catch up.
 */
export class WaitKeeper {
  private readonly watchers: GoalWatchers<Watcher>;

  constructor(
    private readonly db: Db,
    doorbell: Doorbell,
  ) {
    this.watchers = new GoalWatchers(doorbell, (goalId, watchers) =>
      this.settleGoal(goalId, watchers),
    );
  }

  /**
   * The wait as it is now, then (if it was pending) exactly one terminal state, then the end.
   * A wait `started` by this subscription always shows itself PENDING first, with what could
   * and could not be pinned, also when it ended at once.
   */
  watch(wait: Wait, started = false): AsyncIterableIterator<Wait> {
    const endedAtOnce = wait.row.status !== 'PENDING';
    const first = started && endedAtOnce ? [asPending(wait), wait] : [wait];
    return new WaitStream(this.watchers, first, new Settler(wait), !endedAtOnce);
  }

  close(): void {
    this.watchers.close();
  }

  private async settleGoal(goalId: string, watchers: ReadonlySet<Watcher>): Promise<void> {
    const bySettler = new Map([...watchers].map((w) => [w.settler, w]));
    const outcomes = await decideOutcomes(this.db, goalId, [...bySettler.keys()]);
    const decided = new Map(
      [...outcomes].map(([settler, outcome]) => [bySettler.get(settler) as Watcher, outcome]),
    );
    if (decided.size === 0) return;
    const settled = [...decided.keys()];
    const rows = await recordOutcomes(
      this.db,
      settled.map((w) => ({ waitId: w.settler.wait.row.id, outcome: decided.get(w) as Outcome })),
    );
    const recorded = new Map(rows.map((row) => [row.id, row]));
    for (const watcher of settled) {
      const row = recorded.get(watcher.settler.wait.row.id);
      if (row && row.status !== 'PENDING') {
        this.watchers.leave(goalId, watcher);
        watcher.finish({ ...watcher.settler.wait, row });
      }
    }
  }
}

/**
 * One subscription's wait as a plain iterator that is also its goal's watcher: a pending wait
 * costs this object and its settler, not a Repeater with its executor, promises and closures
 * (thousands of waits may be pending on one instance). It joins its goal on the first `next`
 * that has nothing queued, so a stream never read holds nothing.
 */
class WaitStream implements AsyncIterableIterator<Wait>, Watcher {
  /** The next `next` call's resolver while the consumer waits for the terminal state. */
  private waiting: ((result: IteratorResult<Wait>) => void) | null = null;
  private joined = false;

  constructor(
    private readonly watchers: GoalWatchers<Watcher>,
    private readonly queue: Wait[],
    readonly settler: Settler,
    /** Whether a terminal state is still to come (not ended at once, finished or returned). */
    private pending: boolean,
  ) {}

  next(): Promise<IteratorResult<Wait>> {
    const queued = this.queue.shift();
    if (queued) return Promise.resolve({ value: queued, done: false });
    if (!this.pending) return Promise.resolve(DONE);
    if (!this.joined) {
      this.joined = true;
      const { goalId, deadline } = this.settler.wait.row;
      this.watchers.join(goalId, this);
      this.watchers.wakeAt(goalId, this, deadline);
      void this.watchers.pump(goalId);
    }
    return new Promise((resolve) => {
      this.waiting = resolve;
    });
  }

  /** Called by the keeper once the outcome is recorded, after it left the goal. */
  finish(wait: Wait): void {
    // A settle that began before `return` may still finish this stream: nothing more is read.
    if (!this.pending) return;
    this.pending = false;
    this.joined = false;
    this.deliver({ value: wait, done: false });
  }

  return(): Promise<IteratorResult<Wait>> {
    if (this.joined) this.watchers.leave(this.settler.wait.row.goalId, this);
    this.pending = false;
    this.joined = false;
    this.queue.length = 0;
    this.deliver(DONE);
    return Promise.resolve(DONE);
  }

  [Symbol.asyncIterator](): AsyncIterableIterator<Wait> {
    return this;
  }

  private deliver(result: IteratorResult<Wait>): void {
    const waiting = this.waiting;
    this.waiting = null;
    if (waiting) waiting(result);
    else if (!result.done) this.queue.push(result.value);
  }
}

/** A settled wait as it stood when it started: pending, pins and limitations as recorded. */
function asPending(wait: Wait): Wait {
  return {
    ...wait,
    row: {
      ...wait.row,
      status: 'PENDING',
      reason: null,
      resolvedAgentId: null,
      resolvedSeq: null,
      resolvedLiveness: null,
      resolvedAt: null,
    },
  };
}
