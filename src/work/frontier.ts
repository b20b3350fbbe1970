/** The frontier: every live todo with whether it is runnable for an agent, and what holds it back. */

import { and, eq, sql } from 'drizzle-orm';
import type { Caller } from '../core/caller.ts';
import { InputError } from '../core/errors.ts';
import type { ScopeGap } from '../core/scope.ts';
import { LIMITS, validateId, validateOptionalId } from '../core/validate.ts';
import type { Db, Tx } from '../db/database.ts';
import { rowsOf } from '../db/sql.ts';
import { type ReplanObligationKind, visionCheckpointMissingSql } from '../ledger/obligations.ts';
import { type UnknownAgent, unknownAgent } from '../registry/registry.ts';
import { activeAgentSql, checkGoalScope } from '../registry/scope.ts';
import { mergeKey } from './repository.ts';
import {
  computeFrontier,
  EVERY_ROW,
  type FrontierGate,
  type FrontierRow,
  type FrontierSelection,
  type Retired,
} from './rules.ts';
import {
  claimOrderSql,
  createdOrderSql,
  gateStateSql,
  leaseStateSql,
  todoLiveSql,
  todoRetiredSql,
  workSeqSql,
} from './sql.ts';
import {
  type AgentWorkspace,
  capabilitiesTable,
  externalEventsTable,
  gatesTable,
  type TaskClass,
  type TodoStatus,
  todosTable,
  type WorktreeKind,
  workspacesTable,
} from './tables.ts';
import type { GateState, LeaseState, Todo } from './values.ts';

/** The routing fields of a live todo: all the frontier reads. */
export type FrontierTodo = Pick<
  Todo,
  | 'id'
  | 'goalId'
  | 'title'
  | 'taskClass'
  | 'status'
  | 'priority'
  | 'dependsOn'
  | 'resumeWhen'
  | 'requiredDecisionScopes'
  | 'requiredCapability'
  | 'taskRepository'
  | 'writeScope'
  | 'claimedBy'
  | 'leaseHolder'
  | 'leaseFence'
  | 'leaseExpiresAt'
  | 'leaseState'
> & {
  /** When it was claimed, in microseconds since the epoch: orders overlapping claims. */
  readonly claimOrder: number | null;
  /** When it was created, in microseconds since the epoch: orders rows after priority. */
  readonly createdOrder: number;
};

/** The empty list and the zero fence, shared by the rows that have them (never mutated). */
const NONE: string[] = Object.freeze([]) as unknown as string[];
const NO_FENCE = 0n;

/**
 * The goal's live todos, narrow and mapped by hand. Decoding thousands of rows is most of
 * the frontier's cost, so it reads only routing columns, in types both drivers decode the
 * same way and cheaply: lists are joined with ',' (validated ids, capabilities and scopes
 * never contain one) and split here, and Dates are built only for the few leased rows.
 * Todos are put in display order here, not by the statement: unsorted, rows stream while
 * Postgres scans, and are decoded meanwhile, instead of all arriving after a sort.
 */
async function loadLiveTodos(tx: Tx, goalId: string): Promise<FrontierTodo[]> {
  const t = todosTable;
  const rows = rowsOf<{
    id: string;
    title: string;
    task_class: TaskClass;
    status: TodoStatus;
    priority: number;
    depends_on: string;
    resume_when: string;
    required_decision_scopes: string;
    required_capability: string | null;
    task_repository: string | null;
    write_scope: string;
    claimed_by: string | null;
    claim_order: number | string | null;
    created_order: number | string;
    lease_holder: string | null;
    lease_fence: string;
    lease_expires_at: string | null;
    lease_state: LeaseState;
  }>(
    await tx.execute(sql`select ${t.id} as id, ${t.title} as title, ${t.taskClass} as task_class,
        ${t.status} as status, ${t.priority} as priority,
        array_to_string(${t.dependsOn}, ',') as depends_on,
        array_to_string(${t.resumeWhen}, ',') as resume_when,
        array_to_string(${t.requiredDecisionScopes}, ',') as required_decision_scopes,
        ${t.requiredCapability} as required_capability,
        ${t.taskRepository} as task_repository,
        array_to_string(${t.writeScope}, ',') as write_scope, ${t.claimedBy} as claimed_by,
        ${claimOrderSql} as claim_order, ${createdOrderSql} as created_order,
        ${t.leaseHolder} as lease_holder, ${t.leaseFence}::text as lease_fence,
        to_char(${t.leaseExpiresAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
          as lease_expires_at,
        ${leaseStateSql} as lease_state
      from ${t}
      where ${t.goalId} = ${goalId} and ${todoLiveSql}`),
  );
  // Most lists are empty and most todos hold no lease: share one empty list and one zero fence.
  const list = (joined: string) => (joined === '' ? NONE : joined.split(','));
  const todos = rows.map((row) => ({
    id: row.id,
    goalId,
    title: row.title,
    taskClass: row.task_class,
    status: row.status,
    priority: row.priority,
    dependsOn: list(row.depends_on),
    resumeWhen: list(row.resume_when),
    requiredDecisionScopes: list(row.required_decision_scopes),
    requiredCapability: row.required_capability,
    taskRepository: row.task_repository,
    writeScope: list(row.write_scope),
    claimedBy: row.claimed_by,
    claimOrder: row.claim_order === null ? null : Number(row.claim_order),
    createdOrder: Number(row.created_order),
    leaseHolder: row.lease_holder,
    leaseFence: row.lease_fence === '0' ? NO_FENCE : BigInt(row.lease_fence),
    leaseExpiresAt: row.lease_expires_at === null ? null : new Date(row.lease_expires_at),
    leaseState: row.lease_state,
  }));
  return todos.sort(
    (a, b) => b.priority - a.priority || a.createdOrder - b.createdOrder || (a.id < b.id ? -1 : 1),
  );
}

export interface Frontier {
  readonly type: 'Frontier';
  readonly goalId: string;
  readonly agentId: string;
  readonly seq: string;
  readonly capabilities: string[];
  /** The agent's declared workspace; null when it declared none. */
  readonly workspace: FrontierAgentWorkspace | null;
  /** VISION_CHECKPOINT_MISSING when the agent has a vision and no replan checkpoint. */
  readonly replanNotices: ReplanObligationKind[];
  /** The rows selected (runnable, held or both; at most the limit), in frontier order. */
  readonly rows: FrontierRow<FrontierTodo>[];
  /** The whole frontier's rows (every live todo), whatever was selected. */
  readonly rowCount: number;
  /** How many of the whole frontier's rows are runnable. */
  readonly runnableCount: number;
}

export type FrontierAgentWorkspace = Pick<
  AgentWorkspace,
  'repository' | 'worktree' | 'revision' | 'declaredAt'
>;

export type FrontierResult = Frontier | ScopeGap | UnknownAgent;

/** The most rows a caller may ask one frontier for with `limit` (no limit: every row). */
export const FRONTIER_LIMIT_MAX = LIMITS.maxTodosPage;

/**
 * Every live todo of the goal with `runnable` and the guards holding it back for `agentId`
 * (a PEER's own agent when omitted); with `runnable`, only the runnable (true) or the held
 * (false) rows, and with `limit`, at most that many (0: the counts alone). The counts are
 * always of the whole frontier. Read from one snapshot in a constant number of statements
 * whatever the number of todos (the scope check, then six loads sent together), then
 * computed in rules.ts.
 */
export async function frontier(
  db: Db,
  caller: Caller | null,
  goalId: string,
  agentIdArg?: string | null,
  options: { runnable?: boolean | null; limit?: number | null } = {},
): Promise<FrontierResult> {
  validateId('goalId', goalId);
  const limit = options.limit ?? null;
  if (limit !== null && (!Number.isInteger(limit) || limit < 0 || limit > FRONTIER_LIMIT_MAX)) {
    throw new InputError(
      `limit must be an integer from 0 to ${FRONTIER_LIMIT_MAX}, or omitted for every row`,
      'limit',
    );
  }
  const selection: FrontierSelection = { runnable: options.runnable ?? null, limit };
  const agentId =
    validateOptionalId('agentId', agentIdArg) ?? (caller?.kind === 'PEER' ? caller.agentId : null);
  if (agentId === null) {
    throw new InputError(
      'agentId is required: name the agent whose frontier to compute',
      'agentId',
    );
  }
  return db.transaction(
    async (tx) => {
      const gap = await checkGoalScope(tx, caller, goalId);
      if (gap) return gap;
      const loaded = await loadFrontier(tx, goalId, agentId, selection);
      return loaded.type === 'UnknownAgent' ? loaded : loaded.frontier;
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

/** A frontier with the gate and lineage facts it was computed from (for reads built on it). */
export interface LoadedFrontier {
  readonly type: 'LoadedFrontier';
  readonly frontier: Frontier;
  readonly gates: readonly (FrontierGate & { readonly state: GateState })[];
  readonly retired: ReadonlyMap<string, Retired>;
}

/**
 * The frontier for `agentId` inside the caller's transaction, after its scope check: six
 * loads sent together, whatever the number of todos, then computed in rules.ts (every row
 * unless `selection` narrows them).
 */
export async function loadFrontier(
  tx: Tx,
  goalId: string,
  agentId: string,
  selection: FrontierSelection = EVERY_ROW,
): Promise<LoadedFrontier | UnknownAgent> {
  const [agent, todos, retired, gates, available, merged] = await Promise.all([
    loadAgent(tx, goalId, agentId),
    loadLiveTodos(tx, goalId),
    loadRetired(tx, goalId),
    loadFrontierGates(tx, goalId),
    loadAvailableCapabilities(tx, goalId),
    loadMergedPullRequests(tx, goalId),
  ]);
  if (!agent?.active) return unknownAgent(goalId, agentId);
  const capabilities = agent.capabilities ?? [];
  const workspace =
    agent.workspace_repository === null
      ? null
      : {
          repository: agent.workspace_repository,
          worktree: agent.workspace_worktree as WorktreeKind,
          revision: agent.workspace_revision as string,
          declaredAt: new Date(agent.workspace_declared_at as string),
        };
  const answer = computeFrontier(
    {
      agentId,
      capabilities: new Set(capabilities),
      workspace,
      todos,
      retired,
      gates,
      availableCapabilities: available,
      mergedPullRequests: merged,
    },
    selection,
  );
  const frontier: Frontier = {
    type: 'Frontier',
    goalId,
    agentId,
    seq: agent.seq ?? '0',
    capabilities,
    workspace,
    replanNotices: agent.vision_checkpoint_missing ? ['VISION_CHECKPOINT_MISSING'] : [],
    ...answer,
  };
  return { type: 'LoadedFrontier', frontier, gates, retired };
}

/** The agent: whether it is active, its capabilities and workspace, and the work sequence. */
async function loadAgent(tx: Tx, goalId: string, agentId: string) {
  const c = capabilitiesTable;
  const w = workspacesTable;
  const [agent] = rowsOf<{
    active: boolean;
    capabilities: string[] | null;
    seq: string | null;
    workspace_repository: string | null;
    workspace_worktree: string | null;
    workspace_revision: string | null;
    workspace_declared_at: string | null;
    vision_checkpoint_missing: boolean;
  }>(
    await tx.execute(sql`select ${activeAgentSql(goalId, agentId)} as active,
      (select ${c.capabilities} from ${c}
        where ${c.goalId} = ${goalId} and ${c.agentId} = ${agentId}) as capabilities,
      ${workSeqSql(goalId)}::text as seq,
      ws.repository as workspace_repository, ws.worktree as workspace_worktree,
      ws.revision as workspace_revision,
      to_char(ws.declared_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
        as workspace_declared_at,
      ${visionCheckpointMissingSql(goalId, agentId)} as vision_checkpoint_missing
      from (select 1) one
      left join lateral (select ${w.repository} as repository, ${w.worktree} as worktree,
          ${w.revision} as revision, ${w.declaredAt} as declared_at
        from ${w} where ${w.goalId} = ${goalId} and ${w.agentId} = ${agentId}) ws on true`),
  );
  return agent;
}

/** The goal's superseded and closed todos: three narrow columns, for lineage. */
async function loadRetired(tx: Tx, goalId: string): Promise<Map<string, Retired>> {
  const t = todosTable;
  const rows = rowsOf<{ id: string; status: Retired['status']; superseded_by: string | null }>(
    await tx.execute(sql`select ${t.id} as id, ${t.status} as status,
        ${t.supersededBy} as superseded_by
      from ${t} where ${t.goalId} = ${goalId} and ${todoRetiredSql}`),
  );
  return new Map(
    rows.map((row) => [row.id, { status: row.status, supersededBy: row.superseded_by }]),
  );
}

/**
 * All the goal's gates with their state now. Gates are decisions put to people, so a goal
 * has few; the guards need those in force and those a `gate_resolved:` condition names.
 */
async function loadFrontierGates(tx: Tx, goalId: string) {
  const rows = await tx
    .select({
      id: gatesTable.id,
      kind: gatesTable.kind,
      granularity: gatesTable.granularity,
      scopeKey: gatesTable.scopeKey,
      state: gateStateSql,
    })
    .from(gatesTable)
    .where(eq(gatesTable.goalId, goalId));
  return rows.map((gate) => ({
    ...gate,
    inForce: gate.state === 'OPEN' || gate.state === 'DENIED',
    settled: gate.state !== 'OPEN',
  }));
}

/** Every capability some active agent of the goal declares (for `capacity_available:`). */
async function loadAvailableCapabilities(tx: Tx, goalId: string): Promise<Set<string>> {
  const c = capabilitiesTable;
  const rows = rowsOf<{ capability: string }>(
    await tx.execute(sql`select distinct cap as capability
      from ${c} cross join lateral unnest(${c.capabilities}) as cap
      where ${c.goalId} = ${goalId} and ${activeAgentSql(sql`${c.goalId}`, sql`${c.agentId}`)}`),
  );
  return new Set(rows.map((row) => row.capability));
}

/** The goal's recorded merges, as `mergeKey(repository, number)` (for `pr_merged:`). */
export async function loadMergedPullRequests(tx: Tx, goalId: string): Promise<Set<string>> {
  const e = externalEventsTable;
  const rows = await tx
    .select({ repository: e.repository, ref: e.ref })
    .from(e)
    .where(and(eq(e.goalId, goalId), eq(e.kind, 'PR_MERGED')));
  return new Set(rows.map((row) => mergeKey(row.repository, row.ref)));
}
