import { type SQL, sql } from 'drizzle-orm';
import type { Caller } from '../core/caller.ts';
import { type ScopeGap, scopeGap } from '../core/scope.ts';
import type { Queryable } from '../db/database.ts';
import { rowsOf, textArray } from '../db/sql.ts';

/**
 * The existing goals the caller's credential covers (DESIGN §1 rules 3 and 4), in one
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
  const onlyClause = only === undefined ? sql`` : sql` and g.id = ${only}`;
  let membership: SQL;
  switch (caller.kind) {
    case 'ADMIN':
      membership = sql`true`;
      break;
    case 'STEWARD':
    case 'PROVIDER':
      membership = sql`g.id = any(${textArray(caller.goalIds)})`;
      break;
    case 'PEER':
      membership = sql`(g.id = ${caller.goalId} or g.id in (
          select d.goal_id from delegations d
          where d.agent_goal_id = ${caller.goalId} and d.agent_id = ${caller.agentId}))
        and exists (select 1 from agents a
          where a.goal_id = ${caller.goalId} and a.agent_id = ${caller.agentId}
            and a.retired_at is null)`;
      break;
  }
  const rows = await db.execute<{ id: string }>(
    sql`select g.id from goals g where ${membership}${onlyClause} order by g.id`,
  );
  return rowsOf<{ id: string }>(rows).map((row) => row.id);
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

/** Whether `agentId` is an active agent of `goalId`: registered there, or delegated to it. */
export function activeAgentSql(goalId: SQL | string, agentId: SQL | string): SQL {
  return sql`(exists (select 1 from agents a
      where a.goal_id = ${goalId} and a.agent_id = ${agentId} and a.retired_at is null)
    or exists (select 1 from delegations d
      join agents a on a.goal_id = d.agent_goal_id and a.agent_id = d.agent_id
      where d.goal_id = ${goalId} and d.agent_id = ${agentId} and a.retired_at is null))`;
}
