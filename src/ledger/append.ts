/**
 * The ledger's write path: the only way a row enters the ledger (README, "Evidence ledger", "Writing").
 * Other domains append their rows with `appendEvent(tx, event)` inside their own transaction,
 * so a change and its row commit together or not at all. This file imports no other domain's
 * service, so the work graph can append without importing the ledger's read model.
 */

import { getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { Actor, CallerKind } from '../core/caller.ts';
import { InputError } from '../core/errors.ts';
import { type Boundary, type Refusal, screenEvent } from '../core/privacy.ts';
import type { Tx } from '../db/database.ts';
import { bare, textArray } from '../db/sql.ts';
import { appendAtNextSeq } from '../events/sequence.ts';
import type { GateGranularity, GateKind, TodoStatus, TodoTransitionKind } from '../work/tables.ts';
import {
  type GoalChange,
  type LedgerEventKind,
  type LedgerEventRow,
  type LedgerSource,
  ledgerEventsTable,
  type NewLedgerEventRow,
} from './tables.ts';

const columns = getTableColumns(ledgerEventsTable);

// ---- values --------------------------------------------------------------------------

/** Why a row is in an agent's ledger: the first of the scoping rules it meets. */
export const ledgerRelevances = [
  'HANDOFF',
  'OWN',
  'CLAIMED_TODO',
  'LANE_TODO',
  'NEXT_ACTION',
  'GOAL_LEVEL',
] as const;
export type LedgerRelevance = (typeof ledgerRelevances)[number];

export interface LedgerEvent {
  readonly type: 'LedgerEvent';
  readonly goalId: string;
  readonly seq: bigint;
  readonly recordedAt: Date;
  readonly source: LedgerSource;
  readonly eventKind: LedgerEventKind;
  readonly agentId: string | null;
  readonly todoId: string | null;
  readonly gateId: string | null;
  readonly relatedAgentId: string | null;
  readonly classification: string | null;
  readonly status: string | null;
  readonly summary: string;
  readonly evidenceRefs: string[];
  readonly material: boolean;
  readonly goalChange: GoalChange | null;
  readonly citedDigest: string | null;
  readonly boundary: Boundary;
  readonly recordedBy: { readonly kind: CallerKind; readonly agentId: string | null };
  /** Why the row is in the ledger being read; null where no agent's scope applies. */
  readonly relevance: LedgerRelevance | null;
}

export function eventOf(row: LedgerEventRow): LedgerEvent {
  return {
    type: 'LedgerEvent',
    goalId: row.goalId,
    seq: row.seq,
    recordedAt: row.recordedAt,
    source: row.source,
    eventKind: row.eventKind,
    agentId: row.agentId,
    todoId: row.todoId,
    gateId: row.gateId,
    relatedAgentId: row.relatedAgentId,
    classification: row.classification,
    status: row.status,
    summary: row.summary,
    evidenceRefs: row.evidenceRefs,
    material: row.material,
    goalChange: row.goalChange,
    citedDigest: row.citedDigest,
    boundary: {
      rawLogsRecorded: row.rawLogsRecorded,
      rawTrajectoryRecorded: row.rawTrajectoryRecorded,
      credentialValuesRecorded: row.credentialValuesRecorded,
      absolutePathsRecorded: row.absolutePathsRecorded,
      redactionCount: row.redactionCount,
    },
    recordedBy: { kind: row.recordedByKind, agentId: row.recordedByAgent },
    relevance: null,
  };
}

/** One event to append. Text fields are raw: appendEvent screens them. */
export interface NewLedgerEvent {
  readonly goalId: string;
  readonly source: LedgerSource;
  readonly eventKind: LedgerEventKind;
  readonly agentId: string | null;
  readonly todoId?: string | null;
  readonly gateId?: string | null;
  readonly relatedAgentId?: string | null;
  readonly classification?: string | null;
  readonly status?: string | null;
  readonly summary: string;
  readonly evidenceRefs?: readonly string[];
  readonly material: boolean;
  readonly goalChange?: GoalChange | null;
  readonly citedDigest?: string | null;
  readonly recordedBy: Actor;
}

export function refusalError(refusal: Refusal): InputError {
  return new InputError(`${refusal.field}: ${refusal.reason} (${refusal.code})`, refusal.field);
}

/**
 * Appends one event in the caller's transaction: screens its text (a refusal throws
 * InputError, which rolls the whole transaction back), takes the next number of the goal's
 * ledger sequence under the head lock (held to commit), and rings the doorbell on commit.
 * This is the only way a row enters the ledger.
 */
export async function appendEvent(tx: Tx, event: NewLedgerEvent): Promise<LedgerEvent> {
  const screened = screenEvent({
    summary: event.summary,
    evidenceRefs: [...(event.evidenceRefs ?? [])],
    status: event.status ?? null,
    classification: event.classification ?? null,
  });
  if (!screened.ok) throw refusalError(screened);
  const row = {
    goalId: event.goalId,
    source: event.source,
    eventKind: event.eventKind,
    agentId: event.agentId,
    todoId: event.todoId ?? null,
    gateId: event.gateId ?? null,
    relatedAgentId: event.relatedAgentId ?? null,
    classification: screened.value.classification,
    status: screened.value.status,
    summary: screened.value.summary,
    evidenceRefs: screened.value.evidenceRefs,
    material: event.material || (event.goalChange ?? null) !== null,
    goalChange: event.goalChange ?? null,
    citedDigest: event.citedDigest ?? null,
    ...screened.boundary,
    recordedByKind: event.recordedBy.kind,
    recordedByAgent: event.recordedBy.agentId,
    credentialId: event.recordedBy.credentialId,
  } satisfies Omit<NewLedgerEventRow, 'seq'>;
  // One statement holds the head lock from numbering to commit: the goal's ledger write rate
  // is bounded by how long that lock is held, so it is held for one round trip, not three.
  const e = ledgerEventsTable;
  const written = await appendAtNextSeq<{ seq: string; recorded_at: string }>(
    tx,
    event.goalId,
    'ledger',
    (seq) => {
      const values: { [K in keyof NewLedgerEventRow]: SQL | NewLedgerEventRow[K] } = {
        ...row,
        seq,
        evidenceRefs: textArray(row.evidenceRefs),
      };
      const entries = Object.entries(values) as [keyof typeof columns, unknown][];
      return sql`insert into ${e}
          (${sql.join(
            entries.map(([key]) => bare(columns[key])),
            sql`, `,
          )})
        values (${sql.join(
          entries.map(([, value]) => sql`${value}`),
          sql`, `,
        )})
        returning ${e.seq}::text as seq,
          to_char(${e.recordedAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as recorded_at`;
    },
  );
  return eventOf({ ...row, seq: BigInt(written.seq), recordedAt: new Date(written.recorded_at) });
}

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

/** The TODO_UPDATE row a work-graph transition appends (work.ts `recordTransition`). */
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
