/**
 * The actor a write records: the agent a caller acts as in a goal, shared by the work graph's
 * writes and the ledger's.
 */

import { sql } from 'drizzle-orm';
import type { Actor, Caller } from '../core/caller.ts';
import { ForbiddenError } from '../core/errors.ts';
import type { Queryable } from '../db/database.ts';
import { rowsOf } from '../db/sql.ts';
import { type UnknownAgent, unknownAgent } from './registry.ts';
import { activeAgentSql } from './scope.ts';

/**
 * The agent a write acts as. A PEER acts as its own agent, always (naming another is
 * forbidden); an ADMIN or STEWARD may name an active agent of the goal, or act as itself.
 */
export async function resolveActor(
  q: Queryable,
  caller: Caller,
  goalId: string,
  named: string | null,
): Promise<{ type: 'Actor'; actor: Actor } | UnknownAgent> {
  const base = { kind: caller.kind, credentialId: caller.credentialId };
  switch (caller.kind) {
    case 'PEER':
      if (named !== null && named !== caller.agentId) {
        throw new ForbiddenError('a PEER acts as its own agent: agentId may only name itself');
      }
      return { type: 'Actor', actor: { ...base, agentId: caller.agentId } };
    case 'ADMIN':
    case 'STEWARD':
      if (named === null) return { type: 'Actor', actor: { ...base, agentId: null } };
      if (!(await isActiveAgent(q, goalId, named))) return unknownAgent(goalId, named);
      return { type: 'Actor', actor: { ...base, agentId: named } };
    case 'PROVIDER':
      throw new ForbiddenError('a PROVIDER may not write the work graph');
  }
}

async function isActiveAgent(q: Queryable, goalId: string, agentId: string): Promise<boolean> {
  const [row] = rowsOf<{ active: boolean }>(
    await q.execute(sql`select ${activeAgentSql(goalId, agentId)} as active`),
  );
  return row?.active === true;
}
