import type { Doorbell } from '../events/doorbell.ts';
import { RingGroups } from '../events/groups.ts';

/**
 * In-process watchers of pinned targets, grouped by goal (RingGroups on the presence stream):
 * whenever a goal's presence rings, a watcher's timer fires, or the listening connection comes
 * back, `settle` runs once for all of that goal's watchers, so one read of the change log
 * serves them all. Waits and deliveries each bring their own `settle`.
 */
export class GoalWatchers<W extends object> {
  private readonly groups: RingGroups<W>;
  /** Per goal, one timer for the earliest wake-up: a timer per watcher costs ~250 bytes each. */
  private readonly wakes = new Map<string, Wakes<W>>();

  constructor(
    doorbell: Doorbell,
    settle: (goalId: string, watchers: ReadonlySet<W>) => Promise<void>,
  ) {
    this.groups = new RingGroups<W>(
      doorbell,
      'presence',
      async (goalId, watchers) => {
        await settle(goalId, watchers);
        return false;
      },
      // A failed settle is retried on the next ring, timer or reconnect.
      () => {},
    );
  }

  join(goalId: string, watcher: W): void {
    this.groups.join(goalId, watcher);
  }

  leave(goalId: string, watcher: W): void {
    const wakes = this.wakes.get(goalId);
    if (wakes?.times.delete(watcher) && wakes.times.size === 0) {
      clearTimeout(wakes.timer ?? undefined);
      this.wakes.delete(goalId);
    }
    this.groups.leave(goalId, watcher);
  }

  /**
   * Settles the goal again shortly after `at` (a deadline or window end), replacing the
   * watcher's previous wake-up. The margin lets the database clock pass the instant too.
   */
  wakeAt(goalId: string, watcher: W, at: Date): void {
    let wakes = this.wakes.get(goalId);
    if (!wakes) {
      wakes = { times: new Map(), due: Number.POSITIVE_INFINITY, timer: null };
      this.wakes.set(goalId, wakes);
    }
    wakes.times.set(watcher, at.getTime());
    if (at.getTime() < wakes.due) this.arm(goalId, wakes, at.getTime());
  }

  /** Settles the goal now; a settle already running is followed by one more. */
  pump(goalId: string): Promise<void> {
    return this.groups.run(goalId);
  }

  close(): void {
    for (const wakes of this.wakes.values()) clearTimeout(wakes.timer ?? undefined);
    this.wakes.clear();
    this.groups.close();
  }

  /**
   * The goal's timer, for `due`. When it fires the goal settles, and the timer moves on to the
   * earliest wake-up after `due`: one that has passed is not repeated (a failed settle is
   * retried on the next ring or reconnect, as each watcher's own timer was not).
   */
  private arm(goalId: string, wakes: Wakes<W>, due: number): void {
    clearTimeout(wakes.timer ?? undefined);
    wakes.due = due;
    wakes.timer = setTimeout(
      () => {
        void this.pump(goalId);
        let next = Number.POSITIVE_INFINITY;
        for (const at of wakes.times.values()) if (at > due && at < next) next = at;
        wakes.timer = null;
        wakes.due = Number.POSITIVE_INFINITY;
        if (next !== Number.POSITIVE_INFINITY) this.arm(goalId, wakes, next);
      },
      Math.max(0, due - Date.now()) + 5,
    );
  }
}

/** A goal's wake-ups: each watcher's time (ms since the epoch), and the timer for the earliest. */
interface Wakes<W> {
  readonly times: Map<W, number>;
  /** When the timer fires; infinity while there is none. */
  due: number;
  timer: NodeJS.Timeout | null;
}
