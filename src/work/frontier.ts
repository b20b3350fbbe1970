/** The frontier: every live todo with whether it is runnable for an agent, and what holds it back. */

import { and, eq, type SQL, sql } from 'drizzle-orm';
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
  type Lineage,
  lineageOf,
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
  todoTransitionsTable,
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
  /**
   * When its lease expires, in microseconds since the epoch (exact in a float8, like
   * createdOrder): null without a holder, -Infinity for a holder with no expiry (EXPIRED).
   */
  readonly leaseExpiry: number | null;
};

/** The empty list and the zero fence, shared by the rows that have them (never mutated). */
const NONE: string[] = Object.freeze([]) as unknown as string[];
const NO_FENCE = 0n;

/**
 * A goal's todos as the frontier reads them, at one work sequence: the live ones in frontier
 * order and the retired ones for lineage. Shared by every frontier
 * read of that sequence (GoalTodosCache), so nothing here is ever changed: the todos and their
 * lists are frozen, and a catch-up builds a new one. A leased todo's `leaseState` is as of the
 * read that loaded it; `leaseStatesAt` gives them as of another read's clock.
 */
interface GoalTodos {
  /** The goal's work sequence these todos are of. */
  readonly seq: bigint;
  readonly live: readonly FrontierTodo[];
  readonly retired: ReadonlyMap<string, Retired>;
  /** lineageOf(live, retired): it depends on no agent, so every read of these todos shares it. */
  readonly lineage: Lineage;
}

/**
 * The goal's todos of recently read goals, each as of the work sequence it was loaded at, so a
 * frontier read of an unchanged goal reads no todo row and a read after a few writes reads only
 * the todos they changed (loadGoalTodos). Every write of a todo moves the goal's work sequence
 * and records a todo_transitions row at the sequence it moved to, in its transaction
 * (work/write.ts), and a read's snapshot holds the head and the todos together: the same
 * sequence is the same todos. One per gateway instance; at most `capacity` goals (16: a goal
 * of 10,000 todos holds a few MB), the least recently read dropped first.
 */
export class GoalTodosCache {
  private readonly entries = new Map<string, GoalTodos>();

  constructor(private readonly capacity = 16) {}

  get(goalId: string): GoalTodos | null {
    const entry = this.entries.get(goalId);
    if (!entry) return null;
    this.entries.delete(goalId); // most recently used last
    this.entries.set(goalId, entry);
    return entry;
  }

  /** Keeps `todos` unless a newer sequence of the goal is kept already (reads overlap). */
  set(goalId: string, todos: GoalTodos): void {
    const kept = this.entries.get(goalId);
    if (kept && kept.seq > todos.seq) return;
    this.entries.delete(goalId);
    this.entries.set(goalId, todos);
    const oldest = this.entries.keys().next().value;
    if (this.entries.size > this.capacity && oldest !== undefined) this.entries.delete(oldest);
  }
}

/**
 * A catch-up reads the todos changed since the kept sequence, up to this many writes behind
 * (or an eighth of the goal's live todos, if more): further behind, loading the goal is as
 * cheap. A write changes one todo, or two (a successor or replacement with its predecessor).
 */
const CATCH_UP_MIN = 64;

/**
 * The goal's todos at the read's sequence `seq`, `now` being the read's clock (epoch
 * microseconds, from the same snapshot): kept ones when the cache holds that sequence, kept
 * ones caught up by the todos changed since when it holds an older one, else loaded whole.
 */
async function loadGoalTodos(
  tx: Tx,
  goalId: string,
  seq: bigint,
  now: number,
  cache: GoalTodosCache | null,
): Promise<Pick<GoalTodos, 'live' | 'retired' | 'lineage'>> {
  const kept = cache?.get(goalId) ?? null;
  let todos: GoalTodos;
  if (kept !== null && kept.seq === seq) {
    todos = kept;
  } else if (
    kept !== null &&
    kept.seq < seq &&
    seq - kept.seq <= BigInt(Math.max(CATCH_UP_MIN, kept.live.length >> 3))
  ) {
    const changed = await readTodos(tx, goalId, changedSinceSql(goalId, kept.seq));
    todos = catchUp(goalId, kept, seq, changed);
  } else {
    const [live, retired] = await Promise.all([
      readTodos(tx, goalId, todoLiveSql),
      loadRetired(tx, goalId),
    ]);
    todos = fromRows(goalId, seq, live, retired);
  }
  cache?.set(goalId, todos);
  return { live: leaseStatesAt(todos, now), retired: todos.retired, lineage: todos.lineage };
}

/** Todos a write moved the goal's work sequence past `seq` for (todo_transitions.seq). */
const changedSinceSql = (goalId: string, seq: bigint) =>
  sql`${todosTable.id} in (select ${todoTransitionsTable.todoId} from ${todoTransitionsTable}
    where ${todoTransitionsTable.goalId} = ${goalId}
      and ${todoTransitionsTable.seq} > ${seq.toString()}::bigint)`;

/** A row of readTodos: a live todo's routing columns, or a retired one's lineage. */
interface TodoRow {
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
  lease_expiry: number | string | null;
  lease_state: LeaseState;
  superseded_by: string | null;
}

/**
 * The goal's todos that `where` keeps, narrow. Decoding thousands of rows is most of the cost
 * of loading a goal, so it reads only routing columns, in types both drivers decode the same
 * way and cheaply: lists are joined with ',' (validated ids, capabilities and scopes never
 * contain one) and split in todoOf, and Dates are built only for the few leased rows. Rows are
 * put in frontier order after, not by the statement: unsorted, rows stream while Postgres
 * scans, and are decoded meanwhile, instead of all arriving after a sort.
 */
async function readTodos(tx: Tx, goalId: string, where: SQL): Promise<TodoRow[]> {
  const t = todosTable;
  return rowsOf<TodoRow>(
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
        ${leaseExpirySql} as lease_expiry,
        ${leaseStateSql} as lease_state, ${t.supersededBy} as superseded_by
      from ${t}
      where ${t.goalId} = ${goalId} and ${where}`),
  );
}

/** When a todo's lease expires, in microseconds since the epoch, exact in a float8. */
const leaseExpirySql = sql<
  number | null
>`(extract(epoch from ${todosTable.leaseExpiresAt}) * 1000000)::float8`;

/** The read's clock, as leaseStateSql compares with it: now() in microseconds since the epoch. */
const nowSql = sql<number>`(extract(epoch from now()) * 1000000)::float8`;

const isLive = (status: TodoStatus) => status === 'OPEN' || status === 'DEFERRED';
const isRetired = (status: TodoStatus): status is Retired['status'] =>
  status === 'SUPERSEDED' || status === 'CLOSED_NO_FOLLOW_UP';

/** A frozen list: the empty one shared, most are. */
const list = (joined: string) =>
  joined === '' ? NONE : (Object.freeze(joined.split(',')) as string[]);

function todoOf(goalId: string, row: TodoRow): FrontierTodo {
  return Object.freeze({
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
    leaseExpiry:
      row.lease_holder === null
        ? null
        : row.lease_expiry === null
          ? Number.NEGATIVE_INFINITY
          : Number(row.lease_expiry),
  });
}

/** Frontier order: highest priority first, then oldest, then by id. */
const frontierOrder = (a: FrontierTodo, b: FrontierTodo) =>
  b.priority - a.priority || a.createdOrder - b.createdOrder || (a.id < b.id ? -1 : 1);

/** A goal's todos from its live rows and its retired todos. */
function fromRows(
  goalId: string,
  seq: bigint,
  rows: readonly TodoRow[],
  retired: ReadonlyMap<string, Retired>,
): GoalTodos {
  const live = rows.map((row) => todoOf(goalId, row)).sort(frontierOrder);
  return { seq, live, retired, lineage: lineageOf(live, retired) };
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
 * `kept` moved on to `seq` by the current rows of the todos changed since (`rows`, live or
 * not): each leaves the live todos and takes its place again where it is now. A new object;
 * `kept` stays as it was, for the reads still using it.
 */
function catchUp(
  goalId: string,
  kept: GoalTodos,
  seq: bigint,
  rows: readonly TodoRow[],
): GoalTodos {
  if (rows.length === 0) return { ...kept, seq };
  const changed = new Set(rows.map((row) => row.id));
  const live = kept.live.filter((todo) => !changed.has(todo.id));
  let retired = kept.retired;
  for (const row of rows) {
    if (isLive(row.status)) {
      live.push(todoOf(goalId, row));
    } else if (isRetired(row.status)) {
      if (retired === kept.retired) retired = new Map(kept.retired);
      (retired as Map<string, Retired>).set(row.id, {
        status: row.status,
        supersededBy: row.superseded_by,
      });
    }
  }
  live.sort(frontierOrder);
  return { seq, live, retired, lineage: lineageOf(live, retired) };
}

/**
 * The live todos with each lease's state as of `now` (the read's clock): leaseStateSql's answer
 * for the read, whenever the todos were loaded. The kept list itself when no state differs.
 */
function leaseStatesAt(todos: GoalTodos, now: number): readonly FrontierTodo[] {
  let live: FrontierTodo[] | null = null;
  for (let i = 0; i < todos.live.length; i++) {
    const todo = todos.live[i] as FrontierTodo;
    if (todo.leaseExpiry === null) continue;
    const state: LeaseState = todo.leaseExpiry > now ? 'ACTIVE' : 'EXPIRED';
    if (state === todo.leaseState) continue;
    live ??= [...todos.live];
    live[i] = Object.freeze({ ...todo, leaseState: state });
  }
  return live ?? todos.live;
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
 * whatever the number of todos (the scope check, then loadFrontier's at most six), then
 * computed in rules.ts. With `cache` (the instance's), the goal's todos are read only when
 * they changed since the last read, and then only those changed (GoalTodosCache).
 */
export async function frontier(
  db: Db,
  caller: Caller | null,
  goalId: string,
  agentIdArg?: string | null,
  options: { runnable?: boolean | null; limit?: number | null } = {},
  cache: GoalTodosCache | null = null,
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
      const loaded = await loadFrontier(tx, goalId, agentId, selection, cache);
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
 * The frontier for `agentId` inside the caller's transaction, after its scope check: the agent
 * with the goal's work sequence and clock, then the goal's todos (from `cache` when it holds
 * them, see loadGoalTodos) while the gates, capabilities and merges load, whatever the number
 * of todos; then computed in rules.ts (every row unless `selection` narrows them).
 */
export async function loadFrontier(
  tx: Tx,
  goalId: string,
  agentId: string,
  selection: FrontierSelection = EVERY_ROW,
  cache: GoalTodosCache | null = null,
): Promise<LoadedFrontier | UnknownAgent> {
  const agentLoad = loadAgent(tx, goalId, agentId);
  const [agent, goalTodos, gates, available, merged] = await Promise.all([
    agentLoad,
    agentLoad.then((found) =>
      found?.active
        ? loadGoalTodos(tx, goalId, BigInt(found.seq ?? 0), Number(found.now), cache)
        : null,
    ),
    loadFrontierGates(tx, goalId),
    loadAvailableCapabilities(tx, goalId),
    loadMergedPullRequests(tx, goalId),
  ]);
  if (!agent?.active || goalTodos === null) return unknownAgent(goalId, agentId);
  const { live: todos, retired, lineage } = goalTodos;
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
      lineage,
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

/**
 * The agent: whether it is active, its capabilities and workspace; and the goal's work
 * sequence and the read's clock (now(), epoch microseconds), for loadGoalTodos.
 */
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
    now: number | string;
  }>(
    await tx.execute(sql`select ${activeAgentSql(goalId, agentId)} as active,
      (select ${c.capabilities} from ${c}
        where ${c.goalId} = ${goalId} and ${c.agentId} = ${agentId}) as capabilities,
      ${workSeqSql(goalId)}::text as seq,
      ws.repository as workspace_repository, ws.worktree as workspace_worktree,
      ws.revision as workspace_revision,
      to_char(ws.declared_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
        as workspace_declared_at,
      ${visionCheckpointMissingSql(goalId, agentId)} as vision_checkpoint_missing,
      ${nowSql} as now
      from (select 1) one
      left join lateral (select ${w.repository} as repository, ${w.worktree} as worktree,
          ${w.revision} as revision, ${w.declaredAt} as declared_at
        from ${w} where ${w.goalId} = ${goalId} and ${w.agentId} = ${agentId}) ws on true`),
  );
  return agent;
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
