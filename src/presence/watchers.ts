import type { Doorbell } from '../events/doorbell.ts';

interface Goal<W> {
  readonly watchers: Set<W>;
  readonly stopListening: () => void;
  reading: boolean;
  again: boolean;
}

/**
 * In-process watchers of pinned targets, grouped by goal. Whenever a goal's presence stream
 * rings, a watcher's timer fires, or the listening connection comes back, `settle` runs once
 * for all of that goal's watchers: one read of the change log serves them all, and rings that
 * arrive during a settle collapse into one more. Waits and deliveries each bring their own
 * `settle`; the grouping, coalescing and timers are this one mechanism.
 */
export class GoalWatchers<W extends object> {
  private readonly goals = new Map<string, Goal<W>>();
  private readonly timers = new Map<W, NodeJS.Timeout>();
  private readonly stopReconnects: () => void;

  constructor(
    private readonly doorbell: Doorbell,
    private readonly settle: (goalId: string, watchers: ReadonlySet<W>) => Promise<void>,
  ) {
    this.stopReconnects = doorbell.onReconnect(() => {
      for (const goalId of this.goals.keys()) void this.pump(goalId);
    });
  }

  join(goalId: string, watcher: W): void {
    let goal = this.goals.get(goalId);
    if (!goal) {
      goal = {
        watchers: new Set(),
        stopListening: this.doorbell.on('presence', goalId, () => void this.pump(goalId)),
        reading: false,
        again: false,
      };
      this.goals.set(goalId, goal);
    }
    goal.watchers.add(watcher);
  }

  leave(goalId: string, watcher: W): void {
    clearTimeout(this.timers.get(watcher));
    this.timers.delete(watcher);
    const goal = this.goals.get(goalId);
    if (!goal?.watchers.delete(watcher) || goal.watchers.size > 0) return;
    goal.stopListening();
    this.goals.delete(goalId);
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
  async pump(goalId: string): Promise<void> {
    const goal = this.goals.get(goalId);
    if (!goal) return;
    if (goal.reading) {
      goal.again = true;
      return;
    }
    goal.reading = true;
    try {
      do {
        goal.again = false;
        await this.settle(goalId, goal.watchers);
      } while (goal.again && this.goals.get(goalId) === goal);
    } catch {
      // A failed read (database briefly unreachable) is retried on the next ring, timer or reconnect.
    } finally {
      goal.reading = false;
    }
  }

  close(): void {
    this.stopReconnects();
    for (const [goalId, goal] of this.goals) {
      for (const watcher of goal.watchers) this.leave(goalId, watcher);
    }
  }
}
