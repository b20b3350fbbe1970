/** Gates: decisions a user or controller must make before covered work may run. */

import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Caller } from '../core/caller.ts';
import { ForbiddenError, InputError } from '../core/errors.ts';
import type { Tagged } from '../core/results.ts';
import { tag } from '../core/results.ts';
import type { ScopeGap } from '../core/scope.ts';
import { refuse } from '../core/transaction.ts';
import { LIMITS, oneOf, screenText, validateId, validateOptionalId } from '../core/validate.ts';
import type { Db } from '../db/database.ts';
import { appendEvent } from '../ledger/append.ts';
import type { UnknownAgent } from '../registry/registry.ts';
import { gateEvent } from './events.ts';
import { validateScopeKey } from './rules.ts';
import { gateColumns } from './sql.ts';
import {
  type GateDecision,
  type GateGranularity,
  type GateKind,
  gateDecisions,
  gateGranularities,
  gateKinds,
  gatesTable,
} from './tables.ts';
import type { Gate, GateNotOpen, UnknownGate } from './values.ts';
import { workWrite } from './write.ts';

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
  const reason = screenText('reason', input.reason, LIMITS.reason);
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
  const note = input.note == null ? null : screenText('note', input.note, LIMITS.reason);
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
