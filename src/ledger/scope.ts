/**
 * The agent-scoped evidence ledger (docs/api.md, "Evidence ledger"): append-only events behind the privacy
 * boundary, the scoped read model an agent reads before it replans or hands off, replan
 * checkpoints that cite that read's digest, and the same scoped rows as a live stream.
 * Plain functions over (db, caller, input); no GraphQL here.
 *
 * Scope of one agent's ledger: the five rules of docs/api.md, "Evidence ledger", plus goal-level rows
 *  1. its own rows (`agentId` is the agent);
 *  2. rows on todos it claims (any status: finished work keeps its history);
 *  3. rows on unclaimed live todos selected for its lane — the lane is its vision's
 *     `roleScope` read as relative path prefixes: a todo is in the lane when one of its
 *     `writeScope` entries equals a prefix or lies under it (`src/ledger` selects
 *     `src/ledger/**`); a roleScope with no path-like word selects nothing;
 *  4. material rows (status changes, gates, blockers, validations, projections, handoffs,
 *     replans) that change its next action: rows on a todo one of its live todos depends on
 *     or waits for (`todo_done:`), rows on a gate that covers a scope one of its live todos
 *     requires or that a `gate_resolved:` condition names, and rows that name it as
 *     `relatedAgentId` (a blocker waiting on it);
 *  5. handoffs to or from it;
 *  and goal-level rows, marked at write with a `goalChange` (route, acceptance, global gate,
 *  goal next action, replan obligation), which every agent sees. `relevanceOf` names the
 *  first that applies (handoffs first).
 * Everything else belongs to other agents and reaches this agent only compressed, in
 * `otherAgentFrontier`. Scope is judged against the work graph as it is at read time.
 */

import { and, eq, inArray, isNotNull, or, type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '../db/database.ts';
import { prepared, textArrayLiteral } from '../db/sql.ts';
import { covers, parseDecisionScope, parseResumeCondition } from '../work/rules.ts';
import { gatesTable, type TodoStatus, todosTable, visionsTable } from '../work/tables.ts';
import type { LedgerEvent, LedgerRelevance } from './append.ts';
import { ledgerEventsTable } from './tables.ts';

/** The sets the scoping rules test rows against, from the work graph as it is now. */
export interface AgentScope {
  readonly goalId: string;
  readonly agentId: string;
  /** Path prefixes from the agent's vision roleScope (rule 3). */
  readonly lanePrefixes: string[];
  readonly claimed: Set<string>;
  readonly lane: Set<string>;
  /** Todos the agent's live work depends on or waits for (rule 4). */
  readonly dependencies: Set<string>;
  /** Gates that cover a scope the agent's live work requires, or that it waits for (rule 4). */
  readonly gates: Set<string>;
}

/** Todos still to be done: a lane holds them unclaimed, and only they wait on anything. */
export const liveStatuses: readonly TodoStatus[] = ['OPEN', 'DEFERRED'];

const LANE_WORD = /^[A-Za-z0-9._-][A-Za-z0-9._/*-]*$/;

/** The path prefixes a roleScope names: its words that look like relative paths, without trailing `/`, `/*` or `/**`. */
function lanePrefixesOf(roleScope: string | null | undefined): string[] {
  if (!roleScope) return [];
  const prefixes = roleScope
    .split(/[\s,;]+/)
    .filter((word) => LANE_WORD.test(word) && !word.split('/').includes('..'))
    .map((word) => word.replace(/(\/\*{1,2})+$/, '').replace(/\/+$/, ''))
    .filter((word) => word.length > 0 && word !== '.' && !word.includes('*'));
  return [...new Set(prefixes)].sort();
}

/** The agent's scope; `roleScope` when the caller read it already (undefined: read it here). */
export async function loadAgentScope(
  q: Queryable,
  goalId: string,
  agentId: string,
  roleScope?: string | null,
): Promise<AgentScope> {
  const v = visionsTable;
  if (roleScope === undefined) {
    const [vision] = await q
      .select({ roleScope: v.roleScope })
      .from(v)
      .where(and(eq(v.goalId, goalId), eq(v.agentId, agentId)));
    roleScope = vision?.roleScope ?? null;
  }
  const scopes = await loadAgentScopes(q, goalId, [{ agentId, roleScope }]);
  return scopes.get(agentId) as AgentScope;
}

/** The todos the agents claim, and the unclaimed live ones any of the lane prefixes selects. */
const scopeTodos = prepared('ledger_scope_todos', (db) => {
  const t = todosTable;
  return db
    .select({
      id: t.id,
      claimedBy: t.claimedBy,
      status: t.status,
      writeScope: t.writeScope,
      dependsOn: t.dependsOn,
      resumeWhen: t.resumeWhen,
      requiredDecisionScopes: t.requiredDecisionScopes,
    })
    .from(t)
    .where(
      and(
        eq(t.goalId, sql.placeholder('goalId')),
        or(
          sql`${t.claimedBy} = any(${sql.placeholder('agentIds')}::text[])`,
          sql`(${t.claimedBy} is null and ${inArray(t.status, liveStatuses)} and exists (
            select 1 from unnest(${t.writeScope}) ws, unnest(${sql.placeholder('prefixes')}::text[]) p
            where ws = p or starts_with(ws, p || '/')))`,
        ),
      ),
    );
});

const goalGates = prepared('ledger_scope_gates', (db) => {
  const g = gatesTable;
  return db
    .select({ id: g.id, kind: g.kind, granularity: g.granularity, scopeKey: g.scopeKey })
    .from(g)
    .where(eq(g.goalId, sql.placeholder('goalId')));
});

/**
 * The scopes of several agents of a goal at once, in two statements whatever their number:
 * the todos any of them claims or any of their lanes selects, and the goal's gates.
 */
export async function loadAgentScopes(
  q: Queryable,
  goalId: string,
  agents: readonly { agentId: string; roleScope: string | null }[],
): Promise<Map<string, AgentScope>> {
  const prefixesOf = new Map(agents.map((a) => [a.agentId, lanePrefixesOf(a.roleScope)]));
  const allPrefixes = [...new Set([...prefixesOf.values()].flat())];
  const [todos, gates] = await Promise.all([
    scopeTodos(q).execute({
      goalId,
      agentIds: textArrayLiteral(agents.map((a) => a.agentId)),
      prefixes: textArrayLiteral(allPrefixes),
    }),
    goalGates(q).execute({ goalId }),
  ]);
  const scopes = new Map<string, AgentScope>();
  for (const { agentId } of agents) {
    const lanePrefixes = prefixesOf.get(agentId) ?? [];
    const claimed = new Set<string>();
    const lane = new Set<string>();
    const dependencies = new Set<string>();
    const gateIds = new Set<string>();
    const required: ReturnType<typeof parseDecisionScope>[] = [];
    for (const todo of todos) {
      if (todo.claimedBy === agentId) claimed.add(todo.id);
      else if (
        todo.claimedBy === null &&
        liveStatuses.includes(todo.status) &&
        todo.writeScope.some((ws) => lanePrefixes.some((p) => ws === p || ws.startsWith(`${p}/`)))
      ) {
        lane.add(todo.id);
      } else continue;
      if (!liveStatuses.includes(todo.status)) continue;
      for (const id of todo.dependsOn) dependencies.add(id);
      for (const text of todo.resumeWhen) {
        const condition = parseResumeCondition('resumeWhen', text);
        if (condition.kind === 'todo_done') dependencies.add(condition.todoId);
        if (condition.kind === 'gate_resolved') gateIds.add(condition.gateId);
      }
      for (const text of todo.requiredDecisionScopes) {
        required.push(parseDecisionScope('requiredDecisionScopes', text));
      }
    }
    for (const gate of gates) {
      if (required.some((r) => covers(gate, r))) gateIds.add(gate.id);
    }
    for (const id of [...claimed, ...lane]) dependencies.delete(id);
    scopes.set(agentId, {
      goalId,
      agentId,
      lanePrefixes,
      claimed,
      lane,
      dependencies,
      gates: gateIds,
    });
  }
  return scopes;
}

/** The first scoping rule a row meets for the scope's agent, or null when it is another agent's. */
export function relevanceOf(
  scope: AgentScope,
  row: Pick<
    LedgerEvent,
    'eventKind' | 'agentId' | 'relatedAgentId' | 'todoId' | 'gateId' | 'material' | 'goalChange'
  >,
): LedgerRelevance | null {
  const me = scope.agentId;
  if (row.eventKind === 'HANDOFF' && (row.agentId === me || row.relatedAgentId === me)) {
    return 'HANDOFF';
  }
  if (row.agentId === me) return 'OWN';
  if (row.todoId !== null && scope.claimed.has(row.todoId)) return 'CLAIMED_TODO';
  if (row.todoId !== null && scope.lane.has(row.todoId)) return 'LANE_TODO';
  if (row.relatedAgentId === me) return 'NEXT_ACTION';
  if (
    row.material &&
    ((row.todoId !== null && scope.dependencies.has(row.todoId)) ||
      (row.gateId !== null && scope.gates.has(row.gateId)))
  ) {
    return 'NEXT_ACTION';
  }
  if (row.goalChange !== null) return 'GOAL_LEVEL';
  return null;
}

/** The same rules as SQL over ledger_events, one indexed arm per rule. */
export function scopeSql(scope: AgentScope): SQL {
  const e = ledgerEventsTable;
  const work = [...scope.claimed, ...scope.lane];
  const nextAction = [
    ...(scope.dependencies.size > 0 ? [inArray(e.todoId, [...scope.dependencies])] : []),
    ...(scope.gates.size > 0 ? [inArray(e.gateId, [...scope.gates])] : []),
  ];
  return or(
    eq(e.agentId, scope.agentId),
    eq(e.relatedAgentId, scope.agentId),
    isNotNull(e.goalChange),
    ...(work.length > 0 ? [inArray(e.todoId, work)] : []),
    ...(nextAction.length > 0 ? [and(e.material, or(...nextAction))] : []),
  ) as SQL;
}
