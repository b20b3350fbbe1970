/**
 * The work graph service: todos, claims, leases, lifecycle, gates, visions, capabilities and
 * the frontier. Plain functions over (db, caller, input); no GraphQL here.
 *
 * Every write runs in one transaction that first moves the goal's work sequence: that row
 * lock serializes the goal's work writes, so the checks that follow (claims, fences, cycles)
 * see the state they change. A refusal found inside the transaction rolls it back, so an
 * expected refusal writes nothing, not even the sequence.
 */

import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Actor, Caller } from '../core/caller.ts';
import { ForbiddenError, InputError } from '../core/errors.ts';
import type { Tagged } from '../core/results.ts';
import { type Listing, tag } from '../core/results.ts';
import type { ScopeGap } from '../core/scope.ts';
import { refuse, transactOrRefuse } from '../core/transaction.ts';
import {
  boundedList,
  LIMITS,
  oneOf,
  unique,
  validateId,
  validateOptionalId,
  validateText,
} from '../core/validate.ts';
import type { Db, Queryable, Tx } from '../db/database.ts';
import { rowsOf, textArray } from '../db/sql.ts';
import { appendEvent, gateEvent, todoTransitionEvent } from '../ledger/append.ts';
import { type UnknownAgent, unknownAgent } from '../registry/registry.ts';
import { activeAgentSql, checkGoalScope } from '../registry/scope.ts';
import {
  computeFrontier,
  type FrontierRow,
  formatDecisionScope,
  parseDecisionScope,
  parseResumeCondition,
  type ResumeCondition,
  type Retired,
  validateScopeKey,
} from './rules.ts';
import {
  type AgentCapabilities,
  type ContinuationPolicy,
  capabilitiesTable,
  continuationPolicies,
  type GateDecision,
  type GateGranularity,
  type GateKind,
  type GateRow,
  gateDecisions,
  gateGranularities,
  gateKinds,
  gatesTable,
  type TaskClass,
  type TodoRow,
  type TodoStatus,
  type TodoTransitionKind,
  type TodoTransitionRow,
  taskClasses,
  todoStatuses,
  todosTable,
  todoTransitionsTable,
  type Vision,
  visionsTable,
  workSeqsTable,
} from './tables.ts';

// ---- values --------------------------------------------------------------------------

export type LeaseState = 'ACTIVE' | 'EXPIRED' | 'NONE';
export type GateState = 'OPEN' | 'GRANTED' | 'DENIED' | 'EXPIRED';

/** A todo row plus its lease state, computed from `lease_expires_at` vs now() in SQL. */
export type Todo = TodoRow & { readonly leaseState: LeaseState };
/** A gate row plus its state, computed from `expires_at` vs now() in SQL. */
export type Gate = GateRow & { readonly state: GateState };

/** Who performed a write: the caller's kind and the agent it acted as (if any). */
export interface Lease {
  readonly type: 'Lease';
  readonly goalId: string;
  readonly todoId: string;
  readonly state: LeaseState;
  readonly holder: string | null;
  /** The fence of the current (or last) lease, as a decimal string; "0" when never leased. */
  readonly fence: string;
  readonly expiresAt: Date | null;
}

export interface UnknownTodo {
  readonly type: 'UnknownTodo';
  readonly goalId: string;
  readonly todoId: string;
}
export interface ClaimedByOther {
  readonly type: 'ClaimedByOther';
  readonly goalId: string;
  readonly todoId: string;
  readonly owner: string;
  readonly claimedAt: Date | null;
}
export interface IllegalTransition {
  readonly type: 'IllegalTransition';
  readonly goalId: string;
  readonly todoId: string;
  readonly from: TodoStatus;
  readonly attempted: TodoTransitionKind;
}
export interface LeaseHeld {
  readonly type: 'LeaseHeld';
  readonly goalId: string;
  readonly todoId: string;
  /** The active lease in the way. */
  readonly lease: Lease;
}
export interface StaleFence {
  readonly type: 'StaleFence';
  readonly goalId: string;
  readonly todoId: string;
  /** The fence the caller presented. */
  readonly fence: string;
  /** The current lease, which the caller does not hold. */
  readonly lease: Lease;
}
export interface UnknownGate {
  readonly type: 'UnknownGate';
  readonly goalId: string;
  readonly gateId: string;
}
export interface GateNotOpen {
  readonly type: 'GateNotOpen';
  readonly gate: Gate;
}

/** Refusals every write on an existing todo can answer with. */
export type TodoRefusal =
  | ScopeGap
  | UnknownAgent
  | UnknownTodo
  | ClaimedByOther
  | IllegalTransition;

export function leaseOf(
  todo: Pick<
    Todo,
    'goalId' | 'id' | 'leaseState' | 'leaseHolder' | 'leaseFence' | 'leaseExpiresAt'
  >,
): Lease {
  const held = todo.leaseState !== 'NONE';
  return {
    type: 'Lease',
    goalId: todo.goalId,
    todoId: todo.id,
    state: todo.leaseState,
    holder: held ? todo.leaseHolder : null,
    fence: String(todo.leaseFence),
    expiresAt: held ? todo.leaseExpiresAt : null,
  };
}

// ---- SQL pieces ----------------------------------------------------------------------

const leaseStateSql = sql<LeaseState>`case
  when ${todosTable.leaseHolder} is null then 'NONE'
  when ${todosTable.leaseExpiresAt} > now() then 'ACTIVE'
  else 'EXPIRED' end`;
const todoColumns = { ...getTableColumns(todosTable), leaseState: leaseStateSql };

const gateStateSql = sql<GateState>`case
  when ${gatesTable.expiresAt} is not null and ${gatesTable.expiresAt} <= now() then 'EXPIRED'
  when ${gatesTable.decision} is null then 'OPEN'
  else ${gatesTable.decision} end`;
const gateColumns = { ...getTableColumns(gatesTable), state: gateStateSql };

// ---- input validation ----------------------------------------------------------------

/** Relative, credential-free references: no absolute or home paths, no file: URLs. */
function validateRelativeRef(field: string, value: string, max: number): string {
  const ref = validateText(field, value, max);
  if (/^([/\\~]|[A-Za-z]:[/\\]|file:)/i.test(ref)) {
    throw new InputError(`${field}: "${ref}" must be relative, not an absolute path`, field);
  }
  if (/\s/.test(ref)) throw new InputError(`${field}: "${ref}" must not contain spaces`, field);
  return ref;
}

function validateWriteScope(field: string, value: string): string {
  const scope = validateRelativeRef(field, value, LIMITS.writeScope);
  if (scope.split('/').includes('..')) {
    throw new InputError(`${field}: "${scope}" must not leave the repository ('..')`, field);
  }
  return scope;
}

function validateFence(value: string): bigint {
  if (!/^\d{1,19}$/.test(value)) {
    throw new InputError('fence must be the decimal fence token acquireLease returned', 'fence');
  }
  return BigInt(value);
}

function validateTtl(ttlMs: number): number {
  if (!Number.isInteger(ttlMs) || ttlMs < 1 || ttlMs > LIMITS.maxTtlMs) {
    throw new InputError(`ttlMs must be an integer from 1 to ${LIMITS.maxTtlMs}`, 'ttlMs');
  }
  return ttlMs;
}

/** What a todo is, as given to createTodo, or as a successor or replacement. */
export interface TodoSpecInput {
  title: string;
  taskClass: string;
  priority?: number | null;
  dependsOn?: readonly string[] | null;
  resumeWhen?: readonly string[] | null;
  requiredDecisionScopes?: readonly string[] | null;
  requiredCapability?: string | null;
  writeScope?: readonly string[] | null;
  continuationPolicy?: string | null;
}

interface TodoSpec {
  title: string;
  taskClass: TaskClass;
  priority: number;
  dependsOn: string[];
  resumeWhen: ResumeCondition[];
  requiredDecisionScopes: string[];
  requiredCapability: string | null;
  writeScope: string[];
  continuationPolicy: ContinuationPolicy;
}

function validateSpec(input: TodoSpecInput, prefix = ''): TodoSpec {
  const f = (name: string) => `${prefix}${name}`;
  const priority = input.priority ?? 0;
  if (!Number.isInteger(priority) || priority < 0 || priority > LIMITS.maxPriority) {
    throw new InputError(
      `${f('priority')} must be an integer from 0 to ${LIMITS.maxPriority}`,
      f('priority'),
    );
  }
  return {
    title: validateText(f('title'), input.title, LIMITS.title),
    taskClass: oneOf(f('taskClass'), input.taskClass, taskClasses),
    priority,
    dependsOn: unique(
      boundedList(f('dependsOn'), input.dependsOn, LIMITS.dependsOn, (v) =>
        validateId(f('dependsOn'), v),
      ),
    ),
    resumeWhen: validateResumeWhen(f('resumeWhen'), input.resumeWhen),
    requiredDecisionScopes: unique(
      boundedList(
        f('requiredDecisionScopes'),
        input.requiredDecisionScopes,
        LIMITS.listEntries,
        (v) => formatDecisionScope(parseDecisionScope(f('requiredDecisionScopes'), v)),
      ),
    ),
    requiredCapability: validateOptionalId(f('requiredCapability'), input.requiredCapability),
    writeScope: unique(
      boundedList(f('writeScope'), input.writeScope, LIMITS.listEntries, (v) =>
        validateWriteScope(f('writeScope'), v),
      ),
    ),
    continuationPolicy: oneOf(
      f('continuationPolicy'),
      input.continuationPolicy ?? 'INDEPENDENT_HANDOFF',
      continuationPolicies,
    ),
  };
}

function validateResumeWhen(
  field: string,
  values: readonly string[] | null | undefined,
): ResumeCondition[] {
  const parsed = boundedList(field, values, LIMITS.listEntries, (v) =>
    parseResumeCondition(field, v),
  );
  return parsed.filter((c, i) => parsed.findIndex((d) => d.text === c.text) === i);
}

// ---- transactions, actors and authority ----------------------------------------------

/**
 * Runs a work write: scope, then the acting agent, then the goal's sequence lock, then
 * `body`. Refusals before the lock write nothing; refusals after it roll back.
 */
async function workWrite<T>(
  db: Db,
  caller: Caller,
  goalId: string,
  namedAgent: string | null,
  body: (tx: Tx, actor: Actor, seq: bigint) => Promise<T>,
  needsAgent = false,
): Promise<T | ScopeGap | UnknownAgent> {
  return transactOrRefuse<T | ScopeGap | UnknownAgent>(db, async (tx) => {
    const gap = await checkGoalScope(tx, caller, goalId);
    if (gap) return gap;
    const actor = await resolveActor(tx, caller, goalId, namedAgent);
    if (actor.type === 'UnknownAgent') return actor;
    if (needsAgent && actor.actor.agentId === null) {
      throw new InputError(`a ${caller.kind} caller must name the agent it acts for`, 'agentId');
    }
    const seq = await moveWorkSeq(tx, goalId);
    return body(tx, actor.actor, seq);
  });
}

/**
 * Moves the goal's work sequence, taking the row lock that serializes work writes. Writes
 * that also append to the ledger take this lock before the ledger head (one lock order).
 */
export async function moveWorkSeq(tx: Tx, goalId: string): Promise<bigint> {
  const [row] = await tx
    .insert(workSeqsTable)
    .values({ goalId, seq: 1n })
    .onConflictDoUpdate({
      target: workSeqsTable.goalId,
      set: { seq: sql`${workSeqsTable.seq} + 1` },
    })
    .returning({ seq: workSeqsTable.seq });
  if (!row) throw new Error('work sequence did not move');
  return row.seq;
}

/**
 * The agent a write acts as. A PEER acts as its own agent, always (naming another is
 * forbidden); an ADMIN or STEWARD may name an active agent of the goal, or act as itself.
 */
export async function resolveActor(
  q: Queryable,
  caller: Caller,
  goalId: string,
  named: string | null,
): Promise<{ type: 'Actor'; actor: Actor } | UnknownAgent> {
  const base = { kind: caller.kind, credentialId: caller.credentialId };
  switch (caller.kind) {
    case 'PEER':
      if (named !== null && named !== caller.agentId) {
        throw new ForbiddenError('a PEER acts as its own agent: agentId may only name itself');
      }
      return { type: 'Actor', actor: { ...base, agentId: caller.agentId } };
    case 'ADMIN':
    case 'STEWARD':
      if (named === null) return { type: 'Actor', actor: { ...base, agentId: null } };
      if (!(await isActiveAgent(q, goalId, named))) return unknownAgent(goalId, named);
      return { type: 'Actor', actor: { ...base, agentId: named } };
    case 'PROVIDER':
      throw new ForbiddenError('a PROVIDER may not write the work graph');
  }
}

async function isActiveAgent(q: Queryable, goalId: string, agentId: string): Promise<boolean> {
  const [row] = rowsOf<{ active: boolean }>(
    await q.execute(sql`select ${activeAgentSql(goalId, agentId)} as active`),
  );
  return row?.active === true;
}

const overrides = (actor: Actor) => actor.kind === 'ADMIN' || actor.kind === 'STEWARD';
const isFinal = (status: TodoStatus) =>
  status === 'DONE' || status === 'SUPERSEDED' || status === 'CLOSED_NO_FOLLOW_UP';

/** Lifecycle authority: the claimant, anyone while unclaimed, or an ADMIN or STEWARD. */
function checkLifecycleAuthority(todo: Todo, actor: Actor): void {
  if (todo.claimedBy !== null && todo.claimedBy !== actor.agentId && !overrides(actor)) {
    refuse(claimedByOther(todo));
  }
}

const claimedByOther = (todo: Todo): ClaimedByOther => ({
  type: 'ClaimedByOther',
  goalId: todo.goalId,
  todoId: todo.id,
  owner: todo.claimedBy as string,
  claimedAt: todo.claimedAt,
});

function checkLive(todo: Todo, attempted: TodoTransitionKind): void {
  if (isFinal(todo.status)) refuse(illegal(todo, attempted));
}

const illegal = (todo: Todo, attempted: TodoTransitionKind): IllegalTransition => ({
  type: 'IllegalTransition',
  goalId: todo.goalId,
  todoId: todo.id,
  from: todo.status,
  attempted,
});

async function loadTodo(tx: Tx, goalId: string, todoId: string): Promise<Todo> {
  const [todo] = await tx
    .select(todoColumns)
    .from(todosTable)
    .where(and(eq(todosTable.goalId, goalId), eq(todosTable.id, todoId)));
  return todo ?? refuse({ type: 'UnknownTodo', goalId, todoId } satisfies UnknownTodo);
}

/** Updates a todo, stamps who and when, and appends the transition, in the caller's tx. */
async function transition(
  tx: Tx,
  seq: bigint,
  actor: Actor,
  todo: Todo,
  kind: TodoTransitionKind,
  set: PgUpdateSetSource<typeof todosTable>,
  detail: Record<string, unknown> = {},
): Promise<Todo> {
  const [updated] = await tx
    .update(todosTable)
    .set({
      ...set,
      updatedAt: sql`now()`,
      updatedByKind: actor.kind,
      updatedByAgent: actor.agentId,
    })
    .where(eq(todosTable.id, todo.id))
    .returning(todoColumns);
  if (!updated) throw new Error(`todo ${todo.id} vanished inside its transaction`);
  await recordTransition(tx, seq, actor, updated, kind, todo.status, detail);
  return updated;
}

async function recordTransition(
  tx: Tx,
  seq: bigint,
  actor: Actor,
  todo: Todo,
  kind: TodoTransitionKind,
  from: TodoStatus | null,
  detail: Record<string, unknown>,
): Promise<void> {
  await tx.insert(todoTransitionsTable).values({
    goalId: todo.goalId,
    todoId: todo.id,
    seq,
    kind,
    fromStatus: from,
    toStatus: todo.status,
    actorKind: actor.kind,
    actorAgent: actor.agentId,
    credentialId: actor.credentialId,
    detail,
  });
  await appendEvent(tx, todoTransitionEvent(actor, todo, kind));
}

/** Clears an occupancy lease: work that leaves the frontier is no longer occupied. */
const leaveFrontier = { closedAt: sql`now()`, leaseHolder: null, leaseExpiresAt: null } as const;

/**
 * Checks that every todo and gate a spec or condition list names exists in the goal, that
 * none names `self`, and (for dependencies) that no cycle would form. Throws InputError.
 */
async function checkReferences(
  tx: Tx,
  goalId: string,
  self: string | null,
  dependsOn: readonly string[],
  resumeWhen: readonly ResumeCondition[],
): Promise<void> {
  const todoIds = unique([
    ...dependsOn,
    ...resumeWhen.flatMap((c) => (c.kind === 'todo_done' ? [c.todoId] : [])),
  ]);
  const gateIds = unique(resumeWhen.flatMap((c) => (c.kind === 'gate_resolved' ? [c.gateId] : [])));
  if (self !== null && todoIds.includes(self)) {
    throw new InputError(`todo ${self} cannot depend on or wait for itself`, 'dependsOn');
  }
  const [found] = rowsOf<{ todos: string[]; gates: string[] }>(
    await tx.execute(sql`select
      array(select id from todos where goal_id = ${goalId} and id = any(${textArray(todoIds)})) as todos,
      array(select id from gates where goal_id = ${goalId} and id = any(${textArray(gateIds)})) as gates`),
  );
  const missingTodos = todoIds.filter((id) => !found?.todos.includes(id));
  if (missingTodos.length > 0) {
    throw new InputError(`unknown todo in this goal: ${missingTodos.join(', ')}`, 'dependsOn');
  }
  const missingGates = gateIds.filter((id) => !found?.gates.includes(id));
  if (missingGates.length > 0) {
    throw new InputError(`unknown gate in this goal: ${missingGates.join(', ')}`, 'resumeWhen');
  }
  if (self === null || dependsOn.length === 0) return;
  // Everything the new dependencies reach, transitively; a cycle is `self` among them.
  const [cycle] = rowsOf<{ cycle: boolean }>(
    await tx.execute(sql`with recursive reach(id) as (
        select unnest(${textArray(dependsOn)})
        union
        select d.id from reach r
          join todos t on t.id = r.id and t.goal_id = ${goalId}
          cross join lateral unnest(t.depends_on) as d(id)
      ) select exists (select 1 from reach where id = ${self}) as cycle`),
  );
  if (cycle?.cycle) {
    throw new InputError(
      `dependsOn would make a cycle: todo ${self} is already a dependency of one of them`,
      'dependsOn',
    );
  }
}

async function insertTodo(
  tx: Tx,
  seq: bigint,
  actor: Actor,
  goalId: string,
  spec: TodoSpec,
  lineage: { successorOf?: string; claimedBy?: string | null; via?: string } = {},
): Promise<Todo> {
  const claimedBy = lineage.claimedBy ?? null;
  const [created] = await tx
    .insert(todosTable)
    .values({
      id: `todo_${randomUUID()}`,
      goalId,
      title: spec.title,
      taskClass: spec.taskClass,
      priority: spec.priority,
      dependsOn: spec.dependsOn,
      resumeWhen: spec.resumeWhen.map((c) => c.text),
      requiredDecisionScopes: spec.requiredDecisionScopes,
      requiredCapability: spec.requiredCapability,
      writeScope: spec.writeScope,
      continuationPolicy: spec.continuationPolicy,
      successorOf: lineage.successorOf ?? null,
      claimedBy,
      claimedAt: claimedBy === null ? null : sql`now()`,
      createdByKind: actor.kind,
      createdByAgent: actor.agentId,
      updatedByKind: actor.kind,
      updatedByAgent: actor.agentId,
    })
    .returning(todoColumns);
  if (!created) throw new Error('todo was written but cannot be read');
  await recordTransition(tx, seq, actor, created, 'CREATE', null, {
    ...(lineage.via ? { via: lineage.via } : {}),
    ...(lineage.successorOf ? { successorOf: lineage.successorOf } : {}),
    ...(claimedBy ? { claimedBy } : {}),
  });
  return created;
}

/**
 * Who owns work created to continue `todo` (its successor or replacement): the same agent
 * under SAME_AGENT_NON_DELIVERY, nobody (any qualified peer may claim it) otherwise.
 */
function continuationOwner(todo: Todo, actor: Actor): string | null {
  return todo.continuationPolicy === 'SAME_AGENT_NON_DELIVERY'
    ? (todo.claimedBy ?? actor.agentId)
    : null;
}

// ---- todos ---------------------------------------------------------------------------

export interface CreateTodoInput extends TodoSpecInput {
  goalId: string;
  agentId?: string | null;
}

export type CreateTodoResult = Tagged<'Todo', Todo> | ScopeGap | UnknownAgent;

export async function createTodo(
  db: Db,
  caller: Caller,
  input: CreateTodoInput,
): Promise<CreateTodoResult> {
  const goalId = validateId('goalId', input.goalId);
  const agentId = validateOptionalId('agentId', input.agentId);
  const spec = validateSpec(input);
  return workWrite(db, caller, goalId, agentId, async (tx, actor, seq) => {
    await checkReferences(tx, goalId, null, spec.dependsOn, spec.resumeWhen);
    return tag('Todo', await insertTodo(tx, seq, actor, goalId, spec));
  });
}

/** Names one todo and (for ADMIN/STEWARD) the agent the caller acts for. */
export interface TodoActionInput {
  goalId: string;
  todoId: string;
  agentId?: string | null;
}

function validateAction(input: TodoActionInput) {
  return {
    goalId: validateId('goalId', input.goalId),
    todoId: validateId('todoId', input.todoId),
    agentId: validateOptionalId('agentId', input.agentId),
  };
}

export type TodoResult = Tagged<'Todo', Todo> | TodoRefusal;

/** Replaces a live todo's dependencies; unknown ids and cycles are refused as bad input. */
export async function setDependencies(
  db: Db,
  caller: Caller,
  input: TodoActionInput & { dependsOn: readonly string[] },
): Promise<TodoResult> {
  const { goalId, todoId, agentId } = validateAction(input);
  const dependsOn = unique(
    boundedList('dependsOn', input.dependsOn, LIMITS.dependsOn, (v) => validateId('dependsOn', v)),
  );
  return workWrite(db, caller, goalId, agentId, async (tx, actor, seq) => {
    const todo = await loadTodo(tx, goalId, todoId);
    checkLive(todo, 'SET_DEPENDENCIES');
    checkLifecycleAuthority(todo, actor);
    await checkReferences(tx, goalId, todoId, dependsOn, []);
    return tag(
      'Todo',
      await transition(tx, seq, actor, todo, 'SET_DEPENDENCIES', { dependsOn }, { dependsOn }),
    );
  });
}

// ---- claims --------------------------------------------------------------------------

/**
 * Makes the acting agent the todo's soft owner. Claiming your own claim again changes
 * nothing; another agent's claim is refused with the owner named.
 */
export async function claimTodo(
  db: Db,
  caller: Caller,
  input: TodoActionInput,
): Promise<TodoResult> {
  const { goalId, todoId, agentId } = validateAction(input);
  return workWrite(
    db,
    caller,
    goalId,
    agentId,
    async (tx, actor, seq) => {
      const todo = await loadTodo(tx, goalId, todoId);
      checkLive(todo, 'CLAIM');
      if (todo.claimedBy === actor.agentId) refuse(tag('Todo', todo));
      if (todo.claimedBy !== null) refuse(claimedByOther(todo));
      return tag(
        'Todo',
        await transition(tx, seq, actor, todo, 'CLAIM', {
          claimedBy: actor.agentId,
          claimedAt: sql`now()`,
        }),
      );
    },
    true,
  );
}

/** Drops the claim: by its owner, or by an ADMIN or STEWARD (reassignment). The lease is untouched. */
export async function releaseClaim(
  db: Db,
  caller: Caller,
  input: TodoActionInput,
): Promise<TodoResult> {
  const { goalId, todoId, agentId } = validateAction(input);
  return workWrite(db, caller, goalId, agentId, async (tx, actor, seq) => {
    const todo = await loadTodo(tx, goalId, todoId);
    checkLive(todo, 'RELEASE_CLAIM');
    if (todo.claimedBy === null) refuse(tag('Todo', todo));
    checkLifecycleAuthority(todo, actor);
    return tag(
      'Todo',
      await transition(
        tx,
        seq,
        actor,
        todo,
        'RELEASE_CLAIM',
        { claimedBy: null, claimedAt: null },
        { previousOwner: todo.claimedBy },
      ),
    );
  });
}

// ---- leases --------------------------------------------------------------------------

export type AcquireLeaseResult = Lease | TodoRefusal | LeaseHeld;
export type LeaseCasResult =
  | Lease
  | ScopeGap
  | UnknownAgent
  | UnknownTodo
  | IllegalTransition
  | StaleFence;

/**
 * Takes the todo's occupancy lease for `ttlMs` and returns a new fence token, when no
 * active lease exists (an expired one is taken over). Refused while another agent claims
 * the todo. A lease grants no authority: gates still hold the todo back.
 */
export async function acquireLease(
  db: Db,
  caller: Caller,
  input: TodoActionInput & { ttlMs: number },
): Promise<AcquireLeaseResult> {
  const { goalId, todoId, agentId } = validateAction(input);
  const ttlMs = validateTtl(input.ttlMs);
  return workWrite(
    db,
    caller,
    goalId,
    agentId,
    async (tx, actor, seq) => {
      const todo = await loadTodo(tx, goalId, todoId);
      checkLive(todo, 'ACQUIRE_LEASE');
      if (todo.claimedBy !== null && todo.claimedBy !== actor.agentId) {
        refuse(claimedByOther(todo));
      }
      if (todo.leaseState === 'ACTIVE') {
        refuse({ type: 'LeaseHeld', goalId, todoId, lease: leaseOf(todo) } satisfies LeaseHeld);
      }
      const updated = await transition(
        tx,
        seq,
        actor,
        todo,
        'ACQUIRE_LEASE',
        {
          leaseHolder: actor.agentId,
          leaseFence: sql`${todosTable.leaseFence} + 1`,
          leaseExpiresAt: sql`now() + ${ttlMs} * interval '1 millisecond'`,
        },
        {
          ttlMs,
          fence: String(todo.leaseFence + 1n),
          ...(todo.leaseState === 'EXPIRED' ? { tookOverFrom: todo.leaseHolder } : {}),
        },
      );
      return leaseOf(updated);
    },
    true,
  );
}

/** Compare-and-set on the fence: the current fence, held by the acting agent (or an ADMIN/STEWARD). */
function checkFence(todo: Todo, fence: bigint, actor: Actor): void {
  const current = todo.leaseFence === fence && todo.leaseHolder !== null;
  if (current && (todo.leaseHolder === actor.agentId || overrides(actor))) return;
  refuse({
    type: 'StaleFence',
    goalId: todo.goalId,
    todoId: todo.id,
    fence: String(fence),
    lease: leaseOf(todo),
  } satisfies StaleFence);
}

/**
 * Extends the lease to now + `ttlMs`, only for the holder of the current fence. A lease
 * that expired but was not taken over still has the current fence and can be renewed;
 * once another agent acquired it, the old fence is stale.
 */
export async function renewLease(
  db: Db,
  caller: Caller,
  input: TodoActionInput & { fence: string; ttlMs: number },
): Promise<LeaseCasResult> {
  const { goalId, todoId, agentId } = validateAction(input);
  const fence = validateFence(input.fence);
  const ttlMs = validateTtl(input.ttlMs);
  return workWrite(db, caller, goalId, agentId, async (tx, actor, seq) => {
    const todo = await loadTodo(tx, goalId, todoId);
    checkLive(todo, 'RENEW_LEASE');
    checkFence(todo, fence, actor);
    const updated = await transition(
      tx,
      seq,
      actor,
      todo,
      'RENEW_LEASE',
      { leaseExpiresAt: sql`now() + ${ttlMs} * interval '1 millisecond'` },
      { ttlMs, fence: String(fence) },
    );
    return leaseOf(updated);
  });
}

/** Ends the lease, only for the holder of the current fence. */
export async function releaseLease(
  db: Db,
  caller: Caller,
  input: TodoActionInput & { fence: string },
): Promise<LeaseCasResult> {
  const { goalId, todoId, agentId } = validateAction(input);
  const fence = validateFence(input.fence);
  return workWrite(db, caller, goalId, agentId, async (tx, actor, seq) => {
    const todo = await loadTodo(tx, goalId, todoId);
    checkLive(todo, 'RELEASE_LEASE');
    checkFence(todo, fence, actor);
    const updated = await transition(
      tx,
      seq,
      actor,
      todo,
      'RELEASE_LEASE',
      { leaseHolder: null, leaseExpiresAt: null },
      { fence: String(fence) },
    );
    return leaseOf(updated);
  });
}

// ---- lifecycle: the only ways work leaves the frontier ------------------------------

export interface CompletedTodo {
  readonly type: 'CompletedTodo';
  readonly todo: Todo;
  readonly successor: Todo | null;
}
export type CompleteTodoResult = CompletedTodo | TodoRefusal;

/**
 * Marks the todo DONE with evidence, and optionally creates its successor in the same
 * transaction (claimed by the same agent under SAME_AGENT_NON_DELIVERY, unclaimed otherwise).
 */
export async function completeTodo(
  db: Db,
  caller: Caller,
  input: TodoActionInput & { evidenceRefs: readonly string[]; successor?: TodoSpecInput | null },
): Promise<CompleteTodoResult> {
  const { goalId, todoId, agentId } = validateAction(input);
  const evidenceRefs = unique(
    boundedList('evidenceRefs', input.evidenceRefs, LIMITS.listEntries, (v) =>
      validateRelativeRef('evidenceRefs', v, LIMITS.evidenceRef),
    ),
  );
  if (evidenceRefs.length === 0) {
    throw new InputError('evidenceRefs must name at least one piece of evidence', 'evidenceRefs');
  }
  const successor = input.successor ? validateSpec(input.successor, 'successor.') : null;
  return workWrite(db, caller, goalId, agentId, async (tx, actor, seq) => {
    const todo = await loadTodo(tx, goalId, todoId);
    checkLive(todo, 'COMPLETE');
    checkLifecycleAuthority(todo, actor);
    if (successor) {
      await checkReferences(tx, goalId, null, successor.dependsOn, successor.resumeWhen);
    }
    const done = await transition(
      tx,
      seq,
      actor,
      todo,
      'COMPLETE',
      { status: 'DONE', evidenceRefs, ...leaveFrontier },
      { evidenceRefs },
    );
    const next = successor
      ? await insertTodo(tx, seq, actor, goalId, successor, {
          successorOf: todo.id,
          claimedBy: continuationOwner(todo, actor),
          via: 'COMPLETE',
        })
      : null;
    return { type: 'CompletedTodo', todo: done, successor: next } satisfies CompletedTodo;
  });
}

export interface SupersededTodo {
  readonly type: 'SupersededTodo';
  readonly todo: Todo;
  readonly replacement: Todo;
}
export type SupersedeTodoResult = SupersededTodo | TodoRefusal;

/**
 * Replaces the todo: it becomes SUPERSEDED (never DONE) with `supersededBy` pointing at the
 * replacement, which is created here or named (a live todo of the same goal). Dependents
 * now wait for the replacement: a dependency is met when its supersede chain ends DONE.
 */
export async function supersedeTodo(
  db: Db,
  caller: Caller,
  input: TodoActionInput & {
    reason: string;
    replacement?: TodoSpecInput | null;
    replacementId?: string | null;
  },
): Promise<SupersedeTodoResult> {
  const { goalId, todoId, agentId } = validateAction(input);
  const reason = validateText('reason', input.reason, LIMITS.reason);
  const replacementId = validateOptionalId('replacementId', input.replacementId);
  const replacement = input.replacement ? validateSpec(input.replacement, 'replacement.') : null;
  if ((replacementId === null) === (replacement === null)) {
    throw new InputError('give exactly one of replacement or replacementId', 'replacement');
  }
  if (replacementId === todoId) {
    throw new InputError('a todo cannot replace itself', 'replacementId');
  }
  return workWrite(db, caller, goalId, agentId, async (tx, actor, seq) => {
    const todo = await loadTodo(tx, goalId, todoId);
    checkLive(todo, 'SUPERSEDE');
    checkLifecycleAuthority(todo, actor);
    let next: Todo;
    if (replacementId !== null) {
      const [named] = await tx
        .select(todoColumns)
        .from(todosTable)
        .where(and(eq(todosTable.goalId, goalId), eq(todosTable.id, replacementId)));
      if (!named) {
        throw new InputError(`unknown todo in this goal: ${replacementId}`, 'replacementId');
      }
      if (isFinal(named.status)) {
        throw new InputError(
          `replacement ${replacementId} is ${named.status}; name a live todo or create one`,
          'replacementId',
        );
      }
      next = named;
    } else {
      const spec = replacement as TodoSpec;
      await checkReferences(tx, goalId, null, spec.dependsOn, spec.resumeWhen);
      next = await insertTodo(tx, seq, actor, goalId, spec, {
        claimedBy: continuationOwner(todo, actor),
        via: 'SUPERSEDE',
      });
    }
    const superseded = await transition(
      tx,
      seq,
      actor,
      todo,
      'SUPERSEDE',
      { status: 'SUPERSEDED', supersededBy: next.id, supersedeReason: reason, ...leaveFrontier },
      { replacement: next.id, reason },
    );
    return { type: 'SupersededTodo', todo: superseded, replacement: next } satisfies SupersededTodo;
  });
}

/**
 * Defers (or blocks) the todo until every condition in `resumeWhen` holds. It stays on the
 * frontier, held by RESUME_CONDITION, then by STALE until someone resumes it after replanning.
 */
export async function deferTodo(
  db: Db,
  caller: Caller,
  input: TodoActionInput & { resumeWhen: readonly string[]; reason?: string | null },
): Promise<TodoResult> {
  const { goalId, todoId, agentId } = validateAction(input);
  const resumeWhen = validateResumeWhen('resumeWhen', input.resumeWhen);
  if (resumeWhen.length === 0) {
    throw new InputError('resumeWhen must name at least one condition', 'resumeWhen');
  }
  const reason = input.reason == null ? null : validateText('reason', input.reason, LIMITS.reason);
  return workWrite(db, caller, goalId, agentId, async (tx, actor, seq) => {
    const todo = await loadTodo(tx, goalId, todoId);
    checkLive(todo, 'DEFER');
    checkLifecycleAuthority(todo, actor);
    await checkReferences(tx, goalId, todoId, [], resumeWhen);
    const conditions = resumeWhen.map((c) => c.text);
    return tag(
      'Todo',
      await transition(
        tx,
        seq,
        actor,
        todo,
        'DEFER',
        { status: 'DEFERRED', resumeWhen: conditions, deferReason: reason },
        { resumeWhen: conditions, reason },
      ),
    );
  });
}

/**
 * Puts a deferred todo back to OPEN: a replanning decision. Its resume conditions stay, so
 * one that does not hold yet still holds it back.
 */
export async function resumeTodo(
  db: Db,
  caller: Caller,
  input: TodoActionInput,
): Promise<TodoResult> {
  const { goalId, todoId, agentId } = validateAction(input);
  return workWrite(db, caller, goalId, agentId, async (tx, actor, seq) => {
    const todo = await loadTodo(tx, goalId, todoId);
    if (todo.status !== 'DEFERRED') refuse(illegal(todo, 'RESUME'));
    checkLifecycleAuthority(todo, actor);
    return tag('Todo', await transition(tx, seq, actor, todo, 'RESUME', { status: 'OPEN' }));
  });
}

/** Closes the todo with no successor, for a stated reason. */
export async function closeNoFollowUp(
  db: Db,
  caller: Caller,
  input: TodoActionInput & { reason: string },
): Promise<TodoResult> {
  const { goalId, todoId, agentId } = validateAction(input);
  const reason = validateText('reason', input.reason, LIMITS.reason);
  return workWrite(db, caller, goalId, agentId, async (tx, actor, seq) => {
    const todo = await loadTodo(tx, goalId, todoId);
    checkLive(todo, 'CLOSE_NO_FOLLOW_UP');
    checkLifecycleAuthority(todo, actor);
    return tag(
      'Todo',
      await transition(
        tx,
        seq,
        actor,
        todo,
        'CLOSE_NO_FOLLOW_UP',
        { status: 'CLOSED_NO_FOLLOW_UP', noFollowUpReason: reason, ...leaveFrontier },
        { reason },
      ),
    );
  });
}

// ---- gates ---------------------------------------------------------------------------

export interface OpenGateInput {
  goalId: string;
  kind: string;
  granularity: string;
  scopeKey: string;
  reason: string;
  expiresAt?: Date | null;
  agentId?: string | null;
}

export type OpenGateResult = Tagged<'Gate', Gate> | ScopeGap | UnknownAgent;

/** Opens a gate: a decision a user or controller must make before covered work may run. */
export async function openGate(
  db: Db,
  caller: Caller,
  input: OpenGateInput,
): Promise<OpenGateResult> {
  const goalId = validateId('goalId', input.goalId);
  const agentId = validateOptionalId('agentId', input.agentId);
  const kind = oneOf('kind', input.kind, gateKinds) as GateKind;
  const granularity = oneOf('granularity', input.granularity, gateGranularities) as GateGranularity;
  const scopeKey = validateScopeKey('scopeKey', input.scopeKey);
  const reason = validateText('reason', input.reason, LIMITS.reason);
  const expiresAt = input.expiresAt ?? null;
  if (expiresAt !== null && !(expiresAt.getTime() > Date.now())) {
    throw new InputError('expiresAt must be in the future', 'expiresAt');
  }
  return workWrite(db, caller, goalId, agentId, async (tx, actor) => {
    const [gate] = await tx
      .insert(gatesTable)
      .values({
        id: `gate_${randomUUID()}`,
        goalId,
        kind,
        granularity,
        scopeKey,
        reason,
        expiresAt,
        openedByKind: actor.kind,
        openedByAgent: actor.agentId,
      })
      .returning(gateColumns);
    if (!gate) throw new Error('gate was written but cannot be read');
    await appendEvent(tx, gateEvent(actor, gate));
    return tag('Gate', gate);
  });
}

export type ResolveGateResult = Tagged<'Gate', Gate> | ScopeGap | UnknownGate | GateNotOpen;

/**
 * Records the decision on a gate. Only an ADMIN or STEWARD (the person's channel) decides:
 * an agent asking for authority never grants it to itself. GRANTED stops the gate covering
 * anything; DENIED keeps it covering its scope until it expires.
 */
export async function resolveGate(
  db: Db,
  caller: Caller,
  input: { goalId: string; gateId: string; decision: string; note?: string | null },
): Promise<ResolveGateResult> {
  if (caller.kind !== 'ADMIN' && caller.kind !== 'STEWARD') {
    throw new ForbiddenError('only an ADMIN or STEWARD resolves gates');
  }
  const goalId = validateId('goalId', input.goalId);
  const gateId = validateId('gateId', input.gateId);
  const decision = oneOf('decision', input.decision, gateDecisions) as GateDecision;
  const note = input.note == null ? null : validateText('note', input.note, LIMITS.reason);
  const result = await workWrite(db, caller, goalId, null, async (tx, actor) => {
    const [gate] = await tx
      .select(gateColumns)
      .from(gatesTable)
      .where(and(eq(gatesTable.goalId, goalId), eq(gatesTable.id, gateId)));
    if (!gate) refuse({ type: 'UnknownGate', goalId, gateId } satisfies UnknownGate);
    if (gate.decision !== null) refuse({ type: 'GateNotOpen', gate } satisfies GateNotOpen);
    const [resolved] = await tx
      .update(gatesTable)
      .set({
        decision,
        decisionNote: note,
        resolvedAt: sql`now()`,
        resolvedByKind: actor.kind,
        resolvedByAgent: actor.agentId,
      })
      .where(eq(gatesTable.id, gateId))
      .returning(gateColumns);
    if (!resolved) throw new Error(`gate ${gateId} vanished inside its transaction`);
    await appendEvent(tx, gateEvent(actor, resolved));
    return tag('Gate', resolved);
  });
  if (result.type === 'UnknownAgent') throw new Error('resolveGate names no agent');
  return result;
}

// ---- visions and capabilities --------------------------------------------------------

export interface SetVisionInput {
  goalId: string;
  agentId?: string | null;
  roleScope: string;
  visionSummary: string;
  acceptanceSummary: string;
  replanTriggerSummary: string;
}

export type SetVisionResult = Tagged<'Vision', Vision> | ScopeGap | UnknownAgent;

/** Replaces the acting agent's vision in the goal: one bounded row per agent. */
export async function setVision(
  db: Db,
  caller: Caller,
  input: SetVisionInput,
): Promise<SetVisionResult> {
  const goalId = validateId('goalId', input.goalId);
  const agentId = validateOptionalId('agentId', input.agentId);
  const values = {
    roleScope: validateText('roleScope', input.roleScope, LIMITS.roleScope),
    visionSummary: validateText('visionSummary', input.visionSummary, LIMITS.summary),
    acceptanceSummary: validateText('acceptanceSummary', input.acceptanceSummary, LIMITS.summary),
    replanTriggerSummary: validateText(
      'replanTriggerSummary',
      input.replanTriggerSummary,
      LIMITS.summary,
    ),
  };
  return workWrite(
    db,
    caller,
    goalId,
    agentId,
    async (tx, actor) => {
      const stamp = {
        ...values,
        updatedAt: sql`now()`,
        updatedByKind: actor.kind,
        updatedByAgent: actor.agentId,
      };
      const [vision] = await tx
        .insert(visionsTable)
        .values({ goalId, agentId: actor.agentId as string, ...stamp })
        .onConflictDoUpdate({ target: [visionsTable.goalId, visionsTable.agentId], set: stamp })
        .returning();
      if (!vision) throw new Error('vision was written but cannot be read');
      return tag('Vision', vision);
    },
    true,
  );
}

/** Vision fields to replace; null keeps the current value. */
export interface VisionPatch {
  roleScope: string | null;
  visionSummary: string | null;
  acceptanceSummary: string | null;
  replanTriggerSummary: string | null;
}

/**
 * Applies `patch` to an agent's vision inside the caller's transaction, which must hold the
 * goal's work sequence lock (moveWorkSeq). An agent with no vision yet needs every field.
 */
export async function patchVision(
  tx: Tx,
  actor: Actor,
  goalId: string,
  agentId: string,
  patch: VisionPatch,
): Promise<Vision> {
  const [current] = await tx
    .select()
    .from(visionsTable)
    .where(and(eq(visionsTable.goalId, goalId), eq(visionsTable.agentId, agentId)));
  const field = (name: keyof VisionPatch, max: number) => {
    const value = patch[name];
    if (value !== null) return validateText(`delta.${name}`, value, max);
    if (current) return current[name];
    throw new InputError(
      `the agent has no vision yet: delta.${name} is required to create it`,
      `delta.${name}`,
    );
  };
  const stamp = {
    roleScope: field('roleScope', LIMITS.roleScope),
    visionSummary: field('visionSummary', LIMITS.summary),
    acceptanceSummary: field('acceptanceSummary', LIMITS.summary),
    replanTriggerSummary: field('replanTriggerSummary', LIMITS.summary),
    updatedAt: sql`now()`,
    updatedByKind: actor.kind,
    updatedByAgent: actor.agentId,
  };
  const [vision] = await tx
    .insert(visionsTable)
    .values({ goalId, agentId, ...stamp })
    .onConflictDoUpdate({ target: [visionsTable.goalId, visionsTable.agentId], set: stamp })
    .returning();
  if (!vision) throw new Error('vision was written but cannot be read');
  return vision;
}

/** Every agent's vision in a goal, by agent id. The caller checks scope (the ledger reads this). */
export function visionsOfGoal(q: Queryable, goalId: string): Promise<Vision[]> {
  return q
    .select()
    .from(visionsTable)
    .where(eq(visionsTable.goalId, goalId))
    .orderBy(asc(visionsTable.agentId));
}

export type SetCapabilitiesResult =
  | Tagged<'AgentCapabilities', AgentCapabilities>
  | ScopeGap
  | UnknownAgent;

/**
 * Replaces the capabilities the acting agent declares in the goal (what its host/runtime
 * can do, e.g. `network`, `gpu`). A declaration checked by the CAPABILITY guard; it grants
 * no authority. An agent that never declared any has none.
 */
export async function setCapabilities(
  db: Db,
  caller: Caller,
  input: { goalId: string; agentId?: string | null; capabilities: readonly string[] },
): Promise<SetCapabilitiesResult> {
  const goalId = validateId('goalId', input.goalId);
  const agentId = validateOptionalId('agentId', input.agentId);
  const capabilities = unique(
    boundedList('capabilities', input.capabilities, LIMITS.capabilities, (v) =>
      validateId('capabilities', v),
    ),
  ).sort();
  return workWrite(
    db,
    caller,
    goalId,
    agentId,
    async (tx, actor) => {
      const stamp = {
        capabilities,
        updatedAt: sql`now()`,
        updatedByKind: actor.kind,
        updatedByAgent: actor.agentId,
      };
      const [row] = await tx
        .insert(capabilitiesTable)
        .values({ goalId, agentId: actor.agentId as string, ...stamp })
        .onConflictDoUpdate({
          target: [capabilitiesTable.goalId, capabilitiesTable.agentId],
          set: stamp,
        })
        .returning();
      if (!row) throw new Error('capabilities were written but cannot be read');
      return tag('AgentCapabilities', row);
    },
    true,
  );
}

// ---- reads ---------------------------------------------------------------------------

export type TodoListing = Listing<Todo> & {
  readonly seq: string;
  readonly omittedRowCount: number;
};

async function currentSeq(q: Queryable, goalId: string): Promise<string> {
  const [row] = await q
    .select({ seq: workSeqsTable.seq })
    .from(workSeqsTable)
    .where(eq(workSeqsTable.goalId, goalId));
  return String(row?.seq ?? 0n);
}

/** The goal's todos, highest priority first, optionally only some statuses. */
export async function listTodos(
  db: Db,
  caller: Caller | null,
  goalId: string,
  options: { statuses?: readonly string[] | null; limit?: number | null } = {},
): Promise<TodoListing> {
  validateId('goalId', goalId);
  const statuses = (options.statuses ?? []).map((s) => oneOf('statuses', s, todoStatuses));
  const limit = options.limit ?? 200;
  if (!Number.isInteger(limit) || limit < 1 || limit > LIMITS.maxTodosPage) {
    throw new InputError(`limit must be an integer from 1 to ${LIMITS.maxTodosPage}`, 'limit');
  }
  const gap = await checkGoalScope(db, caller, goalId);
  if (gap) return { goalId, rows: [], scopeGap: gap, seq: '0', omittedRowCount: 0 };
  return db.transaction(
    async (tx) => {
      const rows = await tx
        .select({ ...todoColumns, total: sql<number>`count(*) over ()`.mapWith(Number) })
        .from(todosTable)
        .where(
          and(
            eq(todosTable.goalId, goalId),
            statuses.length > 0 ? inArray(todosTable.status, statuses) : undefined,
          ),
        )
        .orderBy(desc(todosTable.priority), asc(todosTable.createdAt), asc(todosTable.id))
        .limit(limit);
      const total = rows[0]?.total ?? 0;
      return {
        goalId,
        rows: rows.map(({ total: _, ...todo }) => todo),
        scopeGap: null,
        seq: await currentSeq(tx, goalId),
        omittedRowCount: total - rows.length,
      };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

/** The goal's gates, newest first, each with its state. */
export async function listGates(
  db: Db,
  caller: Caller | null,
  goalId: string,
): Promise<Listing<Gate>> {
  validateId('goalId', goalId);
  const gap = await checkGoalScope(db, caller, goalId);
  if (gap) return { goalId, rows: [], scopeGap: gap };
  const rows = await db
    .select(gateColumns)
    .from(gatesTable)
    .where(eq(gatesTable.goalId, goalId))
    .orderBy(desc(gatesTable.openedAt), asc(gatesTable.id));
  return { goalId, rows, scopeGap: null };
}

export async function listVisions(
  db: Db,
  caller: Caller | null,
  goalId: string,
): Promise<Listing<Vision>> {
  validateId('goalId', goalId);
  const gap = await checkGoalScope(db, caller, goalId);
  if (gap) return { goalId, rows: [], scopeGap: gap };
  return { goalId, rows: await visionsOfGoal(db, goalId), scopeGap: null };
}

/** A todo's transitions, oldest first (empty for a todo that is not in the goal). */
export async function listTransitions(
  db: Db,
  caller: Caller | null,
  goalId: string,
  todoId: string,
): Promise<Listing<TodoTransitionRow>> {
  validateId('goalId', goalId);
  validateId('todoId', todoId);
  const gap = await checkGoalScope(db, caller, goalId);
  if (gap) return { goalId, rows: [], scopeGap: gap };
  const rows = await db
    .select()
    .from(todoTransitionsTable)
    .where(and(eq(todoTransitionsTable.goalId, goalId), eq(todoTransitionsTable.todoId, todoId)))
    .orderBy(asc(todoTransitionsTable.id));
  return { goalId, rows, scopeGap: null };
}

// ---- the frontier --------------------------------------------------------------------

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
  | 'claimedBy'
  | 'leaseHolder'
  | 'leaseFence'
  | 'leaseExpiresAt'
  | 'leaseState'
>;

/**
 * The goal's live todos, narrow and mapped by hand. Decoding thousands of rows is most of
 * the frontier's cost, so it reads only routing columns, in types both drivers decode the
 * same way and cheaply: lists are joined with ',' (validated ids, capabilities and scopes
 * never contain one) and split here, and Dates are built only for the few leased rows.
 */
async function loadLiveTodos(tx: Tx, goalId: string): Promise<FrontierTodo[]> {
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
    claimed_by: string | null;
    lease_holder: string | null;
    lease_fence: string;
    lease_expires_at: string | null;
    lease_state: LeaseState;
  }>(
    await tx.execute(sql`select id, title, task_class, status, priority,
        array_to_string(depends_on, ',') as depends_on,
        array_to_string(resume_when, ',') as resume_when,
        array_to_string(required_decision_scopes, ',') as required_decision_scopes,
        required_capability, claimed_by, lease_holder, lease_fence::text as lease_fence,
        to_char(lease_expires_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
          as lease_expires_at,
        ${leaseStateSql} as lease_state
      from todos
      where goal_id = ${goalId} and status in ('OPEN', 'DEFERRED')
      order by priority desc, created_at, id`),
  );
  const list = (joined: string) => (joined === '' ? [] : joined.split(','));
  return rows.map((row) => ({
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
    claimedBy: row.claimed_by,
    leaseHolder: row.lease_holder,
    leaseFence: BigInt(row.lease_fence),
    leaseExpiresAt: row.lease_expires_at === null ? null : new Date(row.lease_expires_at),
    leaseState: row.lease_state,
  }));
}

export interface Frontier {
  readonly type: 'Frontier';
  readonly goalId: string;
  readonly agentId: string;
  readonly seq: string;
  readonly capabilities: string[];
  readonly rows: FrontierRow<FrontierTodo>[];
}

export type FrontierResult = Frontier | ScopeGap | UnknownAgent;

/**
 * Every live todo of the goal with `runnable` and the guards holding it back for `agentId`
 * (a PEER's own agent when omitted). Read from one snapshot in a constant number of
 * statements whatever the number of todos (the scope check, then five loads sent together),
 * then computed in rules.ts.
 */
export async function frontier(
  db: Db,
  caller: Caller | null,
  goalId: string,
  agentIdArg?: string | null,
): Promise<FrontierResult> {
  validateId('goalId', goalId);
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
      const [agent, todos, retired, gates, available] = await Promise.all([
        loadAgent(tx, goalId, agentId),
        loadLiveTodos(tx, goalId),
        loadRetired(tx, goalId),
        loadFrontierGates(tx, goalId),
        loadAvailableCapabilities(tx, goalId),
      ]);
      if (!agent?.active) return unknownAgent(goalId, agentId);
      const capabilities = agent.capabilities ?? [];
      return {
        type: 'Frontier',
        goalId,
        agentId,
        seq: agent.seq ?? '0',
        capabilities,
        rows: computeFrontier({
          agentId,
          capabilities: new Set(capabilities),
          todos,
          retired,
          gates,
          availableCapabilities: available,
        }),
      } satisfies Frontier;
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

async function loadAgent(tx: Tx, goalId: string, agentId: string) {
  const [agent] = rowsOf<{ active: boolean; capabilities: string[] | null; seq: string | null }>(
    await tx.execute(sql`select ${activeAgentSql(goalId, agentId)} as active,
      (select capabilities from agent_capabilities
        where goal_id = ${goalId} and agent_id = ${agentId}) as capabilities,
      (select seq::text from work_seqs where goal_id = ${goalId}) as seq`),
  );
  return agent;
}

/** The goal's superseded and closed todos: three narrow columns, for lineage. */
async function loadRetired(tx: Tx, goalId: string): Promise<Map<string, Retired>> {
  const rows = rowsOf<{ id: string; status: Retired['status']; superseded_by: string | null }>(
    await tx.execute(sql`select id, status, superseded_by from todos
      where goal_id = ${goalId} and status in ('SUPERSEDED', 'CLOSED_NO_FOLLOW_UP')`),
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
  const rows = rowsOf<{ capability: string }>(
    await tx.execute(sql`select distinct cap as capability
      from agent_capabilities c cross join lateral unnest(c.capabilities) as cap
      where c.goal_id = ${goalId} and ${activeAgentSql(sql`c.goal_id`, sql`c.agent_id`)}`),
  );
  return new Set(rows.map((row) => row.capability));
}
