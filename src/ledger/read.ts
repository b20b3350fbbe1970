/**
 * The scoped read model (docs/api.md, "Evidence ledger") (`evidenceLedger`): one agent's rows, keyset-paged newest
 * first, with the other agents compressed into their frontier, reader hints and the digest.
 * Which rows are the agent's is scope.ts; who may read is access.ts.
 */

import { and, desc, eq, gt, inArray, isNotNull, lt, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Caller, CallerKind } from '../core/caller.ts';
import { InputError } from '../core/errors.ts';
import type { ScopeGap } from '../core/scope.ts';
import { oneOf, validateId, validateOptionalId } from '../core/validate.ts';
import type { Db, Queryable, Tx } from '../db/database.ts';
import { covers, parseDecisionScope, parseResumeCondition } from '../work/rules.ts';
import { type GateRow, gatesTable, todosTable } from '../work/tables.ts';
import { checkLedgerAccess } from './access.ts';
import { eventOf, type LedgerEvent } from './append.ts';
import { digestOf, SCHEMA_VERSION } from './digest.ts';
import { type FrontierCache, type OtherAgentFrontierRow, otherAgentFrontier } from './frontier.ts';
import { LEDGER_LIMITS } from './limits.ts';
import { type AgentScope, loadAgentScope, relevanceOf, scopeSql } from './scope.ts';
import { type LedgerEventKind, ledgerEventKinds, ledgerEventsTable } from './tables.ts';

export interface LedgerFilters {
  readonly todoId: string | null;
  readonly eventKind: LedgerEventKind | null;
  readonly since: Date | null;
  readonly before: string | null;
  readonly limit: number;
  readonly includeOtherAgentFrontier: boolean;
}

export interface EvidenceLedgerArgs {
  goalId: string;
  agentId: string;
  todoId?: string | null;
  since?: Date | null;
  eventKind?: string | null;
  limit?: number | null;
  before?: string | null;
  includeOtherAgentFrontier?: boolean | null;
}

export const ledgerReadPurposes = ['AUTONOMOUS_REPLAN', 'SUCCESSOR_REPLAN', 'HANDOFF'] as const;
export type LedgerReadPurpose = (typeof ledgerReadPurposes)[number];

export interface RequiredRead {
  readonly query: string;
  /** The CLI command that makes the same read, where there is one. */
  readonly command?: string | null;
  readonly reason: string;
}

export interface EvidenceLedgerPacket {
  readonly schemaVersion: typeof SCHEMA_VERSION;
  readonly goalId: string;
  readonly agentId: string;
  readonly generatedAt: Date;
  readonly source: { eventLog: boolean; workGraph: boolean; deliveries: boolean };
  readonly scope: {
    audience: CallerKind | null;
    currentAgentDetail: boolean;
    otherAgentDetail: 'COMPRESSED_FRONTIER' | 'OMITTED';
    lanePrefixes: string[];
  };
  readonly filters: LedgerFilters;
  /** Oldest first: the newest `limit` rows of the agent's scope that pass the filters. */
  readonly events: LedgerEvent[];
  readonly page: { headSeq: bigint; olderCursor: bigint | null; hasOlder: boolean };
  readonly otherAgentFrontier: OtherAgentFrontierRow[];
  readonly omittedFrontierRowCount: number;
  readonly readerHints: { requiredBefore: LedgerReadPurpose[]; nextRequiredReads: RequiredRead[] };
  readonly digest: string;
  readonly scopeGap: ScopeGap | null;
}

function validateFilters(args: EvidenceLedgerArgs): LedgerFilters {
  const limit = args.limit ?? LEDGER_LIMITS.defaultLimit;
  if (!Number.isInteger(limit) || limit < 1 || limit > LEDGER_LIMITS.maxLimit) {
    throw new InputError(`limit must be an integer from 1 to ${LEDGER_LIMITS.maxLimit}`, 'limit');
  }
  const since = args.since ?? null;
  if (since !== null && Number.isNaN(since.getTime())) {
    throw new InputError('since must be a valid time', 'since');
  }
  const before = args.before ?? null;
  if (before !== null && !/^\d{1,19}$/.test(before)) {
    throw new InputError('before must be a Seq (a decimal string)', 'before');
  }
  return {
    todoId: validateOptionalId('todoId', args.todoId),
    eventKind: args.eventKind == null ? null : oneOf('eventKind', args.eventKind, ledgerEventKinds),
    since,
    before,
    limit,
    includeOtherAgentFrontier: args.includeOtherAgentFrontier ?? true,
  };
}

const isFiltered = (f: LedgerFilters) =>
  f.todoId !== null || f.eventKind !== null || f.since !== null || f.before !== null;

/**
 * The scoped read model (docs/api.md, "Evidence ledger"), from one snapshot: the newest `limit` rows of the
 * agent's scope (oldest first), keyset-paged with `before`, the other agents compressed into
 * their frontier, reader hints, and the digest of the rows.
 */
export async function evidenceLedger(
  db: Db,
  caller: Caller | null,
  args: EvidenceLedgerArgs,
  frontiers: FrontierCache | null = null,
): Promise<EvidenceLedgerPacket> {
  const goalId = validateId('goalId', args.goalId);
  const agentId = validateId('agentId', args.agentId);
  const filters = validateFilters(args);
  return db.transaction(async (tx) => {
    // One snapshot for every read. Set in the transaction rather than as its options, which
    // would cost a round trip of its own before the first read: sent with the access check,
    // it still comes first on the connection.
    const snapshot = tx.execute(sql`set transaction isolation level repeatable read, read only`);
    snapshot.catch(() => {}); // awaited below, with the access check
    const base = {
      schemaVersion: SCHEMA_VERSION,
      goalId,
      agentId,
      generatedAt: new Date(),
      source: { eventLog: true, workGraph: true, deliveries: false },
      filters,
    } as const;
    const [, access] = await Promise.all([
      snapshot,
      checkLedgerAccess(tx, caller, goalId, agentId),
    ]);
    if (access.type === 'ScopeGap') {
      return {
        ...base,
        scope: {
          audience: caller?.kind ?? null,
          currentAgentDetail: false,
          otherAgentDetail: 'OMITTED',
          lanePrefixes: [],
        },
        events: [],
        page: { headSeq: 0n, olderCursor: null, hasOlder: false },
        otherAgentFrontier: [],
        omittedFrontierRowCount: 0,
        readerHints: { requiredBefore: [...ledgerReadPurposes], nextRequiredReads: [] },
        digest: digestOf(goalId, agentId, []),
        scopeGap: access,
      } satisfies EvidenceLedgerPacket;
    }
    // The frontier does not depend on the scope: it is sent along with the scope reads.
    const frontierRead = filters.includeOtherAgentFrontier
      ? otherAgentFrontier(tx, goalId, agentId, access, frontiers)
      : Promise.resolve({ rows: [], omitted: 0 });
    frontierRead.catch(() => {}); // awaited below; a failure aborts the transaction anyway
    const [scope, blocking] = await Promise.all([
      loadAgentScope(tx, goalId, agentId, access.roleScope),
      filters.todoId === null ? null : blockingGates(tx, goalId, filters.todoId),
    ]);
    const [page, frontier] = await Promise.all([
      scopedRows(tx, scope, filters, blocking),
      frontierRead,
    ]);
    const headSeq = access.headSeq;
    const events = [...page.newestFirst].reverse();
    return {
      ...base,
      scope: {
        audience: caller?.kind ?? null,
        currentAgentDetail: true,
        otherAgentDetail: filters.includeOtherAgentFrontier ? 'COMPRESSED_FRONTIER' : 'OMITTED',
        lanePrefixes: scope.lanePrefixes,
      },
      events,
      page: {
        headSeq,
        olderCursor: page.hasOlder ? (events[0]?.seq ?? null) : null,
        hasOlder: page.hasOlder,
      },
      otherAgentFrontier: frontier.rows,
      omittedFrontierRowCount: frontier.omitted,
      readerHints: readerHints(goalId, agentId, filters, events, page.hasOlder),
      digest: digestOf(goalId, agentId, page.newestFirst),
      scopeGap: null,
    } satisfies EvidenceLedgerPacket;
  });
}

/** Gates whose rows block `todoId`: covering a scope it requires, or named by a `gate_resolved:` condition. */
async function blockingGates(tx: Tx, goalId: string, todoId: string): Promise<string[]> {
  const t = todosTable;
  const g = gatesTable;
  const [todo] = await tx
    .select({
      required: t.requiredDecisionScopes,
      resume: t.resumeWhen,
      // The goal's gates come along as one JSON array, so this stays one statement.
      gates: sql<Pick<GateRow, 'id' | 'kind' | 'granularity' | 'scopeKey'>[]>`(
        select coalesce(json_agg(json_build_object('id', ${g.id}, 'kind', ${g.kind},
          'granularity', ${g.granularity}, 'scopeKey', ${g.scopeKey})), '[]'::json)
        from ${g} where ${g.goalId} = ${goalId})`,
    })
    .from(t)
    .where(and(eq(t.goalId, goalId), eq(t.id, todoId)));
  if (!todo) throw new InputError(`unknown todo in this goal: ${todoId}`, 'todoId');
  const required = todo.required.map((s) => parseDecisionScope('todoId', s));
  const ids = new Set(
    todo.resume
      .map((c) => parseResumeCondition('todoId', c))
      .flatMap((c) => (c.kind === 'gate_resolved' ? [c.gateId] : [])),
  );
  for (const gate of todo.gates) {
    if (required.some((r) => covers(gate, r))) ids.add(gate.id);
  }
  return [...ids];
}

/**
 * The newest `limit` rows of the scope that pass the filters, newest first, plus whether
 * older ones exist. One statement, keyset-paged on (goal_id, seq): on a large goal it walks
 * the primary key backwards from the cursor and stops after `limit + 1` matches, with no
 * sort and no OFFSET.
 */
export async function scopedRows(
  q: Queryable,
  scope: AgentScope,
  filters: Pick<LedgerFilters, 'todoId' | 'eventKind' | 'since' | 'before' | 'limit'>,
  blocking: string[] | null,
): Promise<{ newestFirst: LedgerEvent[]; hasOlder: boolean }> {
  const e = ledgerEventsTable;
  const s = alias(ledgerEventsTable, 's');
  const conditions: (SQL | undefined)[] = [eq(e.goalId, scope.goalId), scopeSql(scope)];
  if (filters.before !== null) conditions.push(lt(e.seq, BigInt(filters.before)));
  if (filters.eventKind !== null) conditions.push(eq(e.eventKind, filters.eventKind));
  if (filters.since !== null) {
    // The time index finds where `since` falls in the sequence, so the walk stops there.
    conditions.push(
      gt(e.recordedAt, filters.since),
      gt(
        e.seq,
        sql`coalesce((select ${s.seq} from ${ledgerEventsTable} as ${s} where ${s.goalId} = ${scope.goalId}
          and ${s.recordedAt} <= ${filters.since.toISOString()}::timestamptz
          order by ${s.recordedAt} desc limit 1), 0)`,
      ),
    );
  }
  if (filters.todoId !== null) {
    const goalBlockers = and(
      isNotNull(e.goalChange),
      or(
        and(eq(e.eventKind, 'BLOCKER'), sql`${e.todoId} is null`),
        ...(blocking && blocking.length > 0 ? [inArray(e.gateId, blocking)] : []),
      ),
    );
    conditions.push(or(eq(e.todoId, filters.todoId), goalBlockers));
  }
  const rows = await q
    .select()
    .from(e)
    .where(and(...conditions))
    .orderBy(desc(e.seq))
    .limit(filters.limit + 1);
  const hasOlder = rows.length > filters.limit;
  return {
    newestFirst: rows.slice(0, filters.limit).map((row) => {
      const event = eventOf(row);
      return { ...event, relevance: relevanceOf(scope, event) };
    }),
    hasOlder,
  };
}

/** The evidenceLedger call a required read names. */
export function ledgerQuery(goalId: string, agentId: string, extra = ''): string {
  return `evidenceLedger(goalId: ${JSON.stringify(goalId)}, agentId: ${JSON.stringify(agentId)}${extra})`;
}

/**
 * What must still be read before an autonomous or successor replan or a handoff: the
 * unfiltered read when this one was filtered or paged (a checkpoint cites the digest of an
 * unfiltered first page), the next older page when this page holds no replan checkpoint of
 * the agent and older rows exist, and the frontier when it was left out.
 */
function readerHints(
  goalId: string,
  agentId: string,
  filters: LedgerFilters,
  events: readonly LedgerEvent[],
  hasOlder: boolean,
): EvidenceLedgerPacket['readerHints'] {
  const reads: RequiredRead[] = [];
  if (isFiltered(filters)) {
    reads.push({
      query: ledgerQuery(goalId, agentId),
      reason:
        'this read was filtered or paged; a replan checkpoint cites the digest of an unfiltered first page',
    });
  }
  const checkpointed = events.some((e) => e.eventKind === 'REPLAN' && e.agentId === agentId);
  if (hasOlder && !checkpointed && events[0]) {
    reads.push({
      query: ledgerQuery(goalId, agentId, `, before: "${events[0].seq}"`),
      reason:
        'no replan checkpoint of this agent is on this page and older rows exist: read back to the last checkpoint',
    });
  }
  if (!filters.includeOtherAgentFrontier) {
    reads.push({
      query: ledgerQuery(goalId, agentId, ', includeOtherAgentFrontier: true'),
      reason: "a handoff needs the other agents' compressed frontier",
    });
  }
  return { requiredBefore: [...ledgerReadPurposes], nextRequiredReads: reads };
}
