import { Repeater } from '@repeaterjs/repeater';
import type { Db } from '../db/database.ts';
import type { Doorbell } from '../events/doorbell.ts';
import { GoalWatchers } from '../presence/watchers.ts';
import { decideOutcomes, type Outcome, recordOutcomes, Settler, type Wait } from './waits.ts';

interface Watcher {
  readonly settler: Settler;
  /** Delivers the recorded terminal state. */
  readonly finish: (wait: Wait) => void;
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
    return new Repeater<Wait>(async (push, stop) => {
      const endedAtOnce = wait.row.status !== 'PENDING';
      if (started && endedAtOnce) await push(asPending(wait));
      await push(wait);
      if (endedAtOnce) return stop();
      const goalId = wait.row.goalId;
      const settled = new Promise<Wait>((finish) => {
        const watcher: Watcher = { settler: new Settler(wait), finish };
        this.watchers.join(goalId, watcher);
        void stop.then(() => this.watchers.leave(goalId, watcher));
        this.watchers.wakeAt(goalId, watcher, wait.row.deadline);
        void this.watchers.pump(goalId);
      });
      const final = await Promise.race([settled, stop.then(() => null)]);
      if (final) await push(final);
      stop();
    });
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
