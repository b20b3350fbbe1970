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
  private readonly timers = new Map<W, NodeJS.Timeout>();

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
    clearTimeout(this.timers.get(watcher));
    this.timers.delete(watcher);
    this.groups.leave(goalId, watcher);
  }

  /**
   * Settles the goal again shortly after `at` (a deadline or window end), replacing the
   * watcher's previous timer. The margin lets the database clock pass the instant too.
   */
  wakeAt(goalId: string, watcher: W, at: Date): void {
    clearTimeout(this.timers.get(watcher));
    const delay = Math.max(0, at.getTime() - Date.now()) + 5;
    this.timers.set(
      watcher,
      setTimeout(() => void this.pump(goalId), delay),
    );
  }

  /** Settles the goal now; a settle already running is followed by one more. */
  pump(goalId: string): Promise<void> {
    return this.groups.run(goalId);
  }

  close(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
    this.groups.close();
  }
}
