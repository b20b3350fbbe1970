import { and, eq, lte, sql } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { rowsOf } from '../db/sql.ts';
import type { Doorbell } from '../events/doorbell.ts';
import type { Logger } from '../log.ts';
import { credentialsTable } from '../registry/tables.ts';
import { coveredSql, lapseGoal, liveSql } from './lapse.ts';
import { presenceTable } from './tables.ts';

/** The advisory lock a sweep holds: one sweeper at a time per database, whichever instance. */
const SWEEP_LOCK = 7_501_033;
/** Longest between two sweeps: a row another instance wrote can expire at most this late. */
export const MAX_SWEEP_INTERVAL_MS = 1_000;
/** Goals lapsed per sweep transaction (their head locks are held until it commits). */
const GOALS_PER_SWEEP = 50;

export interface SweeperStats {
  /** Sweeps that held the lock, and those that found another instance sweeping. */
  sweeps: number;
  skipped: number;
  /** Presence rows this instance lapsed. */
  lapsed: number;
  /** Duration of the last sweep that held the lock (ms). */
  lastSweepMs: number | null;
}

const p = presenceTable;

/**
 * Turns expiry into events (presence/lapse.ts): every gateway instance runs one, and whichever
 * takes the database's sweep lock first lapses every live presence whose `expiresAt` has
 * passed, goal by goal under the presence head lock. The lock is an advisory lock of the sweep's
 * own transaction, so an instance that dies mid-sweep releases it with everything it had not
 * committed, and the next instance to wake takes over; a lapsed row is marked, so nothing
 * lapses twice. An instance sleeps until the next expiry it knows of, at most
 * MAX_SWEEP_INTERVAL_MS: an idle sweep is one short transaction (the lock, one read of the
 * expiry index) per instance per second at most.
 *
 * A revoked credential rings the doorbell: each instance then brings the expiry of the
 * presence no credential covers any more forward to now and sweeps, so it lapses as
 * PROVIDER_REVOKED at once (a lost ring leaves it to its TTL, with the same gap).
 */
export class PresenceSweeper {
  readonly stats: SweeperStats = { sweeps: 0, skipped: 0, lapsed: 0, lastSweepMs: null };
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private closed = false;
  private stopRevocations: (() => void) | null = null;

  constructor(
    private readonly db: Db,
    private readonly doorbell: Doorbell,
    private readonly log: Logger,
    /** How its sweep transactions are named (pg_stat_activity.application_name). */
    private readonly name = `switchboard-sweeper-${process.pid}`,
  ) {}

  start(): void {
    this.stopRevocations = this.doorbell.on(
      'credential',
      null,
      (ring) => void this.revoked(ring.id),
    );
    void this.sweep();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stopRevocations?.();
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  /** Sweeps now; a sweep already running is followed by one more. Resolves when done. */
  sweep(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.run().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async run(): Promise<void> {
    let wake = MAX_SWEEP_INTERVAL_MS;
    do {
      this.again = false;
      if (this.timer) clearTimeout(this.timer);
      try {
        wake = await this.once();
      } catch (error) {
        if (!this.closed) this.log.warn('presence sweep failed', { error: String(error) });
        wake = MAX_SWEEP_INTERVAL_MS;
      }
    } while (this.again && !this.closed);
    if (this.closed) return;
    // The margin lets the database clock pass the expiry too.
    this.timer = setTimeout(() => void this.sweep(), wake + 5);
    this.timer.unref();
  }

  /** One sweep transaction; returns how long to sleep before the next. */
  private async once(): Promise<number> {
    const started = performance.now();
    const result = await this.db.transaction(async (tx) => {
      const [claim] = rowsOf<{ locked: boolean }>(
        await tx.execute(sql`select set_config('application_name', ${this.name}, true),
          pg_try_advisory_xact_lock(${SWEEP_LOCK}) as locked`),
      );
      if (!claim?.locked) return null;
      const [due] = rowsOf<{ goals: string[]; next_ms: number | string | null }>(
        await tx.execute(sql`select
          array(select distinct ${p.goalId} from ${p}
            where ${liveSql} and ${p.expiresAt} <= now() order by 1 limit ${GOALS_PER_SWEEP})
            as goals,
          extract(epoch from (select min(${p.expiresAt}) from ${p}
            where ${liveSql} and ${p.expiresAt} > now()) - now()) * 1000 as next_ms`),
      );
      let lapsed = 0;
      for (const goalId of due?.goals ?? [])
        lapsed += await lapseGoal(tx, goalId, lte(p.expiresAt, sql`now()`));
      return { lapsed, more: (due?.goals.length ?? 0) === GOALS_PER_SWEEP, next: due?.next_ms };
    });
    if (!result) {
      this.stats.skipped++;
      return MAX_SWEEP_INTERVAL_MS;
    }
    this.stats.sweeps++;
    this.stats.lapsed += result.lapsed;
    this.stats.lastSweepMs = performance.now() - started;
    if (result.lapsed > 0) this.log.debug('presence lapsed', { rows: result.lapsed });
    if (result.more) return 0;
    const next = result.next === null || result.next === undefined ? Infinity : Number(result.next);
    return Math.max(0, Math.min(next, MAX_SWEEP_INTERVAL_MS));
  }

  /** A credential was revoked: what no credential of its provider covers now expires at once. */
  private async revoked(credentialId: string): Promise<void> {
    const c = credentialsTable;
    try {
      await this.db
        .update(p)
        .set({ expiresAt: sql`now()` })
        .where(
          and(
            liveSql,
            sql`${p.expiresAt} > now()`,
            sql`${p.providerId} = (select ${c.providerId} from ${c}
              where ${eq(c.id, credentialId)} and ${c.kind} = 'PROVIDER')`,
            sql`not ${coveredSql}`,
          ),
        );
    } catch (error) {
      this.log.warn('presence revocation check failed', { error: String(error) });
    }
    if (!this.closed) await this.sweep();
  }
}
