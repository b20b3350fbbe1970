import { sql } from 'drizzle-orm';
import { type Retention, retentionOf } from './config.ts';
import type { Db, Tx } from './db/database.ts';
import { rowsOf } from './db/sql.ts';
import {
  deliveriesTable,
  deliveryNoticesTable,
  deliveryOutcomesTable,
  inboxesTable,
} from './delivery/tables.ts';
import { streamHeadsTable } from './events/tables.ts';
import type { Logger } from './log.ts';
import { presenceChangesTable } from './presence/tables.ts';
import { waitsTable, waitTargetsTable } from './waits/tables.ts';

/** The advisory lock a retention sweep holds: one at a time per database, whichever instance. */
const RETENTION_LOCK = 7_501_035;
/** How often each instance tries a sweep (the first one a minute after start). */
export const RETENTION_INTERVAL_MS = 10 * 60_000;
/** Rows removed per transaction and kind: a sweep never holds a goal's locks for long. */
const BATCH = 5_000;

export interface RetentionStats {
  readonly presenceChanges: number;
  readonly finishedWaits: number;
  readonly processedMessages: number;
}

const h = streamHeadsTable;
const c = presenceChangesTable;
const w = waitsTable;
const wt = waitTargetsTable;
const d = deliveriesTable;

/**
 * Keeps the history tables bounded (docs/operations.md, "Retention"): presence changes beyond
 * the newest `presenceChangesPerGoal` of each goal, waits finished longer ago than
 * `finishedWaitsMs`, and messages processed longer ago than `processedMessagesMs` once their
 * outcome is final. Never what something still reads: changes after the baseline of an open
 * pinned wait or delivery, a pending wait, an unprocessed message, an inbox's active message.
 * Removing items of the presence or inbox stream moves that stream's `pruned_through` in the
 * same transaction, so a reader resuming from before it gets a RetentionGap, never a silent
 * skip. Every instance runs one; an advisory lock lets one sweep at a time.
 */
export class RetentionSweep {
  private readonly keep: Retention;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<RetentionStats | null> | null = null;

  constructor(
    private readonly db: Db,
    config: Parameters<typeof retentionOf>[0],
    private readonly log: Logger,
  ) {
    this.keep = retentionOf(config);
  }

  start(firstAfterMs = 60_000): void {
    const tick = (ms: number) => {
      this.timer = setTimeout(() => {
        void this.sweep().finally(() => tick(RETENTION_INTERVAL_MS));
      }, ms);
      this.timer.unref();
    };
    tick(firstAfterMs);
  }

  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Sweeps now: what it removed, or null when another instance was sweeping. */
  sweep(): Promise<RetentionStats | null> {
    this.running ??= this.run()
      .catch((error) => {
        this.log.warn('retention sweep failed', { error: String(error) });
        return null;
      })
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  private async run(): Promise<RetentionStats | null> {
    const stats = { presenceChanges: 0, finishedWaits: 0, processedMessages: 0 };
    for (;;) {
      const batch = await this.db.transaction(async (tx) => {
        const [claim] = rowsOf<{ locked: boolean }>(
          await tx.execute(sql`select pg_try_advisory_xact_lock(${RETENTION_LOCK}) as locked`),
        );
        if (!claim?.locked) return null;
        return {
          presenceChanges: await this.presenceChanges(tx),
          finishedWaits: await this.finishedWaits(tx),
          processedMessages: await this.processedMessages(tx),
        };
      });
      // Another instance sweeps: it goes on from here.
      if (!batch) return total(stats) > 0 ? stats : null;
      stats.presenceChanges += batch.presenceChanges;
      stats.finishedWaits += batch.finishedWaits;
      stats.processedMessages += batch.processedMessages;
      if (total(batch) === 0) break;
    }
    if (total(stats) > 0) this.log.info('retention removed history', stats);
    return stats;
  }

  /**
   * Up to BATCH of one goal's oldest changes beyond the newest presenceChangesPerGoal, none
   * after the baseline of an open pinned wait or delivery of that goal (they read the log
   * from there).
   */
  private async presenceChanges(tx: Tx): Promise<number> {
    const keep = this.keep.presenceChangesPerGoal;
    if (keep === 0) return 0;
    const [due] = rowsOf<{ goal_id: string; cut: string }>(
      await tx.execute(sql`
        select goal_id, cut::text from (
          select ${h.goalId} as goal_id, ${h.prunedThrough} as pruned, least(
            ${h.seq} - ${keep},
            ${h.prunedThrough} + ${BATCH},
            (select min(${wt.baselineSeq}) from ${wt} join ${w} on ${w.id} = ${wt.waitId}
              where ${wt.goalId} = ${h.goalId} and ${w.status} = 'PENDING'
                and ${wt.state} = 'PINNED'),
            (select min(${d.baselineSeq}) from ${d}
              where ${d.goalId} = ${h.goalId} and ${openDeliverySql})) as cut
          from ${h}
          where ${h.stream} = 'presence' and ${h.seq} - ${keep} > ${h.prunedThrough}) due
        where cut > pruned
        order by cut - pruned desc
        limit 1`),
    );
    if (!due) return 0;
    const removed = rowsOf(
      await tx.execute(sql`delete from ${c}
        where ${c.goalId} = ${due.goal_id} and ${c.seq} <= ${due.cut}::bigint returning 1`),
    ).length;
    await tx.execute(sql`update ${h} set pruned_through = ${due.cut}::bigint
      where ${h.goalId} = ${due.goal_id} and ${h.stream} = 'presence'`);
    return removed;
  }

  /** Up to BATCH waits finished (not PENDING) longer ago than finishedWaitsMs, with their targets. */
  private async finishedWaits(tx: Tx): Promise<number> {
    const age = this.keep.finishedWaitsMs;
    if (age === 0) return 0;
    const ids = rowsOf<{ id: string }>(
      await tx.execute(sql`select ${w.id} as id from ${w}
        where ${w.status} <> 'PENDING' and ${w.resolvedAt} < ${olderThan(age)}
        order by ${w.resolvedAt} limit ${BATCH} for update`),
    ).map((r) => r.id);
    if (ids.length === 0) return 0;
    const list = sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    );
    await tx.execute(sql`delete from ${wt} where ${wt.waitId} in (${list})`);
    await tx.execute(sql`delete from ${w} where ${w.id} in (${list})`);
    return ids.length;
  }

  /**
   * Up to BATCH messages of one goal processed longer ago than processedMessagesMs, no longer
   * open, none an inbox's active message, with their outcomes and notices; the goal's inbox
   * stream is marked pruned through the highest one removed.
   */
  private async processedMessages(tx: Tx): Promise<number> {
    const age = this.keep.processedMessagesMs;
    if (age === 0) return 0;
    const o = deliveryOutcomesTable;
    const n = deliveryNoticesTable;
    const i = inboxesTable;
    const removable = sql`${d.processedAt} < ${olderThan(age)} and not ${openDeliverySql}
      and not exists (select 1 from ${i} where ${i.activeId} = ${d.id})`;
    const rows = rowsOf<{ id: string; goal_id: string; seq: string }>(
      await tx.execute(sql`
        select ${d.id} as id, ${d.goalId} as goal_id, ${d.seq}::text as seq from ${d}
        where ${d.goalId} = (select ${d.goalId} from ${d} where ${removable} limit 1)
          and ${removable}
        order by ${d.seq} limit ${BATCH} for update of ${d}`),
    );
    const first = rows[0];
    if (!first) return 0;
    const list = sql.join(
      rows.map((r) => sql`${r.id}`),
      sql`, `,
    );
    const highest = rows.reduce((max, r) => (BigInt(r.seq) > max ? BigInt(r.seq) : max), 0n);
    await tx.execute(sql`delete from ${o} where ${o.deliveryId} in (${list})`);
    await tx.execute(sql`delete from ${n} where ${n.deliveryId} in (${list})`);
    await tx.execute(sql`delete from ${d} where ${d.id} in (${list})`);
    await tx.execute(sql`
      update ${h} set pruned_through = greatest(pruned_through, ${highest.toString()}::bigint)
      where ${h.goalId} = ${first.goal_id} and ${h.stream} = 'inbox'`);
    return rows.length;
  }
}

/** A delivery whose outcome can still change: it reads the presence log after its baseline. */
const openDeliverySql = sql`(${d.outcome} in ('SUBMITTED', 'STALLED') and ${d.pinState} = 'PINNED')`;

const total = (s: RetentionStats) => s.presenceChanges + s.finishedWaits + s.processedMessages;

const olderThan = (ms: number) => sql`now() - make_interval(secs => ${ms / 1000})`;
