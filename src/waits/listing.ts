import { and, desc, eq, exists, sql } from 'drizzle-orm';
import type { Caller } from '../core/caller.ts';
import { InputError } from '../core/errors.ts';
import type { Listing } from '../core/results.ts';
import { oneOf, validateId } from '../core/validate.ts';
import type { Db } from '../db/database.ts';
import { findAgent } from '../registry/registry.ts';
import { checkGoalScope } from '../registry/scope.ts';
import { type WaitStatus, waitStatuses, waitsTable, waitTargetsTable } from './tables.ts';
import { decideOutcomes, loadWaits, recordOutcomes, Settler, type Wait } from './waits.ts';

export const DEFAULT_WAITS_LIMIT = 20;
export const MAX_WAITS_LIMIT = 100;
/** Pending waits on one agent settled before a read; beyond it the oldest-deadline ones go first. */
const MAX_SETTLED_PER_READ = 1000;

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
 * status. Pending ones are settled first from the change log and the deadline, so a wait
 * whose outcome is decided never reads PENDING (as wait(id)). Scoped like wait(id): anyone
 * whose scope covers the goal. The agent must be registered to the goal (retired included):
 * anything else is BAD_USER_INPUT, checked after scope. A constant number of statements.
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
  const pending = await db
    .select({ id: w.id })
    .from(w)
    .where(and(eq(w.goalId, goalId), eq(w.status, 'PENDING'), onAgent))
    .orderBy(w.deadline)
    .limit(MAX_SETTLED_PER_READ);
  if (pending.length > 0) {
    const settlers = [
      ...(
        await loadWaits(
          db,
          pending.map((p) => p.id),
        )
      ).values(),
    ].map((wait) => new Settler(wait));
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
