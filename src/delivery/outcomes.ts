import { inArray, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../db/database.ts';
import { bare, rowsOf, textArray } from '../db/sql.ts';
import { ringSql } from '../events/doorbell.ts';
import { lockHead } from '../events/sequence.ts';
import { classifyChange, feedChanges, type PinnedChange } from '../presence/pins.ts';
import type { Liveness, PresenceChangeRow } from '../presence/tables.ts';
import {
  type DeliveryRow,
  deliveriesTable,
  deliveryOutcomesTable,
  type Outcome,
  type OutcomeReason,
  terminalOutcomes,
} from './tables.ts';

/**
 * How a delivery's outcome is decided (docs/api.md, "Delivery, inbox and roster", fact 3). Only a delivery whose target was
 * pinned at submission can move past SUBMITTED. Its history is a function of three things:
 * the goal's presence change log after the baseline, the window end and the deadline.
 *
 * - The first change of the pinned location after the baseline, recorded by the deadline,
 *   that shows the pinned occupant WORKING or BLOCKED is ACTIVITY_OBSERVED; one that shows
 *   another occupant, an end, a lapse (COVERAGE_LOST) or UNREACHABLE is UNREACHABLE. Other
 *   changes (IDLE, DONE, a reported UNKNOWN) are neither.
 * - If that change came after the window ended, STALLED comes first (effective at the
 *   window end): stalled is an observation, and later activity still upgrades it.
 * - With no such change: STALLED once the window has ended, EXPIRED once the deadline has.
 *
 * Deciding from a change needs only the log (it is gap-free, so every earlier change is
 * visible). Deciding from the absence of a change needs to know that none can still arrive
 * with an earlier time: that is decided holding the goal's presence head lock, after which
 * every new change is recorded later than the clock read under the lock. So any instance, at
 * any time, computes the same history, and records it with compare-and-set on its version.
 */

/** The change that decides a pinned delivery. */
export interface Decisive {
  readonly outcome: 'ACTIVITY_OBSERVED' | 'UNREACHABLE';
  readonly reason: OutcomeReason | null;
  readonly seq: bigint;
  readonly liveness: Liveness;
  readonly at: Date;
}

export interface Step {
  readonly outcome: Exclude<Outcome, 'SUBMITTED'>;
  readonly reason: OutcomeReason | null;
  readonly seq: bigint | null;
  readonly liveness: Liveness | null;
  readonly effectiveAt: Date;
}

const ACTIVITY: readonly Liveness[] = ['WORKING', 'BLOCKED'];

/** Why a pinned change that is not a state ends the delivery UNREACHABLE. */
const UNREACHABLE_REASONS: Record<Exclude<PinnedChange['kind'], 'STATE'>, OutcomeReason> = {
  REPLACED: 'PINNED_OCCUPANT_REPLACED',
  ENDED: 'PRESENCE_ENDED',
  COVERAGE_LOST: 'COVERAGE_LOST',
  UNREACHABLE: 'LIVENESS_UNREACHABLE',
};

/** Follows one delivery through the change log: remembers the first decisive change. */
export class Tracker {
  seenSeq: bigint;
  decisive: Decisive | null = null;

  constructor(public row: DeliveryRow) {
    this.seenSeq = row.baselineSeq;
  }

  get open(): boolean {
    return this.row.pinState === 'PINNED' && !terminalOutcomes.includes(this.row.outcome);
  }

  apply(change: PresenceChangeRow): void {
    if (this.decisive || change.seq <= this.seenSeq) return;
    this.seenSeq = change.seq;
    if (change.recordedAt.getTime() > this.row.deadline.getTime()) return;
    const meaning = classifyChange(
      {
        agentId: this.row.toAgentId,
        provider: this.row.pinProvider,
        providerSessionRef: this.row.pinSessionRef,
        occupantRef: this.row.pinOccupantRef,
        baselineSeq: this.row.baselineSeq,
      },
      change,
    );
    if (!meaning) return;
    const at = { seq: change.seq, liveness: change.liveness, at: change.recordedAt };
    if (meaning.kind === 'STATE') {
      if (ACTIVITY.includes(meaning.liveness))
        this.decisive = { outcome: 'ACTIVITY_OBSERVED', reason: null, ...at };
      return;
    }
    const lost = meaning.kind === 'COVERAGE_LOST';
    this.decisive = {
      outcome: 'UNREACHABLE',
      reason: UNREACHABLE_REASONS[meaning.kind],
      ...at,
      liveness: lost ? 'UNKNOWN' : change.liveness,
    };
  }
}

/**
 * The whole outcome history after SUBMITTED, as known from `decisive` and, when `now` is
 * given, from the absence of a decisive change up to `now`. `now` may only be passed by a
 * caller holding the goal's presence head lock, with `now` read under it (see above).
 */
export function trajectory(row: DeliveryRow, decisive: Decisive | null, now: Date | null): Step[] {
  if (row.pinState !== 'PINNED') return [];
  const windowEnd = row.windowEndsAt.getTime();
  const deadline = row.deadline.getTime();
  const stallable = windowEnd < deadline;
  const stalled: Step = {
    outcome: 'STALLED',
    reason: null,
    seq: null,
    liveness: null,
    effectiveAt: row.windowEndsAt,
  };
  if (decisive) {
    const late = stallable && decisive.at.getTime() > windowEnd;
    return [
      ...(late ? [stalled] : []),
      {
        outcome: decisive.outcome,
        reason: decisive.reason,
        seq: decisive.seq,
        liveness: decisive.liveness,
        effectiveAt: decisive.at,
      },
    ];
  }
  if (now === null) return [];
  // Strictly after, in whole milliseconds: a change recorded later than `now` is then later
  // than the boundary too, whatever the sub-millisecond digits were.
  const steps: Step[] = [];
  if (stallable && now.getTime() > windowEnd) steps.push(stalled);
  if (now.getTime() > deadline) {
    steps.push({
      outcome: 'EXPIRED',
      reason: null,
      seq: null,
      liveness: null,
      effectiveAt: row.deadline,
    });
  }
  return steps;
}

/** The next instant at which time alone can change the outcome; null when none can. */
export function nextBoundary(row: DeliveryRow): Date | null {
  if (row.pinState !== 'PINNED' || terminalOutcomes.includes(row.outcome)) return null;
  return row.outcome === 'SUBMITTED' && row.windowEndsAt < row.deadline
    ? row.windowEndsAt
    : row.deadline;
}

/** Reads every new change for the open trackers, a page at a time, with one query per page. */
async function catchUp(db: Queryable, goalId: string, trackers: readonly Tracker[]) {
  await feedChanges(
    db,
    goalId,
    () => trackers.filter((t) => t.open && !t.decisive),
    (tracker, changes) => {
      for (const change of changes) tracker.apply(change);
    },
  );
}

/**
 * Records, for each tracker, the steps of `history` beyond its recorded version, in one
 * statement: the update only applies where the version is still the one this writer read,
 * the history rows go in with it, and the doorbell rings for each delivery that moved. Then
 * re-reads what is recorded, so trackers hold the truth even where another instance won.
 */
async function record(
  db: Queryable,
  planned: readonly { tracker: Tracker; history: readonly Step[] }[],
): Promise<void> {
  const moving = planned.filter((p) => p.history.length > p.tracker.row.outcomeVersion);
  if (moving.length === 0) return;
  const steps = moving.flatMap(({ tracker, history }) =>
    history
      .map((step, i) => ({ id: tracker.row.id, version: i + 1, step }))
      .slice(tracker.row.outcomeVersion),
  );
  const texts = (pick: (s: (typeof steps)[number]) => string | null) =>
    textArray(steps.map((s) => pick(s) ?? ''));
  const d = deliveriesTable;
  const o = deliveryOutcomesTable;
  await db.execute(sql`
    with v as (
      select * from unnest(
        ${textArray(moving.map((p) => p.tracker.row.id))},
        ${textArray(moving.map((p) => String(p.tracker.row.outcomeVersion)))}::int[],
        ${textArray(moving.map((p) => String(p.history.length)))}::int[],
        ${textArray(moving.map((p) => p.history.at(-1)?.outcome as string))}
      ) as v(id, from_version, to_version, outcome)
    ), moved as (
      update ${d} set ${bare(d.outcome)} = v.outcome, ${bare(d.outcomeVersion)} = v.to_version
      from v where ${d.id} = v.id and ${d.outcomeVersion} = v.from_version
      returning ${d.id} as id, ${d.outcomeVersion} as outcome_version
    ), written as (
      insert into ${o} (${bare(o.deliveryId)}, ${bare(o.version)}, ${bare(o.outcome)},
        ${bare(o.reason)}, ${bare(o.seq)}, ${bare(o.liveness)}, ${bare(o.effectiveAt)})
      select s.id, s.version, s.outcome, nullif(s.reason, ''), nullif(s.seq, '')::bigint,
             nullif(s.liveness, ''), s.effective_at::timestamptz
      from unnest(
        ${texts((s) => s.id)}, ${texts((s) => String(s.version))}::int[],
        ${texts((s) => s.step.outcome)}, ${texts((s) => s.step.reason)},
        ${texts((s) => s.step.seq?.toString() ?? null)}, ${texts((s) => s.step.liveness)},
        ${texts((s) => s.step.effectiveAt.toISOString())}
      ) as s(id, version, outcome, reason, seq, liveness, effective_at)
      where s.id in (select id from moved)
    )
    select ${ringSql('delivery', sql`id`, sql`outcome_version`)} from moved`);
  const recorded = await db
    .select()
    .from(deliveriesTable)
    .where(
      inArray(
        deliveriesTable.id,
        moving.map((p) => p.tracker.row.id),
      ),
    );
  const byId = new Map(recorded.map((row) => [row.id, row]));
  for (const { tracker } of moving) tracker.row = byId.get(tracker.row.id) ?? tracker.row;
}

/** The database clock, in whole milliseconds (rounded down). */
async function databaseNow(db: Queryable): Promise<Date> {
  const [row] = rowsOf<{ ms: number | string }>(
    await db.execute(sql`select floor(extract(epoch from clock_timestamp()) * 1000)::float8 as ms`),
  );
  return new Date(Number(row?.ms));
}

/**
 * Brings deliveries of one goal up to date and records what is decided. First from the
 * change log alone; then, for those whose window end or deadline has passed with no decisive
 * change, under the goal's presence head lock. `now` only says which ones look due: the
 * decision itself uses the database clock read under the lock. Trackers end up holding the
 * recorded rows.
 */
export async function settle(
  db: Db,
  goalId: string,
  trackers: readonly Tracker[],
  now = new Date(),
): Promise<void> {
  for (let round = 0; round < 3; round++) {
    await catchUp(db, goalId, trackers);
    await record(
      db,
      trackers
        .filter((t) => t.open)
        .map((tracker) => ({ tracker, history: trajectory(tracker.row, tracker.decisive, null) })),
    );
    const due = trackers.filter((t) => {
      const boundary = nextBoundary(t.row);
      return t.open && !t.decisive && boundary !== null && boundary.getTime() < now.getTime();
    });
    if (due.length > 0) {
      await db.transaction(async (tx) => {
        await lockHead(tx, goalId, 'presence');
        const clock = await databaseNow(tx);
        await catchUp(tx, goalId, due);
        await record(
          tx,
          due.map((tracker) => ({
            tracker,
            history: trajectory(tracker.row, tracker.decisive, clock),
          })),
        );
      });
    }
    // Another instance may have recorded part of the same history meanwhile: go again then.
    const behind = trackers.some(
      (t) => t.open && trajectory(t.row, t.decisive, null).length > t.row.outcomeVersion,
    );
    if (!behind) return;
  }
}
