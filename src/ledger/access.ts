/**
 * Whose ledger a caller may read, and what the read learns with the check in the same round
 * trip (the agent's roleScope, the ledger head, the frontier stamp).
 */

import { sql } from 'drizzle-orm';
import type { Caller } from '../core/caller.ts';
import { ForbiddenError, InputError } from '../core/errors.ts';
import type { ScopeGap } from '../core/scope.ts';
import type { Queryable } from '../db/database.ts';
import { placeholder, preparedSql } from '../db/sql.ts';
import { streamHeadsTable } from '../events/tables.ts';
import { activeAgentSql, checkGoalScope } from '../registry/scope.ts';
import { agentsTable, delegationsTable } from '../registry/tables.ts';
import { workSeqSql } from '../work/sql.ts';
import { visionsTable } from '../work/tables.ts';

/**
 * Everything a read needs before its scope, in one statement: whether the goal knows the
 * agent, its roleScope, the ledger head, and the stamp of everything the other-agent frontier
 * is computed from (ledger head, work sequence, registry).
 */
const ledgerContext = preparedSql<{
  known: boolean;
  active: boolean;
  role_scope: string | null;
  head: string | null;
  stamp: string;
}>('ledger_context', () => {
  const [a, d, v, h] = [agentsTable, delegationsTable, visionsTable, streamHeadsTable];
  const goalId = placeholder('goalId');
  const agentId = placeholder('agentId');
  const ledgerHead = sql`select ${h.seq} from ${h} where ${h.goalId} = ${goalId} and ${h.stream} = 'ledger'`;
  return sql`select
    exists (select 1 from ${a} where ${a.goalId} = ${goalId} and ${a.agentId} = ${agentId})
    or exists (select 1 from ${d} where ${d.goalId} = ${goalId} and ${d.agentId} = ${agentId})
    as known,
    ${activeAgentSql(goalId, agentId)} as active,
    (select ${v.roleScope} from ${v} where ${v.goalId} = ${goalId} and ${v.agentId} = ${agentId})
    as role_scope,
    (${ledgerHead})::text as head,
    concat_ws(':',
      (${ledgerHead}),
      (${workSeqSql(goalId)}),
      (select concat_ws(':', count(*), max(${a.registeredAt}), max(${a.retiredAt}))
        from ${a} where ${a.goalId} = ${goalId}),
      (select count(*) from ${d} where ${d.goalId} = ${goalId})) as stamp`;
});

/**
 * Who may read `agentId`'s ledger in `goalId`. The goal first (a typed gap that says nothing
 * about whether the goal exists); then the agent must be one the goal knows — registered
 * (retired ones keep their history) or delegated — or the read fails closed with
 * BAD_USER_INPUT, never falling back to another agent; then a PEER reads only its own
 * (`NOT_OWN_LEDGER`), an ADMIN or STEWARD any agent's of a goal in scope.
 */
export async function checkLedgerAccess(
  q: Queryable,
  caller: Caller | null,
  goalId: string,
  agentId: string,
): Promise<ScopeGap | LedgerContext> {
  if (caller?.kind === 'PROVIDER') {
    throw new ForbiddenError('a PROVIDER may not read evidence ledgers');
  }
  // The goal scope check is independent of the context: both are sent at once (one round trip).
  const [gap, rows] = await Promise.all([
    checkGoalScope(q, caller, goalId),
    ledgerContext(q, { goalId, agentId }),
  ]);
  if (gap) return gap;
  const [context] = rows;
  if (!context?.known) {
    throw new InputError(
      `agentId "${agentId}" is not an agent registered in goal "${goalId}": pass a registered agent id (a host surface such as codex, codex-cli or claude-code is not an agent id)`,
      'agentId',
    );
  }
  if (caller?.kind === 'PEER' && caller.agentId !== agentId) {
    return { type: 'ScopeGap', goalId, reason: 'NOT_OWN_LEDGER' };
  }
  return {
    type: 'LedgerContext',
    active: context.active,
    roleScope: context.role_scope,
    headSeq: BigInt(context.head ?? 0),
    frontierStamp: context.stamp,
  };
}

/** What a permitted read learns with the access check. */
export interface LedgerContext {
  readonly type: 'LedgerContext';
  /** Whether the agent is an active member (a retired agent keeps its ledger, not its seat). */
  readonly active: boolean;
  readonly roleScope: string | null;
  readonly headSeq: bigint;
  /** Changes whenever anything the other-agent frontier is computed from changes. */
  readonly frontierStamp: string;
}
