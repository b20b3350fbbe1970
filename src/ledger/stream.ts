/**
 * The ledger as a live stream: one shared reader per goal (readLedgerPage, behind the
 * StreamHub) and each subscriber's rows judged against its agent's scope.
 */

import { and, asc, eq, gt } from 'drizzle-orm';
import type { Caller } from '../core/caller.ts';
import type { ScopeGap } from '../core/scope.ts';
import { single } from '../core/stream.ts';
import { validateId } from '../core/validate.ts';
import type { Db, Queryable } from '../db/database.ts';
import type { Page, StreamHub } from '../events/hub.ts';
import { readHead } from '../events/sequence.ts';
import { checkGoalScope } from '../registry/scope.ts';
import { checkLedgerAccess } from './access.ts';
import { eventOf, type LedgerEvent } from './append.ts';
import { LEDGER_LIMITS } from './limits.ts';
import { loadAgentScope, relevanceOf } from './scope.ts';
import { ledgerEventsTable } from './tables.ts';

/** One page of a goal's ledger after `after`, unscoped: what the ledger hub reads per ring. */
export async function readLedgerPage(
  db: Queryable,
  goalId: string,
  after: bigint,
): Promise<Page<LedgerEvent>> {
  const rows = await db
    .select()
    .from(ledgerEventsTable)
    .where(and(eq(ledgerEventsTable.goalId, goalId), gt(ledgerEventsTable.seq, after)))
    .orderBy(asc(ledgerEventsTable.seq))
    .limit(LEDGER_LIMITS.streamPage);
  return {
    items: rows.map((row) => eventOf(row)),
    cursor: rows.at(-1)?.seq ?? after,
    more: rows.length === LEDGER_LIMITS.streamPage,
  };
}

/** Rows every agent's scope decides without reading the work graph. */
const decidedWithoutScope = (agentId: string, e: LedgerEvent) =>
  e.agentId === agentId ||
  e.relatedAgentId === agentId ||
  e.goalChange !== null ||
  (e.todoId === null && e.gateId === null);

/**
 * `agentId`'s ledger rows after `after` (or from now), live, in seq order, exactly once:
 * the same rows evidenceLedger would return, each judged against the agent's scope when
 * the stream reads it. The goal's rows come from the shared per-goal reader (StreamHub);
 * only batches holding a row on a todo or gate the agent does not own cost a scope read.
 * Out of scope: one ScopeGap, then the end.
 */
export async function ledgerEvents(
  db: Db,
  hub: StreamHub<LedgerEvent>,
  caller: Caller | null,
  goalIdArg: string,
  agentIdArg: string,
  after: string | null,
): Promise<AsyncIterable<LedgerEvent | ScopeGap>> {
  const goalId = validateId('goalId', goalIdArg);
  const agentId = validateId('agentId', agentIdArg);
  const access = await checkLedgerAccess(db, caller, goalId, agentId);
  if (access.type === 'ScopeGap') {
    return single(access);
  }
  const start = after === null ? access.headSeq : BigInt(after);
  return hub.subscribe(goalId, start, undefined, async (items) => {
    const undecided = items.some((e) => !decidedWithoutScope(agentId, e));
    // Rows decided without the work graph never consult the sets: empty ones do.
    const scope = undecided
      ? await loadAgentScope(db, goalId, agentId)
      : {
          goalId,
          agentId,
          lanePrefixes: [],
          claimed: new Set<string>(),
          lane: new Set<string>(),
          dependencies: new Set<string>(),
          gates: new Set<string>(),
        };
    return items.flatMap((e) => {
      const relevance = relevanceOf(scope, e);
      return relevance === null ? [] : [{ ...e, relevance }];
    });
  });
}

/**
 * Every ledger row of a goal after `after` (or from now), live, in seq order, exactly once,
 * unscoped (relevance null): what an operator's view follows to re-read the work graph when
 * anything in the goal changes. ADMIN, or a STEWARD of the goal; a PEER reads its own agent's
 * ledger instead (a NOT_OWN_LEDGER gap); a goal out of scope is one ScopeGap, then the end.
 */
export async function goalLedgerEvents(
  db: Db,
  hub: StreamHub<LedgerEvent>,
  caller: Caller | null,
  goalIdArg: string,
  after: string | null,
): Promise<AsyncIterable<LedgerEvent | ScopeGap>> {
  const goalId = validateId('goalId', goalIdArg);
  const gap: ScopeGap | null =
    caller?.kind === 'PEER'
      ? { type: 'ScopeGap', goalId, reason: 'NOT_OWN_LEDGER' }
      : await checkGoalScope(db, caller, goalId);
  if (gap) return single(gap);
  const start = after === null ? await readHead(db, goalId, 'ledger') : BigInt(after);
  return hub.subscribe(goalId, start, undefined, async (items) => items);
}
