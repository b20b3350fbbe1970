/**
 * Replan obligations: what an agent owes before it goes on — a digest-checked replan
 * checkpoint (recordReplanCheckpoint) after material rows in its ledger, after a handoff to
 * it, or for a vision it never checkpointed — and the reads that come first. Only a REPLAN
 * row clears an obligation, and only recordReplanCheckpoint writes one, after checking the
 * digest it cites: an acknowledgement recorded any other way is one more material row.
 */

import { type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { Caller } from '../core/caller.ts';
import type { ScopeGap } from '../core/scope.ts';
import { validateId } from '../core/validate.ts';
import type { Db, Queryable } from '../db/database.ts';
import { rowsOf } from '../db/sql.ts';
import { visionsTable } from '../work/tables.ts';
import { checkLedgerAccess } from './access.ts';
import { LEDGER_LIMITS } from './limits.ts';
import { ledgerQuery, type RequiredRead } from './read.ts';
import { loadAgentScopes } from './scope.ts';
import { ledgerEventsTable } from './tables.ts';

export const replanObligationKinds = [
  'VISION_CHECKPOINT_MISSING',
  'MATERIAL_SINCE_CHECKPOINT',
  'HANDOFF_RECEIVED',
] as const;
export type ReplanObligationKind = (typeof replanObligationKinds)[number];

/** How many rows an obligation counts before it stops (`countCapped`). */
export const MAX_COUNTED_ROWS = 200;

export interface ReplanObligation {
  readonly kind: ReplanObligationKind;
  readonly detail: string;
  /** Rows behind it after the last checkpoint (at most MAX_COUNTED_ROWS); 0 for a vision. */
  readonly count: number;
  readonly countCapped: boolean;
  /** The newest such row. */
  readonly latestSeq: bigint | null;
}

export interface LastCheckpoint {
  readonly seq: bigint;
  readonly recordedAt: Date;
  /** PATCHED, PRESERVED, RETIRED or SUPERSEDED. */
  readonly kind: string;
  readonly citedDigest: string | null;
}

export interface ReplanObligations {
  readonly type: 'ReplanObligations';
  readonly goalId: string;
  readonly agentId: string;
  readonly owed: boolean;
  readonly obligations: ReplanObligation[];
  readonly lastCheckpoint: LastCheckpoint | null;
  readonly hasVision: boolean;
  /** Empty when nothing is owed. */
  readonly requiredReads: RequiredRead[];
  readonly headSeq: bigint;
}

export type ReplanObligationsResult = ReplanObligations | ScopeGap;

/** The CLI command that reads the same unfiltered first page as `ledgerQuery`. */
export const evidenceLogCommand = (agentId: string) =>
  `switchboard evidence-log --agent ${agentId} --limit ${LEDGER_LIMITS.defaultLimit}`;

/**
 * Whether an agent has a vision and no replan checkpoint at all (one probe each of the
 * vision's key and ledger_events_replan_idx), as SQL for read models that show it.
 */
export const visionCheckpointMissingSql = (
  goalId: string | SQLWrapper,
  agentId: string | SQLWrapper,
): SQL<boolean> => {
  const v = visionsTable;
  const e = ledgerEventsTable;
  return sql<boolean>`(exists (select 1 from ${v}
      where ${v.goalId} = ${goalId} and ${v.agentId} = ${agentId})
    and not exists (select 1 from ${e}
      where ${e.goalId} = ${goalId} and ${e.agentId} = ${agentId} and ${e.eventKind} = 'REPLAN'))`;
};

/**
 * What `agentId` owes in `goalId`, read like its ledger (a PEER only its own; an ADMIN or
 * STEWARD any agent's of a goal in scope), from one snapshot in a constant number of
 * statements.
 */
export async function replanObligations(
  db: Db,
  caller: Caller | null,
  goalIdArg: string,
  agentIdArg: string,
): Promise<ReplanObligationsResult> {
  const goalId = validateId('goalId', goalIdArg);
  const agentId = validateId('agentId', agentIdArg);
  return db.transaction(
    async (tx) => {
      const access = await checkLedgerAccess(tx, caller, goalId, agentId);
      if (access.type === 'ScopeGap') return access;
      const [owed] = await obligationsOf(tx, goalId, [{ agentId, roleScope: access.roleScope }]);
      return { ...(owed as ReplanObligations), headSeq: access.headSeq };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

/**
 * The obligations of several agents of a goal, in three statements whatever their number
 * (two for their scopes, one for their checkpoints and counts). No access check: callers
 * have established scope for the goal.
 */
export async function obligationsOf(
  q: Queryable,
  goalId: string,
  agents: readonly { agentId: string; roleScope: string | null }[],
): Promise<ReplanObligations[]> {
  if (agents.length === 0) return [];
  const scopes = await loadAgentScopes(q, goalId, agents);
  const e = ledgerEventsTable;
  const v = visionsTable;
  const list = agents.map(({ agentId }) => {
    const scope = scopes.get(agentId);
    return {
      agent_id: agentId,
      work: [...(scope?.claimed ?? []), ...(scope?.lane ?? [])],
      deps: [...(scope?.dependencies ?? [])],
      gates: [...(scope?.gates ?? [])],
    };
  });
  const cap = MAX_COUNTED_ROWS + 1;
  // The agent's ledger scope (scope.ts `scopeSql`), for the agent of the row `a`.
  const inScope = sql`(${e.agentId} = a.agent_id or ${e.relatedAgentId} = a.agent_id
    or ${e.goalChange} is not null or ${e.todoId} = any(a.work)
    or ${e.todoId} = any(a.deps) or ${e.gateId} = any(a.gates))`;
  const rows = rowsOf<{
    agent_id: string;
    has_vision: boolean;
    checkpoint_seq: string | null;
    checkpoint_at: string | null;
    checkpoint_kind: string | null;
    checkpoint_digest: string | null;
    material_count: number | string;
    material_latest: string | null;
    handoff_count: number | string;
    handoff_latest: string | null;
  }>(
    await q.execute(sql`select a.agent_id,
        exists (select 1 from ${v} where ${v.goalId} = ${goalId} and ${v.agentId} = a.agent_id)
          as has_vision,
        cp.seq::text as checkpoint_seq,
        to_char(cp.recorded_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as checkpoint_at,
        cp.kind as checkpoint_kind, cp.digest as checkpoint_digest,
        m.n as material_count, m.latest::text as material_latest,
        h.n as handoff_count, h.latest::text as handoff_latest
      from json_to_recordset(${JSON.stringify(list)}::json)
        as a(agent_id text, work text[], deps text[], gates text[])
      left join lateral (select ${e.seq} as seq, ${e.recordedAt} as recorded_at,
          ${e.classification} as kind, ${e.citedDigest} as digest
        from ${e} where ${e.goalId} = ${goalId} and ${e.agentId} = a.agent_id
          and ${e.eventKind} = 'REPLAN'
        order by ${e.seq} desc limit 1) cp on true
      left join lateral (select count(*)::int as n, max(x.seq) as latest from (
          select ${e.seq} as seq from ${e}
          where ${e.goalId} = ${goalId} and ${e.seq} > coalesce(cp.seq, 0) and ${e.material}
            and ${inScope}
          order by ${e.seq} desc limit ${cap}) x) m on true
      left join lateral (select count(*)::int as n, max(y.seq) as latest from (
          select ${e.seq} as seq from ${e}
          where ${e.goalId} = ${goalId} and ${e.relatedAgentId} = a.agent_id
            and ${e.eventKind} = 'HANDOFF' and ${e.seq} > coalesce(cp.seq, 0)
          order by ${e.seq} desc limit ${cap}) y) h on true`),
  );
  const byAgent = new Map(rows.map((row) => [row.agent_id, row]));
  return agents.map(({ agentId }) => {
    const row = byAgent.get(agentId);
    const checkpoint: LastCheckpoint | null =
      row?.checkpoint_seq == null
        ? null
        : {
            seq: BigInt(row.checkpoint_seq),
            recordedAt: new Date(row.checkpoint_at as string),
            kind: (row.checkpoint_kind ?? '').toUpperCase(),
            citedDigest: row.checkpoint_digest,
          };
    const obligations: ReplanObligation[] = [];
    const since = checkpoint === null ? 'ever' : `since its checkpoint at seq ${checkpoint.seq}`;
    const counted = (n: number | string | undefined) => Math.min(Number(n ?? 0), MAX_COUNTED_ROWS);
    const capped = (n: number | string | undefined) => Number(n ?? 0) > MAX_COUNTED_ROWS;
    const latest = (s: string | null | undefined) => (s == null ? null : BigInt(s));
    if (row?.has_vision && checkpoint === null) {
      obligations.push({
        kind: 'VISION_CHECKPOINT_MISSING',
        detail:
          'it has a vision and has recorded no replan checkpoint: record whether the vision is patched, preserved, retired or superseded',
        count: 0,
        countCapped: false,
        latestSeq: null,
      });
    }
    if (Number(row?.material_count ?? 0) > 0) {
      obligations.push({
        kind: 'MATERIAL_SINCE_CHECKPOINT',
        detail: `${counted(row?.material_count)}${capped(row?.material_count) ? '+' : ''} material row(s) in its ledger ${since}`,
        count: counted(row?.material_count),
        countCapped: capped(row?.material_count),
        latestSeq: latest(row?.material_latest),
      });
    }
    if (Number(row?.handoff_count ?? 0) > 0) {
      obligations.push({
        kind: 'HANDOFF_RECEIVED',
        detail: `${counted(row?.handoff_count)} handoff(s) to it ${since}: read the packet (handoff) and its ledger`,
        count: counted(row?.handoff_count),
        countCapped: capped(row?.handoff_count),
        latestSeq: latest(row?.handoff_latest),
      });
    }
    const owed = obligations.length > 0;
    return {
      type: 'ReplanObligations',
      goalId,
      agentId,
      owed,
      obligations,
      lastCheckpoint: checkpoint,
      hasVision: row?.has_vision ?? false,
      requiredReads: owed
        ? [
            {
              query: ledgerQuery(goalId, agentId),
              command: evidenceLogCommand(agentId),
              reason:
                'read the unfiltered first page of its ledger, then recordReplanCheckpoint citing that read’s digest; nothing else clears an obligation',
            },
          ]
        : [],
      headSeq: 0n,
    } satisfies ReplanObligations;
  });
}
