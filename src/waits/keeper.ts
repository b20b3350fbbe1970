import { Repeater } from '@repeaterjs/repeater';
import type { Db } from '../db/database.ts';
import type { Doorbell } from '../events/doorbell.ts';
import { minSeq } from '../events/sequence.ts';
import {
  CHANGE_PAGE,
  changesAfter,
  type Outcome,
  recordOutcomes,
  Settler,
  type Wait,
} from './waits.ts';

interface Watcher {
  readonly settler: Settler;
  /** Delivers the recorded terminal state. */
  readonly finish: (wait: Wait) => void;
  timer?: NodeJS.Timeout;
}

interface Goal {
  readonly watchers: Set<Watcher>;
  readonly stopListening: () => void;
  reading: boolean;
  again: boolean;
}

/**
 * Watches the waits that clients on this instance subscribe to. Watchers are grouped by goal:
 * one presence ring costs one read of the goal's new changes, applied to every watcher in
 * memory, and one statement records all the outcomes it decides. Deadlines are timers; a
 * reconnect of the listening connection makes every goal catch up from its watchers' cursors.
 */
export class WaitKeeper {
  private readonly goals = new Map<string, Goal>();
  private readonly stopReconnects: () => void;

  constructor(
    private readonly db: Db,
    private readonly doorbell: Doorbell,
  ) {
    this.stopReconnects = doorbell.onReconnect(() => {
      for (const goalId of this.goals.keys()) void this.pump(goalId);
    });
  }

  /** The wait as it is now, then (if it was pending) exactly one terminal state, then the end. */
  watch(wait: Wait): AsyncIterableIterator<Wait> {
    return new Repeater<Wait>(async (push, stop) => {
      await push(wait);
      if (wait.row.status !== 'PENDING') return stop();
      const goalId = wait.row.goalId;
      const settled = new Promise<Wait>((finish) => {
        const watcher: Watcher = { settler: new Settler(wait), finish };
        this.join(goalId, watcher);
        void stop.then(() => this.leave(goalId, watcher));
        const delay = wait.row.deadline.getTime() - Date.now();
        watcher.timer = setTimeout(() => void this.pump(goalId), Math.max(0, delay) + 5);
        void this.pump(goalId);
      });
      const final = await Promise.race([settled, stop.then(() => null)]);
      if (final) await push(final);
      stop();
    });
  }

  close(): void {
    this.stopReconnects();
    for (const [goalId, goal] of this.goals) {
      for (const watcher of goal.watchers) this.leave(goalId, watcher);
    }
  }

  private join(goalId: string, watcher: Watcher): void {
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

  private leave(goalId: string, watcher: Watcher): void {
    clearTimeout(watcher.timer);
    const goal = this.goals.get(goalId);
    if (!goal?.watchers.delete(watcher) || goal.watchers.size > 0) return;
    goal.stopListening();
    this.goals.delete(goalId);
  }

  /** Reads the goal's new changes once for all its watchers; rings during a read cause one more. */
  private async pump(goalId: string): Promise<void> {
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
        await this.settleGoal(goalId, goal);
      } while (goal.again && this.goals.get(goalId) === goal);
    } catch {
      // A failed read (database briefly unreachable) is retried on the next ring, timer or reconnect.
    } finally {
      goal.reading = false;
    }
  }

  private async settleGoal(goalId: string, goal: Goal): Promise<void> {
    const decided = new Map<Watcher, Outcome>();
    let more = true;
    while (more) {
      const open = [...goal.watchers].filter((w) => !decided.has(w));
      if (open.length === 0) break;
      const from = minSeq(
        open.map((w) => w.settler.seenSeq),
        0n,
      );
      const changes = await changesAfter(this.db, goalId, from);
      for (const watcher of open) {
        for (const change of changes) {
          const outcome = watcher.settler.apply(change);
          if (outcome) {
            decided.set(watcher, outcome);
            break;
          }
        }
      }
      more = changes.length === CHANGE_PAGE;
    }
    const now = new Date();
    for (const watcher of goal.watchers) {
      if (decided.has(watcher)) continue;
      const expired = watcher.settler.expire(now);
      if (expired) decided.set(watcher, expired);
    }
    if (decided.size === 0) return;
    const watchers = [...decided.keys()];
    const rows = await recordOutcomes(
      this.db,
      watchers.map((w) => ({ waitId: w.settler.wait.row.id, outcome: decided.get(w) as Outcome })),
    );
    const recorded = new Map(rows.map((row) => [row.id, row]));
    for (const watcher of watchers) {
      const row = recorded.get(watcher.settler.wait.row.id);
      if (row && row.status !== 'PENDING') {
        this.leave(goalId, watcher);
        watcher.finish({ ...watcher.settler.wait, row });
      }
    }
  }
}
