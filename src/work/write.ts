/**
 * How every work write runs. One transaction that first moves the goal's work sequence: that
 * row lock serializes the goal's work writes, so the checks that follow (claims, fences,
 * cycles) see the state they change. A refusal found inside the transaction rolls it back,
 * so an expected refusal writes nothing, not even the sequence.
 */

import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { PgUpdateSetSource } from 'drizzle-orm/pg-core';
import type { Actor, Caller } from '../core/caller.ts';
import { InputError } from '../core/errors.ts';
import type { ScopeGap } from '../core/scope.ts';
import { refuse, transactOrRefuse } from '../core/transaction.ts';
import { unique } from '../core/validate.ts';
import type { Db, Tx } from '../db/database.ts';
import { rowsOf, textArray } from '../db/sql.ts';
import { nextSeq } from '../events/sequence.ts';
import { appendEvent, type LedgerEvent, type NewLedgerEvent } from '../ledger/append.ts';
import { resolveActor } from '../registry/actor.ts';
import type { UnknownAgent } from '../registry/registry.ts';
import { checkGoalScope } from '../registry/scope.ts';
import { todoTransitionEvent } from './events.ts';
import type { ResumeCondition } from './rules.ts';
import type { TodoSpec } from './spec.ts';
import { todoColumns } from './sql.ts';
import {
  gatesTable,
  type TodoStatus,
  type TodoTransitionKind,
  todosTable,
  todoTransitionsTable,
} from './tables.ts';
import type { ClaimedByOther, IllegalTransition, Todo, UnknownTodo } from './values.ts';

/**
 * Runs a work write: scope, then the acting agent, then the goal's sequence lock, then
 * `body`. Refusals before the lock write nothing; refusals after it roll back.
 */
export async function workWrite<T>(
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
 * Moves the goal's work sequence (its `work` stream head), taking the row lock that
 * serializes work writes. Writes that also append to the ledger take this lock before the
 * ledger head (one lock order).
 */
export function moveWorkSeq(tx: Tx, goalId: string): Promise<bigint> {
  return nextSeq(tx, goalId, 'work');
}

export const overrides = (actor: Actor) => actor.kind === 'ADMIN' || actor.kind === 'STEWARD';
export const isFinal = (status: TodoStatus) =>
  status === 'DONE' || status === 'SUPERSEDED' || status === 'CLOSED_NO_FOLLOW_UP';

/** Lifecycle authority: the claimant, anyone while unclaimed, or an ADMIN or STEWARD. */
export function checkLifecycleAuthority(todo: Todo, actor: Actor): void {
  if (todo.claimedBy !== null && todo.claimedBy !== actor.agentId && !overrides(actor)) {
    refuse(claimedByOther(todo));
  }
}

export const claimedByOther = (todo: Todo): ClaimedByOther => ({
  type: 'ClaimedByOther',
  goalId: todo.goalId,
  todoId: todo.id,
  owner: todo.claimedBy as string,
  claimedAt: todo.claimedAt,
});

export function checkLive(todo: Todo, attempted: TodoTransitionKind): void {
  if (isFinal(todo.status)) refuse(illegal(todo, attempted));
}

export const illegal = (todo: Todo, attempted: TodoTransitionKind): IllegalTransition => ({
  type: 'IllegalTransition',
  goalId: todo.goalId,
  todoId: todo.id,
  from: todo.status,
  attempted,
});

export async function loadTodo(tx: Tx, goalId: string, todoId: string): Promise<Todo> {
  const [todo] = await tx
    .select(todoColumns)
    .from(todosTable)
    .where(and(eq(todosTable.goalId, goalId), eq(todosTable.id, todoId)));
  return todo ?? refuse({ type: 'UnknownTodo', goalId, todoId } satisfies UnknownTodo);
}

/** Updates a todo, stamps who and when, and appends the transition, in the caller's tx. */
export async function transition(
  tx: Tx,
  seq: bigint,
  actor: Actor,
  todo: Todo,
  kind: TodoTransitionKind,
  set: PgUpdateSetSource<typeof todosTable>,
  detail: Record<string, unknown> = {},
): Promise<Todo> {
  return (await transitionWithEvent(tx, seq, actor, todo, kind, set, detail)).todo;
}

/**
 * `transition`, answering the ledger row it appended too. `event` replaces the TODO_UPDATE
 * row the transition appends by default (a handoff appends its HANDOFF row instead).
 */
export async function transitionWithEvent(
  tx: Tx,
  seq: bigint,
  actor: Actor,
  todo: Todo,
  kind: TodoTransitionKind,
  set: PgUpdateSetSource<typeof todosTable>,
  detail: Record<string, unknown> = {},
  event?: (updated: Todo) => NewLedgerEvent,
): Promise<{ todo: Todo; event: LedgerEvent }> {
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
  const appended = await recordTransition(
    tx,
    seq,
    actor,
    updated,
    kind,
    todo.status,
    detail,
    event?.(updated),
  );
  return { todo: updated, event: appended };
}

async function recordTransition(
  tx: Tx,
  seq: bigint,
  actor: Actor,
  todo: Todo,
  kind: TodoTransitionKind,
  from: TodoStatus | null,
  detail: Record<string, unknown>,
  event?: NewLedgerEvent,
): Promise<LedgerEvent> {
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
  return appendEvent(tx, event ?? todoTransitionEvent(actor, todo, kind));
}

/** Clears an occupancy lease: work that leaves the frontier is no longer occupied. */
export const leaveFrontier = {
  closedAt: sql`now()`,
  leaseHolder: null,
  leaseExpiresAt: null,
} as const;

/**
 * Checks that every todo and gate a spec or condition list names exists in the goal, that
 * none names `self`, and (for dependencies) that no cycle would form. Throws InputError.
 */
export async function checkReferences(
  tx: Tx,
  goalId: string,
  self: string | null,
  dependsOn: readonly string[],
  resumeWhen: readonly ResumeCondition[],
): Promise<void> {
  const [t, g] = [todosTable, gatesTable];
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
      array(select ${t.id} from ${t}
        where ${t.goalId} = ${goalId} and ${t.id} = any(${textArray(todoIds)})) as todos,
      array(select ${g.id} from ${g}
        where ${g.goalId} = ${goalId} and ${g.id} = any(${textArray(gateIds)})) as gates`),
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
          join ${t} on ${t.id} = r.id and ${t.goalId} = ${goalId}
          cross join lateral unnest(${t.dependsOn}) as d(id)
      ) select exists (select 1 from reach where id = ${self}) as cycle`),
  );
  if (cycle?.cycle) {
    throw new InputError(
      `dependsOn would make a cycle: todo ${self} is already a dependency of one of them`,
      'dependsOn',
    );
  }
}

export async function insertTodo(
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
      taskRepository: spec.taskRepository,
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
export function continuationOwner(todo: Todo, actor: Actor): string | null {
  return todo.continuationPolicy === 'SAME_AGENT_NON_DELIVERY'
    ? (todo.claimedBy ?? actor.agentId)
    : null;
}
