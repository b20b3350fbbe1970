/** Workspaces: where each agent declares it runs in a goal (repository, worktree, revision). */

import { asc, eq, sql } from 'drizzle-orm';
import type { Caller } from '../core/caller.ts';
import { InputError } from '../core/errors.ts';
import type { Listing, Tagged } from '../core/results.ts';
import { tag } from '../core/results.ts';
import type { ScopeGap } from '../core/scope.ts';
import { oneOf, validateId, validateOptionalId } from '../core/validate.ts';
import type { Db } from '../db/database.ts';
import type { UnknownAgent } from '../registry/registry.ts';
import { checkGoalScope } from '../registry/scope.ts';
import { parseRepository } from './repository.ts';
import { type AgentWorkspace, workspacesTable, worktreeKinds } from './tables.ts';
import { workWrite } from './write.ts';

export interface DeclareWorkspaceInput {
  goalId: string;
  agentId?: string | null;
  repository: string;
  worktree: string;
  revision: string;
}

export type DeclareWorkspaceResult =
  | Tagged<'AgentWorkspace', AgentWorkspace>
  | ScopeGap
  | UnknownAgent;

/** A commit id: 7 to 64 hex digits (abbreviated or full, SHA-1 or SHA-256). */
const REVISION = /^[0-9a-f]{7,64}$/i;

/**
 * Replaces where the acting agent declares it runs in the goal: the repository its checkout
 * comes from, whether it is a linked worktree or the canonical checkout, and the revision
 * checked out. Read by the WORKSPACE guard; like a capability it is a declaration that
 * grants no authority, and moves the work sequence (the frontier may change).
 */
export async function declareWorkspace(
  db: Db,
  caller: Caller,
  input: DeclareWorkspaceInput,
): Promise<DeclareWorkspaceResult> {
  const goalId = validateId('goalId', input.goalId);
  const agentId = validateOptionalId('agentId', input.agentId);
  const repository = parseRepository('repository', input.repository);
  const worktree = oneOf('worktree', input.worktree, worktreeKinds);
  if (!REVISION.test(input.revision)) {
    throw new InputError('revision must be a commit id: 7 to 64 hex digits', 'revision');
  }
  const revision = input.revision.toLowerCase();
  return workWrite(
    db,
    caller,
    goalId,
    agentId,
    async (tx, actor) => {
      const stamp = {
        repository,
        worktree,
        revision,
        declaredAt: sql`now()`,
        declaredByKind: actor.kind,
        declaredByAgent: actor.agentId,
      };
      const [row] = await tx
        .insert(workspacesTable)
        .values({ goalId, agentId: actor.agentId as string, ...stamp })
        .onConflictDoUpdate({
          target: [workspacesTable.goalId, workspacesTable.agentId],
          set: stamp,
        })
        .returning();
      if (!row) throw new Error('workspace was written but cannot be read');
      return tag('AgentWorkspace', row);
    },
    true,
  );
}

/** Every agent's declared workspace in a goal, by agent id. */
export async function listWorkspaces(
  db: Db,
  caller: Caller | null,
  goalId: string,
): Promise<Listing<AgentWorkspace>> {
  validateId('goalId', goalId);
  const gap = await checkGoalScope(db, caller, goalId);
  if (gap) return { goalId, rows: [], scopeGap: gap };
  const rows = await db
    .select()
    .from(workspacesTable)
    .where(eq(workspacesTable.goalId, goalId))
    .orderBy(asc(workspacesTable.agentId));
  return { goalId, rows, scopeGap: null };
}
