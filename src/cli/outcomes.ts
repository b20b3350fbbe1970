/** Typed results that are not success: their exit code and one line that says what happened. */
import { Exit, ExitCode } from './exit-codes.ts';

type Typed = { __typename?: string } & Record<string, unknown>;

const CODES: Record<string, ExitCode> = {
  ScopeGap: ExitCode.SCOPE_GAP,
  UnknownAgent: ExitCode.NOT_FOUND,
  UnknownTodo: ExitCode.NOT_FOUND,
  UnknownGate: ExitCode.NOT_FOUND,
  UnknownDelivery: ExitCode.NOT_FOUND,
  UnknownWait: ExitCode.NOT_FOUND,
  PendingWaitsLimited: ExitCode.REFUSED,
  ClaimedByOther: ExitCode.REFUSED,
  IllegalTransition: ExitCode.REFUSED,
  LeaseHeld: ExitCode.REFUSED,
  StaleFence: ExitCode.REFUSED,
  GateNotOpen: ExitCode.REFUSED,
  LedgerDigestMismatch: ExitCode.REFUSED,
  GoalAlreadyExists: ExitCode.REFUSED,
  AgentAlreadyRegistered: ExitCode.REFUSED,
  IdempotencyConflict: ExitCode.IDEMPOTENCY_CONFLICT,
  ObservationGap: ExitCode.NOT_RUNNING,
  InboxEmpty: ExitCode.EMPTY,
  HandoffRefused: ExitCode.REFUSED,
  UnknownHandoff: ExitCode.NOT_FOUND,
};

function describe(result: Typed): string {
  // biome-ignore lint/suspicious/noExplicitAny: one reader for the fields of many result types
  const r = result as Record<string, any>;
  switch (result.__typename) {
    case 'ScopeGap':
      return `scope gap on goal ${r.goalId}: ${r.reason ?? r.scopeGapReason} (outside this credential's scope, or no such goal)`;
    case 'UnknownAgent':
      return `no agent ${r.agentId ?? r.unknownAgentId} in goal ${r.goalId}`;
    case 'UnknownTodo':
      return `no todo ${r.todoId ?? r.unknownTodoId} in goal ${r.goalId}`;
    case 'UnknownGate':
      return `no gate ${r.gateId} in goal ${r.goalId}`;
    case 'UnknownDelivery':
      return `no delivery ${r.deliveryId} visible to this credential`;
    case 'UnknownWait':
      return `no wait ${r.waitId} visible to this credential`;
    case 'PendingWaitsLimited':
      return `refused: this credential already has ${r.pending} pending waits (at most ${r.limit}); start again once one has ended`;
    case 'ClaimedByOther':
      return `refused: todo ${r.todoId} is claimed by ${r.owner}`;
    case 'IllegalTransition':
      return `refused: a ${r.from} todo cannot ${String(r.attempted).toLowerCase().replaceAll('_', ' ')}`;
    case 'LeaseHeld':
      return `refused: ${r.lease?.holder} holds an active lease on ${r.todoId}`;
    case 'StaleFence':
      return `refused: fence ${r.fence} is stale (current lease: ${r.lease?.state}, holder ${r.lease?.holder ?? 'none'})`;
    case 'GateNotOpen':
      return `refused: gate ${r.gate?.id} is ${r.gate?.state}`;
    case 'LedgerDigestMismatch':
      return `refused: digest ${r.citedDigest} is not that of a current first-page read: ${r.requiredRead?.reason}`;
    case 'GoalAlreadyExists':
      return `refused: goal ${r.goal?.id} already exists`;
    case 'AgentAlreadyRegistered':
      return `refused: agent ${r.agent?.agentId} is already registered in ${r.agent?.goalId}`;
    case 'IdempotencyConflict':
      return `idempotency conflict: key ${r.idempotencyKey} was used for a different request (differs in ${(r.differingFields as string[]).join(', ')}); pick a new --key`;
    case 'ObservationGap':
      return `nothing to observe of ${r.agentId}: ${r.reason}`;
    case 'HandoffRefused':
      return `refused: ${String(r.refusal).toLowerCase().replaceAll('_', ' ')}${r.receiver ? ` (${r.receiver})` : ''}${r.capability ? `: needs ${r.capability}` : ''}${r.delivery ? `: delivery ${r.delivery.reason}` : ''}`;
    case 'UnknownHandoff':
      return `no handoff ${r.handoffId} in goal ${r.goalId}`;
    case 'InboxEmpty':
      return 'inbox empty: no unprocessed message to take';
    default:
      return `unexpected result ${result.__typename}`;
  }
}

/** An Exit for a typed non-success result, or undefined when `result` is a success type. */
export function failureOf(result: Typed): Exit | undefined {
  const code = result.__typename ? CODES[result.__typename] : undefined;
  return code === undefined ? undefined : new Exit(code, describe(result), result.__typename);
}

/** Same, for a packet whose `scopeGap` field is set. */
export function scopeGapOf(packet: { scopeGap?: unknown }): Exit | undefined {
  const gap = packet.scopeGap as Typed | null | undefined;
  return gap ? failureOf({ __typename: 'ScopeGap', ...gap }) : undefined;
}
