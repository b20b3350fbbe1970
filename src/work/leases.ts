/** Leases: optional occupancy of a todo, fenced so a stale holder cannot act. */

import { sql } from 'drizzle-orm';
import type { Actor, Caller } from '../core/caller.ts';
import type { ScopeGap } from '../core/scope.ts';
import { refuse } from '../core/transaction.ts';
import type { Db } from '../db/database.ts';
import type { UnknownAgent } from '../registry/registry.ts';
import { validateAction, validateFence, validateTtl } from './spec.ts';
import { todosTable } from './tables.ts';
import {
  type IllegalTransition,
  type Lease,
  type LeaseHeld,
  leaseOf,
  type StaleFence,
  type Todo,
  type TodoActionInput,
  type TodoRefusal,
  type UnknownTodo,
} from './values.ts';
import { checkLive, claimedByOther, loadTodo, overrides, transition, workWrite } from './write.ts';

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
 * Extends the lease to now + `ttlMs`, only for the holder of the current fence, and only
 * while the lease is active. An expired lease is gone, taken over or not: renewing it is a
 * StaleFence (its lease reads EXPIRED); the holder acquires again and gets a new fence.
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
    if (todo.leaseState !== 'ACTIVE') {
      refuse({
        type: 'StaleFence',
        goalId,
        todoId,
        fence: String(fence),
        lease: leaseOf(todo),
      } satisfies StaleFence);
    }
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
