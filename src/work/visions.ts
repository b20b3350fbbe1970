/** Visions and capabilities: each agent's bounded routing state in a goal. */

import { and, asc, eq, sql } from 'drizzle-orm';
import type { Actor, Caller } from '../core/caller.ts';
import { InputError } from '../core/errors.ts';
import type { Tagged } from '../core/results.ts';
import { tag } from '../core/results.ts';
import type { ScopeGap } from '../core/scope.ts';
import {
  boundedList,
  LIMITS,
  screenText,
  unique,
  validateId,
  validateOptionalId,
} from '../core/validate.ts';
import type { Db, Queryable, Tx } from '../db/database.ts';
import type { UnknownAgent } from '../registry/registry.ts';
import { type AgentCapabilities, capabilitiesTable, type Vision, visionsTable } from './tables.ts';
import { workWrite } from './write.ts';

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
    roleScope: screenText('roleScope', input.roleScope, LIMITS.roleScope, 1, 'one'),
    visionSummary: screenText('visionSummary', input.visionSummary, LIMITS.summary),
    acceptanceSummary: screenText('acceptanceSummary', input.acceptanceSummary, LIMITS.summary),
    replanTriggerSummary: screenText(
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
    if (value !== null) return screenText(`delta.${name}`, value, max);
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
