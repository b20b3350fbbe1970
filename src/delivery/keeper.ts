import type { Db } from '../db/database.ts';
import type { Doorbell } from '../events/doorbell.ts';
import { GoalWatchers } from '../presence/watchers.ts';
import type { OutcomeDriver } from './follow.ts';
import { nextBoundary, settle, Tracker } from './outcomes.ts';
import type { DeliveryRow } from './tables.ts';

/**
 * Settles, live, the deliveries that clients on this instance follow (deliveryOutcome).
 * The same mechanism as waits: watchers grouped by goal, one read of the change log per
 * presence ring for all of them, a timer for each delivery's next window end or deadline.
 * What it records rings the delivery's doorbell; the streams read the recorded history, so
 * it does not matter which instance (or which lazy read) recorded a change first.
 */
export class DeliveryKeeper implements OutcomeDriver {
  private readonly watchers: GoalWatchers<Tracker>;

  constructor(
    private readonly db: Db,
    doorbell: Doorbell,
  ) {
    this.watchers = new GoalWatchers(doorbell, (goalId, trackers) =>
      this.settleGoal(goalId, trackers),
    );
  }

  /** Keeps `row` settled until the returned function is called (or its outcome is final). */
  keep(row: DeliveryRow): () => void {
    const tracker = new Tracker(row);
    this.watchers.join(row.goalId, tracker);
    void this.watchers.pump(row.goalId);
    return () => this.watchers.leave(row.goalId, tracker);
  }

  close(): void {
    this.watchers.close();
  }

  private async settleGoal(goalId: string, trackers: ReadonlySet<Tracker>): Promise<void> {
    const all = [...trackers];
    await settle(this.db, goalId, all);
    for (const tracker of all) {
      const boundary = nextBoundary(tracker.row);
      if (boundary === null) this.watchers.leave(goalId, tracker);
      else this.watchers.wakeAt(goalId, tracker, boundary);
    }
  }
}
