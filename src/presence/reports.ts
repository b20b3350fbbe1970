import { and, eq, isNull, sql } from 'drizzle-orm';
import type { ProviderCaller } from '../core/caller.ts';
import { InputError } from '../core/errors.ts';
import { refuse, transactOrRefuse } from '../core/transaction.ts';
import { validateId, validateText } from '../core/validate.ts';
import type { Db } from '../db/database.ts';
import { jsonRows, prepared, textArrayLiteral } from '../db/sql.ts';
import { advanceHead, lockHead } from '../events/sequence.ts';
import { agentsTable } from '../registry/tables.ts';
import { MAX_REF_LENGTH, MAX_REPORTS_PER_BATCH } from './providers.ts';
import {
  type Liveness,
  type PresenceBasis,
  type PresenceRow,
  type Provider,
  presenceChangesTable,
  presenceTable,
  providersTable,
} from './tables.ts';

export interface PresenceReportInput {
  goalId: string;
  agentId: string;
  providerSessionRef: string;
  occupantRef: string;
  liveness: Liveness;
  observedAt: Date;
  basis: PresenceBasis;
  /** The provider's own monotonic sequence for this location. */
  reportSeq: string;
}

export interface EndPresenceInput {
  goalId: string;
  agentId: string;
  providerSessionRef: string;
  observedAt: Date;
  reportSeq: string;
}

export const refusalReasons = [
  'PROVIDER_NOT_REGISTERED',
  'GOAL_NOT_IN_SCOPE',
  'AGENT_NOT_REGISTERED',
  'NO_PRESENCE_AT_LOCATION',
] as const;
export type RefusalReason = (typeof refusalReasons)[number];

export interface PresenceRefused {
  readonly type: 'PresenceRefused';
  /** Position in the batch of the first report refused; the whole batch was refused. */
  readonly index: number;
  readonly goalId: string;
  readonly agentId: string;
  readonly reason: RefusalReason;
}

export interface PresenceAccepted {
  readonly type: 'PresenceAccepted';
  /** Reports that changed liveness or occupant (each advanced stateChangeSeq). */
  readonly changed: number;
  /** Reports that repeated the current state (observedAt moved only). */
  readonly heartbeats: number;
  /** Reports older than one already applied for the location, ignored. */
  readonly outOfOrder: number;
}

export type ReportResult = PresenceAccepted | PresenceRefused;

/** A report or an end, normalized for the one write path. */
export interface Report {
  goalId: string;
  agentId: string;
  providerSessionRef: string;
  occupantRef: string | null;
  liveness: Liveness | null;
  observedAt: Date;
  basis: PresenceBasis | null;
  reportSeq: bigint;
  ended: boolean;
}

export function reportPresence(
  db: Db,
  caller: ProviderCaller,
  reports: PresenceReportInput[],
): Promise<ReportResult> {
  return applyReports(
    db,
    caller,
    reports.map((r) => ({
      ...r,
      occupantRef: validateText('occupantRef', r.occupantRef, MAX_REF_LENGTH, 1, 'one'),
      reportSeq: parseReportSeq(r.reportSeq),
      ended: false,
    })),
  );
}

/** Records that the occupant of a location is gone. */
export function endPresence(
  db: Db,
  caller: ProviderCaller,
  input: EndPresenceInput,
): Promise<ReportResult> {
  return applyReports(db, caller, [
    {
      ...input,
      occupantRef: null,
      liveness: null,
      basis: null,
      reportSeq: parseReportSeq(input.reportSeq),
      ended: true,
    },
  ]);
}

function parseReportSeq(value: string): bigint {
  if (!/^\d{1,19}$/.test(value)) {
    throw new InputError('reportSeq must be a non-negative decimal integer', 'reportSeq');
  }
  return BigInt(value);
}

const keyOf = (r: { goalId: string; agentId: string; providerSessionRef: string }) =>
  JSON.stringify([r.goalId, r.agentId, r.providerSessionRef]);

/** The provider's current rows for some agents of a goal (read under the presence head lock). */
const presenceOfProvider = prepared('presence_of_provider', (db) =>
  db
    .select()
    .from(presenceTable)
    .where(
      and(
        eq(presenceTable.goalId, sql.placeholder('goalId')),
        eq(presenceTable.providerId, sql.placeholder('providerId')),
        sql`${presenceTable.agentId} = any(${sql.placeholder('agentIds')}::text[])`,
      ),
    ),
);

const providerById = prepared('provider_by_id', (db) =>
  db
    .select()
    .from(providersTable)
    .where(eq(providersTable.providerId, sql.placeholder('providerId'))),
);

/** Which of the (goal, agent) pairs, given as two parallel arrays, are registered and not retired. */
const registeredAgents = prepared('registered_agent_pairs', (db) =>
  db
    .select({ goalId: agentsTable.goalId, agentId: agentsTable.agentId })
    .from(agentsTable)
    .where(
      and(
        isNull(agentsTable.retiredAt),
        sql`(${agentsTable.goalId}, ${agentsTable.agentId}) in (select * from unnest(
          ${sql.placeholder('goalIds')}::text[], ${sql.placeholder('agentIds')}::text[]))`,
      ),
    ),
);

/**
 * The one write path for presence. Validates the whole batch first (a refusal writes
 * nothing), then per goal: locks the presence head, reads the current rows, applies the
 * reports in order in memory, and writes the result with a constant number of statements.
 */
async function applyReports(
  db: Db,
  caller: ProviderCaller,
  reports: Report[],
): Promise<ReportResult> {
  if (reports.length === 0) throw new InputError('reports must not be empty', 'reports');
  if (reports.length > MAX_REPORTS_PER_BATCH) {
    throw new InputError(`at most ${MAX_REPORTS_PER_BATCH} reports per call`, 'reports');
  }
  for (const r of reports) {
    validateId('goalId', r.goalId);
    validateId('agentId', r.agentId);
    validateText('providerSessionRef', r.providerSessionRef, MAX_REF_LENGTH, 1, 'one');
    if (Number.isNaN(r.observedAt.getTime()))
      throw new InputError('observedAt is not a valid time', 'observedAt');
  }
  const screened = await screenReports(db, caller, reports);
  if ('refused' in screened) return screened.refused;
  const { providerId, instanceId } = screened.provider;
  const result = { type: 'PresenceAccepted' as const, changed: 0, heartbeats: 0, outOfOrder: 0 };
  const byGoal = new Map<string, Report[]>();
  for (const r of reports) {
    const goalReports = byGoal.get(r.goalId);
    if (goalReports) goalReports.push(r);
    else byGoal.set(r.goalId, [r]);
  }
  const goalIds = [...byGoal.keys()].sort();

  return transactOrRefuse<ReportResult>(db, async (tx) => {
    for (const goalId of goalIds) {
      const goalReports = byGoal.get(goalId) ?? [];
      const head = await lockHead(tx, goalId, 'presence');
      const current = new Map<string, PresenceRow>();
      const existing = await presenceOfProvider(tx).execute({
        goalId,
        providerId,
        agentIds: textArrayLiteral(goalReports.map((r) => r.agentId)),
      });
      for (const row of existing) current.set(keyOf(row), row);

      const changes: (typeof presenceChangesTable.$inferInsert)[] = [];
      const touched = new Set<string>();
      let seq = head;
      for (const r of goalReports) {
        const key = keyOf(r);
        const before = current.get(key);
        if (r.ended && !before) {
          refuse({
            type: 'PresenceRefused',
            index: reports.indexOf(r),
            goalId,
            agentId: r.agentId,
            reason: 'NO_PRESENCE_AT_LOCATION',
          });
        }
        if (before && r.reportSeq <= before.reportSeq && before.instanceId === instanceId) {
          result.outOfOrder++;
          continue;
        }
        const occupantRef = r.occupantRef ?? (before?.occupantRef as string);
        const liveness = r.liveness ?? (before?.liveness as Liveness);
        const basis = r.basis ?? (before?.basis as PresenceBasis);
        const changed =
          !before ||
          r.ended !== (before.endedAt !== null) ||
          before.liveness !== liveness ||
          before.occupantRef !== occupantRef;
        const next: PresenceRow = {
          goalId,
          agentId: r.agentId,
          providerId,
          providerSessionRef: r.providerSessionRef,
          instanceId,
          occupantRef,
          liveness,
          basis,
          observedAt: r.observedAt,
          reportSeq: r.reportSeq,
          stateChangeSeq: before?.stateChangeSeq ?? 0n,
          endedAt: r.ended ? (before?.endedAt ?? r.observedAt) : null,
        };
        if (changed) {
          seq += 1n;
          next.stateChangeSeq = seq;
          changes.push({
            goalId,
            seq,
            agentId: r.agentId,
            providerId,
            providerSessionRef: r.providerSessionRef,
            occupantRef,
            liveness,
            previousLiveness: before && before.endedAt === null ? before.liveness : null,
            basis,
            observedAt: r.observedAt,
            ended: r.ended,
          });
          result.changed++;
        } else {
          result.heartbeats++;
        }
        current.set(key, next);
        touched.add(key);
      }
      // The writes do not depend on each other: sent at once, one round trip (a failed one
      // fails the transaction, and with it the rest).
      const writes: Promise<unknown>[] = [];
      const rows = [...touched].map((key) => current.get(key) as PresenceRow);
      if (rows.length > 0) {
        const upsert = jsonRows(presenceTable, rows);
        writes.push(
          tx.execute(sql`insert into ${presenceTable} (${upsert.columns})
          select ${upsert.columns} from ${upsert.source}
          on conflict (goal_id, agent_id, provider_id, provider_session_ref) do update set
            instance_id = excluded.instance_id, occupant_ref = excluded.occupant_ref,
            liveness = excluded.liveness, basis = excluded.basis,
            observed_at = excluded.observed_at, report_seq = excluded.report_seq,
            state_change_seq = excluded.state_change_seq, ended_at = excluded.ended_at`),
        );
      }
      if (changes.length > 0) {
        const changed = jsonRows(presenceChangesTable, changes);
        writes.push(
          tx.execute(sql`insert into ${presenceChangesTable} (${changed.columns})
          select ${changed.columns} from ${changed.source}`),
          advanceHead(tx, goalId, 'presence', seq),
        );
      }
      await Promise.all(writes);
    }
    return result;
  });
}

/**
 * Checks every report before anything is written: the provider is registered, each goal is
 * one its credential and its registration cover, and each agent is registered and active
 * (a live session never creates an identity). Returns the provider, or the first refusal.
 */
export async function screenReports(
  db: Db,
  caller: ProviderCaller,
  reports: Report[],
): Promise<{ provider: Provider } | { refused: PresenceRefused }> {
  const refuse = (index: number, reason: RefusalReason) => ({
    refused: {
      type: 'PresenceRefused' as const,
      index,
      goalId: reports[index]?.goalId as string,
      agentId: reports[index]?.agentId as string,
      reason,
    },
  });
  // Both reads at once (one round trip), judged in order.
  const [[provider], registered] = await Promise.all([
    providerById(db).execute({ providerId: caller.providerId }),
    registeredAgents(db).execute({
      goalIds: textArrayLiteral(reports.map((r) => r.goalId)),
      agentIds: textArrayLiteral(reports.map((r) => r.agentId)),
    }),
  ]);
  if (!provider) return refuse(0, 'PROVIDER_NOT_REGISTERED');
  const outside = reports.findIndex(
    (r) => !caller.goalIds.includes(r.goalId) || !provider.goalIds.includes(r.goalId),
  );
  if (outside >= 0) return refuse(outside, 'GOAL_NOT_IN_SCOPE');
  const known = new Set(registered.map((row) => JSON.stringify([row.goalId, row.agentId])));
  const unknown = reports.findIndex((r) => !known.has(JSON.stringify([r.goalId, r.agentId])));
  return unknown >= 0 ? refuse(unknown, 'AGENT_NOT_REGISTERED') : { provider };
}
