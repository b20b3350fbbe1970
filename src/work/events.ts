/**
 * The ledger rows the work graph's writes append, one builder per kind of write (a todo's
 * transition, a gate, an external fact, a handoff). Each is appended with `appendEvent`
 * (ledger/append.ts) in the write's own transaction.
 */

import type { Actor } from '../core/caller.ts';
import { screenEvent } from '../core/privacy.ts';
import type { NewLedgerEvent } from '../ledger/append.ts';
import type { GateGranularity, GateKind, TodoStatus, TodoTransitionKind } from './tables.ts';

/** Summary text that passes the screen: `preferred` when it does, `fallback` otherwise. */
function screenableSummary(preferred: string, fallback: string): string {
  return screenEvent({ summary: preferred, evidenceRefs: [] }).ok ? preferred : fallback;
}

const transitionVerbs: Record<TodoTransitionKind, string> = {
  CREATE: 'created',
  SET_DEPENDENCIES: 'changed the dependencies of',
  CLAIM: 'claimed',
  RELEASE_CLAIM: 'released the claim on',
  ACQUIRE_LEASE: 'took the lease on',
  RENEW_LEASE: 'renewed the lease on',
  RELEASE_LEASE: 'released the lease on',
  COMPLETE: 'completed',
  SUPERSEDE: 'superseded',
  DEFER: 'deferred',
  RESUME: 'resumed',
  CLOSE_NO_FOLLOW_UP: 'closed with no follow-up',
  HANDOFF: 'handed off',
};

/** Transitions that change what comes next for work that depends on or waits for the todo. */
const materialTransitions = new Set<TodoTransitionKind>([
  'CREATE',
  'SET_DEPENDENCIES',
  'COMPLETE',
  'SUPERSEDE',
  'DEFER',
  'RESUME',
  'CLOSE_NO_FOLLOW_UP',
  'HANDOFF',
]);

/** The TODO_UPDATE row a work-graph transition appends (write.ts `recordTransition`). */
export function todoTransitionEvent(
  actor: Actor,
  todo: { goalId: string; id: string; title: string; status: TodoStatus; evidenceRefs: string[] },
  kind: TodoTransitionKind,
): NewLedgerEvent {
  const who = actor.agentId ?? actor.kind;
  const verb = transitionVerbs[kind];
  return {
    goalId: todo.goalId,
    source: 'WORK_GRAPH',
    eventKind: 'TODO_UPDATE',
    agentId: actor.agentId,
    todoId: todo.id,
    classification: kind.toLowerCase(),
    status: todo.status.toLowerCase(),
    summary: screenableSummary(`${who} ${verb} "${todo.title}"`, `${who} ${verb} ${todo.id}`),
    evidenceRefs: kind === 'COMPLETE' ? todo.evidenceRefs : [],
    material: materialTransitions.has(kind),
    recordedBy: actor,
  };
}

/** The GATE row openGate / resolveGate append. Goal-wide gates are goal-level rows. */
export function gateEvent(
  actor: Actor,
  gate: {
    goalId: string;
    id: string;
    kind: GateKind;
    granularity: GateGranularity;
    scopeKey: string;
    decision: string | null;
  },
): NewLedgerEvent {
  const who = actor.agentId ?? actor.kind;
  const scope = `${gate.kind.toLowerCase()}:${gate.granularity.toLowerCase()}:${gate.scopeKey}`;
  const action = gate.decision === null ? 'opened' : gate.decision.toLowerCase();
  return {
    goalId: gate.goalId,
    source: 'WORK_GRAPH',
    eventKind: 'GATE',
    agentId: actor.agentId,
    gateId: gate.id,
    classification: gate.decision === null ? 'open' : 'resolve',
    status: gate.decision === null ? 'open' : gate.decision.toLowerCase(),
    summary: `${who} ${action} gate ${scope}`,
    material: true,
    goalChange: gate.granularity === 'ACTION' || gate.granularity === 'LANE' ? null : 'GLOBAL_GATE',
    recordedBy: actor,
  };
}

/**
 * The EXTERNAL_EVENT row recordExternalEvent appends. Goal-level (NEXT_ACTION) when live
 * todos wait for the fact: their resume condition now holds, whoever's they are.
 */
export function externalEventEvent(
  actor: Actor,
  fact: { goalId: string; kind: string; repository: string; ref: string; observedAt: Date },
  waitingTodoIds: readonly string[],
): NewLedgerEvent {
  const who = actor.agentId ?? actor.kind;
  return {
    goalId: fact.goalId,
    source: 'WORK_GRAPH',
    eventKind: 'EXTERNAL_EVENT',
    agentId: actor.agentId,
    classification: fact.kind.toLowerCase(),
    status: 'observed',
    summary: `${who} recorded that ${fact.repository}#${fact.ref} was merged (observed ${fact.observedAt.toISOString()})${waitingTodoIds.length > 0 ? `; ${waitingTodoIds.length} live todo(s) wait for it` : ''}`,
    material: true,
    goalChange: waitingTodoIds.length > 0 ? 'NEXT_ACTION' : null,
    recordedBy: actor,
  };
}

/**
 * The HANDOFF row handoffTodo appends (in place of its TODO_UPDATE row). A handoff to a
 * named agent names it as `relatedAgentId` (its ledger shows the row); an unnamed one is
 * goal-level (NEXT_ACTION): any qualified peer of the goal may take the work.
 */
export function handoffEvent(
  actor: Actor,
  todo: { goalId: string; id: string; title: string; status: TodoStatus },
  handoff: { id: string; to: string | null },
): NewLedgerEvent {
  const who = actor.agentId ?? actor.kind;
  const to = handoff.to ?? 'any qualified peer';
  return {
    goalId: todo.goalId,
    source: 'WORK_GRAPH',
    eventKind: 'HANDOFF',
    agentId: actor.agentId,
    todoId: todo.id,
    relatedAgentId: handoff.to,
    classification: handoff.to === null ? 'unclaimed' : 'named',
    status: todo.status.toLowerCase(),
    summary: screenableSummary(
      `${who} handed off "${todo.title}" to ${to} (packet ${handoff.id})`,
      `${who} handed off ${todo.id} to ${to} (packet ${handoff.id})`,
    ),
    material: true,
    goalChange: handoff.to === null ? 'NEXT_ACTION' : null,
    recordedBy: actor,
  };
}
