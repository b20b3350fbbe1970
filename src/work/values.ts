/** The work graph's values: a todo and a gate with their computed states, the lease, and the typed refusals. */

import type { Tagged } from '../core/results.ts';
import type { ScopeGap } from '../core/scope.ts';
import type { UnknownAgent } from '../registry/registry.ts';
import type { GateRow, TodoRow, TodoStatus, TodoTransitionKind } from './tables.ts';

export type LeaseState = 'ACTIVE' | 'EXPIRED' | 'NONE';
export type GateState = 'OPEN' | 'GRANTED' | 'DENIED' | 'EXPIRED';

/** A todo row plus its lease state, computed from `lease_expires_at` vs now() in SQL. */
export type Todo = TodoRow & { readonly leaseState: LeaseState };
/** A gate row plus its state, computed from `expires_at` vs now() in SQL. */
export type Gate = GateRow & { readonly state: GateState };

/** A todo's occupancy lease as the API returns it: the holder and expiry are null when NONE. */
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

/** Names one todo and (for ADMIN/STEWARD) the agent the caller acts for. */
export interface TodoActionInput {
  goalId: string;
  todoId: string;
  agentId?: string | null;
}

export type TodoResult = Tagged<'Todo', Todo> | TodoRefusal;
