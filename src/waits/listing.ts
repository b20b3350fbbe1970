import { and, desc, eq, exists, sql } from 'drizzle-orm';
import type { Caller } from '../core/caller.ts';
import { InputError } from '../core/errors.ts';
import type { Listing } from '../core/results.ts';
import { oneOf, validateId } from '../core/validate.ts';
import type { Db } from '../db/database.ts';
import { rowsOf } from '../db/sql.ts';
import { presenceChangesTable } from '../presence/tables.ts';
import { findAgent } from '../registry/registry.ts';
import { checkGoalScope } from '../registry/scope.ts';
import { type WaitStatus, waitStatuses, waitsTable, waitTargetsTable } from './tables.ts';
import { decideOutcomes, loadWaits, recordOutcomes, Settler, type Wait } from './waits.ts';

export const DEFAULT_WAITS_LIMIT = 20;
export const MAX_WAITS_LIMIT = 100;
/** Pending waits settled together: one load, one pass over the change log, one write. */
const SETTLE_BATCH = 1000;

export type WaitListing = Listing<Wait> & {
  readonly agentId: string;
  /** Rows left out by `limit`. */
  readonly omittedRowCount: number;
};

export interface WaitsQuery {
  goalId: string;
  agentId: string;
  status?: WaitStatus | null;
  limit?: number | null;
}

/**
 * The waits that target one agent (any of a wait's targets), newest first, optionally of one
 * status. Every pending one that may have an outcome by now is settled first, from the change
 * log and the deadline, however many there are, so a wait whose outcome is decided never reads
 * PENDING (as wait(id)), in the rows or in the count. Scoped like wait(id): anyone whose scope
 * covers the goal. The agent must be registered to the goal (retired included): anything else
 * is BAD_USER_INPUT, checked after scope. A constant number of statements while no pending
 * wait can have an outcome; a few more per thousand that may.
 */
export async function listWaits(db: Db, caller: Caller, query: WaitsQuery): Promise<WaitListing> {
  const goalId = validateId('goalId', query.goalId);
  const agentId = validateId('agentId', query.agentId);
  const status = query.status == null ? null : oneOf('status', query.status, waitStatuses);
  const limit = query.limit ?? DEFAULT_WAITS_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_WAITS_LIMIT) {
    throw new InputError(`limit must be an integer from 1 to ${MAX_WAITS_LIMIT}`, 'limit');
  }
  const gap = await checkGoalScope(db, caller, goalId);
  if (gap) return { goalId, agentId, rows: [], scopeGap: gap, omittedRowCount: 0 };
  if (!(await findAgent(db, goalId, agentId))) {
    throw new InputError(`agentId: no agent ${agentId} is registered to goal ${goalId}`, 'agentId');
  }

  const w = waitsTable;
  const targets = waitTargetsTable;
  const onAgent = exists(
    db
      .select({ one: sql`1` })
      .from(targets)
      .where(and(eq(targets.waitId, w.id), eq(targets.agentId, agentId))),
  );
  const decidable = await decidableWaits(db, goalId, agentId);
  for (let start = 0; start < decidable.length; start += SETTLE_BATCH) {
    const batch = decidable.slice(start, start + SETTLE_BATCH);
    const settlers = [...(await loadWaits(db, batch)).values()].map((wait) => new Settler(wait));
    const decided = await decideOutcomes(db, goalId, settlers);
    await recordOutcomes(
      db,
      [...decided].map(([settler, outcome]) => ({ waitId: settler.wait.row.id, outcome })),
    );
  }

  const page = await db
    .select({ id: w.id, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(w)
    .where(and(eq(w.goalId, goalId), status === null ? undefined : eq(w.status, status), onAgent))
    .orderBy(desc(w.createdAt), desc(w.id))
    .limit(limit);
  const waits = await loadWaits(
    db,
    page.map((p) => p.id),
  );
  return {
    goalId,
    agentId,
    scopeGap: null,
    rows: page.map((p) => waits.get(p.id) as Wait),
    omittedRowCount: (page[0]?.total ?? 0) - page.length,
  };
}

/**
 * The pending waits on `agentId` that may have an outcome by now, in one statement: those
 * whose deadline has passed, and those with a pinned target whose agent has a change after
 * that target's baseline (a superset of the changes that can decide it: the Settler says
 * which do). Any other pending wait is still PENDING, with nothing to read. The change log is
 * read once, from the lowest baseline of the waits still within their deadline.
 */
async function decidableWaits(db: Db, goalId: string, agentId: string): Promise<string[]> {
  const w = waitsTable;
  const t = waitTargetsTable;
  const c = presenceChangesTable;
  const rows = rowsOf<{ id: string }>(
    await db.execute(sql`
      with pending as (
        select ${w.id} as id, ${w.deadline} <= now() as expired from ${w}
        where ${w.goalId} = ${goalId} and ${w.status} = 'PENDING' and exists (
          select 1 from ${t} where ${t.waitId} = ${w.id} and ${t.agentId} = ${agentId})
      ),
      pinned as (
        select p.id, ${t.agentId} as agent_id, ${t.baselineSeq} as baseline_seq
        from pending p join ${t} on ${t.waitId} = p.id
        where not p.expired and ${t.state} = 'PINNED'
      ),
      latest as (
        select ${c.agentId} as agent_id, max(${c.seq}) as seq from ${c}
        where ${c.goalId} = ${goalId}
          and ${c.seq} > (select min(baseline_seq) from pinned)
          and ${c.agentId} in (select agent_id from pinned)
        group by ${c.agentId}
      )
      select p.id from pending p
      where p.expired or exists (
        select 1 from pinned d join latest l on l.agent_id = d.agent_id
        where d.id = p.id and l.seq > d.baseline_seq)
      order by p.id`),
  );
  return rows.map((row) => row.id);
}
