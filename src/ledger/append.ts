/**
 * The ledger's write path: the only way a row enters the ledger (docs/api.md, "Evidence ledger", "Writing").
 * Other domains append their rows with `appendEvent(tx, event)` inside their own transaction,
 * so a change and its row commit together or not at all. This file and tables.ts import no
 * domain above the registry, so the work graph appends without importing the ledger's reads.
 */

import { getTableColumns, type SQL, sql } from 'drizzle-orm';
import type { Actor, CallerKind } from '../core/caller.ts';
import { InputError } from '../core/errors.ts';
import { type Boundary, type Refusal, screenEvent } from '../core/privacy.ts';
import type { Tx } from '../db/database.ts';
import { bare, textArray } from '../db/sql.ts';
import { appendAtNextSeq } from '../events/sequence.ts';
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
