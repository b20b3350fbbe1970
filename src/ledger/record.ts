/**
 * Recording: the events an agent or a host appends with `recordEvent`. The row itself is
 * written by `appendEvent` (append.ts), the ledger's only write path.
 */

import { sql } from 'drizzle-orm';
import type { Caller } from '../core/caller.ts';
import { ForbiddenError, InputError } from '../core/errors.ts';
import { screenEvent } from '../core/privacy.ts';
import type { ScopeGap } from '../core/scope.ts';
import { oneOf, validateId, validateOptionalId } from '../core/validate.ts';
import type { Db } from '../db/database.ts';
import { rowsOf } from '../db/sql.ts';
import { resolveActor } from '../registry/actor.ts';
import { type UnknownAgent, unknownAgent } from '../registry/registry.ts';
import { activeAgentSql, checkGoalScope } from '../registry/scope.ts';
import { todosTable } from '../work/tables.ts';
import type { UnknownTodo } from '../work/values.ts';
import { appendEvent, type LedgerEvent, refusalError } from './append.ts';
import { goalChanges, type LedgerEventKind, ledgerEventKinds, systemOnlyKinds } from './tables.ts';

export interface RecordEventInput {
  goalId: string;
  eventKind: string;
  agentId?: string | null;
  todoId?: string | null;
  relatedAgentId?: string | null;
  classification?: string | null;
  status?: string | null;
  summary: string;
  evidenceRefs?: readonly string[] | null;
  goalChange?: string | null;
}

export type RecordEventResult = LedgerEvent | ScopeGap | UnknownAgent | UnknownTodo;

/** Kinds that change what someone does next when recorded by an agent or host. */
const materialKinds = new Set<LedgerEventKind>([
  'VALIDATION',
  'HANDOFF',
  'GATE',
  'BLOCKER',
  'PROJECTION',
]);

/**
 * Appends an event an agent or host records. A PEER records as itself (naming another
 * agent is FORBIDDEN); an ADMIN or STEWARD may name any active agent of the goal, or none
 * (a host's own row); only an ADMIN or STEWARD marks a row goal-level. The text is screened
 * first: a refusal is BAD_USER_INPUT and nothing is written.
 */
export async function recordEvent(
  db: Db,
  caller: Caller,
  input: RecordEventInput,
): Promise<RecordEventResult> {
  if (caller.kind === 'PROVIDER') {
    throw new ForbiddenError('a PROVIDER may not record ledger events');
  }
  const goalId = validateId('goalId', input.goalId);
  const eventKind = oneOf('eventKind', input.eventKind, ledgerEventKinds);
  const writer = systemOnlyKinds[eventKind];
  if (writer) {
    throw new InputError(
      `eventKind ${eventKind} is written by the gateway itself (${writer}), not by recordEvent`,
      'eventKind',
    );
  }
  const agentId = validateOptionalId('agentId', input.agentId);
  const todoId = validateOptionalId('todoId', input.todoId);
  const relatedAgentId = validateOptionalId('relatedAgentId', input.relatedAgentId);
  const goalChange =
    input.goalChange == null ? null : oneOf('goalChange', input.goalChange, goalChanges);
  if (goalChange !== null && caller.kind === 'PEER') {
    throw new ForbiddenError('only an ADMIN or STEWARD marks an event goal-level (goalChange)');
  }
  if (eventKind === 'HANDOFF' && relatedAgentId === null) {
    throw new InputError('a HANDOFF names the other agent in relatedAgentId', 'relatedAgentId');
  }
  const raw = {
    summary: input.summary,
    evidenceRefs: [...(input.evidenceRefs ?? [])],
    status: input.status ?? null,
    classification: input.classification ?? null,
  };
  const screened = screenEvent(raw);
  if (!screened.ok) throw refusalError(screened);

  return db.transaction(async (tx) => {
    const gap = await checkGoalScope(tx, caller, goalId);
    if (gap) return gap;
    const resolved = await resolveActor(tx, caller, goalId, agentId);
    if (resolved.type === 'UnknownAgent') return resolved;
    const actor = resolved.actor;
    if (actor.agentId === null && todoId === null && relatedAgentId === null && !goalChange) {
      throw new InputError(
        'an event must name an agent, a todo, a relatedAgentId or a goalChange: otherwise no ledger would show it',
        'agentId',
      );
    }
    if (relatedAgentId !== null && relatedAgentId === actor.agentId) {
      throw new InputError(
        'relatedAgentId names the other agent, not the one recording',
        'relatedAgentId',
      );
    }
    const t = todosTable;
    const [found] = rowsOf<{ todo: boolean; related: boolean }>(
      await tx.execute(sql`select
        ${todoId === null ? sql`true` : sql`exists (select 1 from ${t} where ${t.goalId} = ${goalId} and ${t.id} = ${todoId})`} as todo,
        ${relatedAgentId === null ? sql`true` : activeAgentSql(goalId, relatedAgentId)} as related`),
    );
    if (!found?.todo) {
      return { type: 'UnknownTodo', goalId, todoId: todoId as string } satisfies UnknownTodo;
    }
    if (!found.related) return unknownAgent(goalId, relatedAgentId as string);
    return appendEvent(tx, {
      goalId,
      source: 'RECORDED',
      eventKind,
      agentId: actor.agentId,
      todoId,
      relatedAgentId,
      ...raw,
      material: materialKinds.has(eventKind),
      goalChange,
      recordedBy: actor,
    });
  });
}
