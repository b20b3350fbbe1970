import { and, eq, or, type SQL, sql } from 'drizzle-orm';
import type { Caller } from '../core/caller.ts';
import { type ScopeGap, scopeGap } from '../core/scope.ts';
import type { Queryable } from '../db/database.ts';
import { textArray } from '../db/sql.ts';
import { agentsTable, delegationsTable, goalsTable } from './tables.ts';

/**
 * The existing goals the caller's credential covers (README, "Callers and scope"), in one
 * statement: an ADMIN covers every goal; a STEWARD or PROVIDER the goals bound to its
 * credential; a PEER its own goal and the goals delegated to it, but only while its agent is
 * registered and not retired. `only` narrows the answer to one goal.
 */
export async function goalsInScope(
  db: Queryable,
  caller: Caller | null,
  only?: string,
): Promise<string[]> {
  if (!caller) return [];
  let membership: SQL | undefined;
  switch (caller.kind) {
    case 'ADMIN':
      membership = undefined;
      break;
    case 'STEWARD':
    case 'PROVIDER':
      membership = sql`${goalsTable.id} = any(${textArray(caller.goalIds)})`;
      break;
    case 'PEER':
      membership = and(
        or(
          eq(goalsTable.id, caller.goalId),
          sql`${goalsTable.id} in (select ${delegationsTable.goalId} from ${delegationsTable}
            where ${delegationsTable.agentGoalId} = ${caller.goalId}
              and ${delegationsTable.agentId} = ${caller.agentId})`,
        ),
        registeredAgentSql(caller.goalId, caller.agentId),
      );
      break;
  }
  const rows = await db
    .select({ id: goalsTable.id })
    .from(goalsTable)
    .where(and(membership, only === undefined ? undefined : eq(goalsTable.id, only)))
    .orderBy(goalsTable.id);
  return rows.map((row) => row.id);
}

/** null when `goalId` exists and is in the caller's scope; otherwise the typed gap. */
export async function checkGoalScope(
  db: Queryable,
  caller: Caller | null,
  goalId: string,
): Promise<ScopeGap | null> {
  const [inScope] = await goalsInScope(db, caller, goalId);
  return inScope === undefined ? scopeGap(goalId, caller) : null;
}

/**
 * Whether `agentId` is registered to `goalId` and not retired. `goalId` and `agentId` may be
 * columns of an outer query, but not of an unaliased `agents` row (the subquery's own).
 */
export function registeredAgentSql(goalId: SQL | string, agentId: SQL | string): SQL {
  return sql`exists (select 1 from ${agentsTable}
    where ${agentsTable.goalId} = ${goalId} and ${agentsTable.agentId} = ${agentId}
      and ${agentsTable.retiredAt} is null)`;
}

/**
 * Whether `agentId` is an active agent of `goalId`: registered there, or registered elsewhere
 * with the goal delegated to it, and not retired. Same rule for outer columns as above.
 */
export function activeAgentSql(goalId: SQL | string, agentId: SQL | string): SQL {
  return sql`(${registeredAgentSql(goalId, agentId)}
    or exists (select 1 from ${delegationsTable}
      join ${agentsTable} on ${agentsTable.goalId} = ${delegationsTable.agentGoalId}
        and ${agentsTable.agentId} = ${delegationsTable.agentId}
      where ${delegationsTable.goalId} = ${goalId} and ${delegationsTable.agentId} = ${agentId}
        and ${agentsTable.retiredAt} is null))`;
}
