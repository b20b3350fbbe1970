import { and, eq, or, type SQL, sql } from 'drizzle-orm';
import type { Caller } from '../core/caller.ts';
import { type ScopeGap, scopeGap } from '../core/scope.ts';
import type { Queryable } from '../db/database.ts';
import { placeholder, prepared, textArrayLiteral } from '../db/sql.ts';
import { agentsTable, delegationsTable, goalsTable } from './tables.ts';

/**
 * The existing goals the caller's credential covers (docs/api.md, "Callers and scope"), in one
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
  const rows = await scopeQuery(
    caller.kind,
    only !== undefined,
  )(db).execute({
    goalIds: 'goalIds' in caller ? textArrayLiteral(caller.goalIds) : null,
    callerGoalId: caller.kind === 'PEER' ? caller.goalId : null,
    callerAgentId: caller.kind === 'PEER' ? caller.agentId : null,
    only: only ?? null,
  });
  return rows.map((row) => row.id);
}

const scopeQueries = new Map<string, ReturnType<typeof buildScopeQuery>>();

/** goalsInScope's query for one kind of caller, with or without `only`: built once each. */
function scopeQuery(kind: Caller['kind'], narrowed: boolean) {
  const key = `${kind}:${narrowed}`;
  let query = scopeQueries.get(key);
  if (!query) {
    query = buildScopeQuery(kind, narrowed);
    scopeQueries.set(key, query);
  }
  return query;
}

function buildScopeQuery(kind: Caller['kind'], narrowed: boolean) {
  let membership: SQL | undefined;
  switch (kind) {
    case 'ADMIN':
      membership = undefined;
      break;
    case 'STEWARD':
    case 'PROVIDER':
      membership = sql`${goalsTable.id} = any(${sql.placeholder('goalIds')}::text[])`;
      break;
    case 'PEER':
      membership = and(
        or(
          eq(goalsTable.id, sql.placeholder('callerGoalId')),
          sql`${goalsTable.id} in (select ${delegationsTable.goalId} from ${delegationsTable}
            where ${delegationsTable.agentGoalId} = ${sql.placeholder('callerGoalId')}
              and ${delegationsTable.agentId} = ${sql.placeholder('callerAgentId')})`,
        ),
        registeredAgentSql(placeholder('callerGoalId'), placeholder('callerAgentId')),
      );
      break;
  }
  const only = narrowed ? eq(goalsTable.id, sql.placeholder('only')) : undefined;
  return prepared(`goals_in_scope_${kind}_${narrowed}`, (db) =>
    db
      .select({ id: goalsTable.id })
      .from(goalsTable)
      .where(and(membership, only))
      .orderBy(goalsTable.id),
  );
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
