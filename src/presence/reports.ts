import { and, eq, isNull, sql } from 'drizzle-orm';
import type { ProviderCaller } from '../core/caller.ts';
import { InputError } from '../core/errors.ts';
import { screenText, validateId, validateText } from '../core/validate.ts';
import type { Db } from '../db/database.ts';
import { jsonRows, prepared, textArrayLiteral } from '../db/sql.ts';
import { advanceHead, lockHead } from '../events/sequence.ts';
import { agentsTable } from '../registry/tables.ts';
import { MAX_REF_LENGTH, MAX_REPORTS_PER_BATCH } from './providers.ts';
import {
  type BlockedKind,
  type Liveness,
  MAX_EXPLAIN_LENGTH,
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
  /** Which source decided and why, e.g. "OSC 7501 blocked(permission)". */
  explain?: string | null;
  /** What a BLOCKED occupant waits for; refused with any other liveness. */
  blockedKind?: BlockedKind | null;
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
  'INVALID_REPORT',
] as const;
export type RefusalReason = (typeof refusalReasons)[number];

/** One report refused (nothing of it written), or with PROVIDER_NOT_REGISTERED the whole call. */
export interface PresenceRefused {
  readonly type: 'PresenceRefused';
  /** The report's position in the batch. */
  readonly index: number;
  readonly goalId: string;
  readonly agentId: string;
  readonly reason: RefusalReason;
  /** With INVALID_REPORT: the input field at fault, and what is wrong with it. */
  readonly field: string | null;
  readonly message: string | null;
}

export interface PresenceAccepted {
  readonly type: 'PresenceAccepted';
  /** Reports that changed liveness, blocked kind or occupant (each advanced stateChangeSeq). */
  readonly changed: number;
  /** Reports that repeated the current state (observedAt, basis and explain moved only). */
  readonly heartbeats: number;
  /** Reports older than one already applied for the location, ignored. */
  readonly outOfOrder: number;
  /** The reports refused one by one, in batch order; the others were applied. */
  readonly refused: PresenceRefused[];
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
  explain: string | null;
  blockedKind: BlockedKind | null;
  reportSeq: bigint;
  ended: boolean;
}

/**
 * Applies a batch of reports. Each report is judged on its own: one that is malformed, or names
 * a goal or agent that is not the provider's, is refused (`PresenceAccepted.refused`) and the
 * rest apply, so one bad report never holds back a provider's later batches. Only an
 * unregistered provider is refused as a whole.
 */
export function reportPresence(
  db: Db,
  caller: ProviderCaller,
  reports: PresenceReportInput[],
): Promise<ReportResult> {
  return applyReports(
    db,
    caller,
    reports.map((r) => ({
      goalId: r.goalId,
      agentId: r.agentId,
      normalize: () => ({
        ...checkLocation(r),
        occupantRef: validateText('occupantRef', r.occupantRef, MAX_REF_LENGTH, 1, 'one'),
        liveness: r.liveness,
        basis: r.basis,
        explain:
          r.explain == null ? null : screenText('explain', r.explain, MAX_EXPLAIN_LENGTH, 1, 'one'),
        blockedKind: checkBlockedKind(r.liveness, r.blockedKind ?? null),
        ended: false,
      }),
    })),
  );
}

/** Records that the occupant of a location is gone; refused as a whole when its one report is. */
export async function endPresence(
  db: Db,
  caller: ProviderCaller,
  input: EndPresenceInput,
): Promise<ReportResult> {
  const result = await applyReports(db, caller, [
    {
      goalId: input.goalId,
      agentId: input.agentId,
      normalize: () => ({
        ...checkLocation(input),
        occupantRef: null,
        liveness: null,
        basis: null,
        explain: null,
        blockedKind: null,
        ended: true,
      }),
    },
  ]);
  return result.type === 'PresenceAccepted' ? (result.refused[0] ?? result) : result;
}

/** The fields every report and end carries, checked; throws InputError naming the field. */
function checkLocation(r: EndPresenceInput) {
  validateId('goalId', r.goalId);
  validateId('agentId', r.agentId);
  validateText('providerSessionRef', r.providerSessionRef, MAX_REF_LENGTH, 1, 'one');
  if (Number.isNaN(r.observedAt.getTime()))
    throw new InputError('observedAt is not a valid time', 'observedAt');
  if (!/^\d{1,19}$/.test(r.reportSeq)) {
    throw new InputError('reportSeq must be a non-negative decimal integer', 'reportSeq');
  }
  return {
    goalId: r.goalId,
    agentId: r.agentId,
    providerSessionRef: r.providerSessionRef,
    observedAt: r.observedAt,
    reportSeq: BigInt(r.reportSeq),
  };
}

function checkBlockedKind(liveness: Liveness, kind: BlockedKind | null): BlockedKind | null {
  if (kind !== null && liveness !== 'BLOCKED') {
    throw new InputError('blockedKind is reported only with liveness BLOCKED', 'blockedKind');
  }
  return kind;
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

/** The provider's instance and TTL, share-locked to commit, and the transaction's clock. */
const providerNow = prepared('provider_now', (db) =>
  db
    .select({
      instanceId: providersTable.instanceId,
      presenceTtlMs: providersTable.presenceTtlMs,
      host: providersTable.host,
      now: sql<Date>`now()`.mapWith((value: string | Date) => new Date(value)),
    })
    .from(providersTable)
    .where(eq(providersTable.providerId, sql.placeholder('providerId')))
    .for('share'),
);

/** Liveness as a reader saw it: UNKNOWN once lapsed. */
const readLiveness = (row: PresenceRow): Liveness => (row.lapse ? 'UNKNOWN' : row.liveness);

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

/** A report as received: its goal and agent (for a refusal) and how to check and normalize it. */
interface Received {
  readonly goalId: string;
  readonly agentId: string;
  /** Throws InputError when the report is malformed. */
  readonly normalize: () => Report;
}

/**
 * The one write path for presence. Judges each report first (malformed, goal out of scope,
 * agent not registered: refused, nothing of it written), then per goal: locks the presence
 * head, reads the current rows, applies the remaining reports in order in memory, and writes
 * the result with a constant number of statements.
 */
async function applyReports(
  db: Db,
  caller: ProviderCaller,
  received: readonly Received[],
): Promise<ReportResult> {
  if (received.length === 0) throw new InputError('reports must not be empty', 'reports');
  if (received.length > MAX_REPORTS_PER_BATCH) {
    throw new InputError(`at most ${MAX_REPORTS_PER_BATCH} reports per call`, 'reports');
  }
  const refused: PresenceRefused[] = [];
  const refusal = (index: number, reason: RefusalReason, error?: InputError): PresenceRefused => ({
    type: 'PresenceRefused',
    index,
    goalId: received[index]?.goalId as string,
    agentId: received[index]?.agentId as string,
    reason,
    field: error?.field ?? null,
    message: error?.message ?? null,
  });
  const checked: { index: number; report: Report }[] = [];
  received.forEach((r, index) => {
    try {
      checked.push({ index, report: r.normalize() });
    } catch (error) {
      if (!(error instanceof InputError)) throw error;
      refused.push(refusal(index, 'INVALID_REPORT', error));
    }
  });
  const screened = await screenEach(
    db,
    caller,
    checked.map((c) => c.report),
  );
  if (!screened.provider) return refusal(0, 'PROVIDER_NOT_REGISTERED');
  const { providerId } = screened.provider;
  const reports: { index: number; report: Report }[] = [];
  checked.forEach((c, i) => {
    const reason = screened.reasons[i];
    if (reason) refused.push(refusal(c.index, reason));
    else reports.push(c);
  });
  const result = {
    type: 'PresenceAccepted' as const,
    changed: 0,
    heartbeats: 0,
    outOfOrder: 0,
    refused,
  };
  const byGoal = new Map<string, { index: number; report: Report }[]>();
  for (const r of reports) {
    const goalReports = byGoal.get(r.report.goalId);
    if (goalReports) goalReports.push(r);
    else byGoal.set(r.report.goalId, [r]);
  }
  const goalIds = [...byGoal.keys()].sort();

  await db.transaction(async (tx) => {
    // The registration as of now, held until commit: a re-registration (which lapses the rows
    // of the instance it replaces) is wholly before or wholly after this batch.
    const [current] = await providerNow(tx).execute({ providerId });
    if (!current) throw new Error(`provider ${providerId} was registered but cannot be read`);
    const { instanceId, host } = current;
    const expiresAt = new Date(current.now.getTime() + current.presenceTtlMs);
    for (const goalId of goalIds) {
      const goalReports = byGoal.get(goalId) ?? [];
      const head = await lockHead(tx, goalId, 'presence');
      const current = new Map<string, PresenceRow>();
      const existing = await presenceOfProvider(tx).execute({
        goalId,
        providerId,
        agentIds: textArrayLiteral(goalReports.map((r) => r.report.agentId)),
      });
      for (const row of existing) current.set(keyOf(row), row);

      const changes: (typeof presenceChangesTable.$inferInsert)[] = [];
      const touched = new Set<string>();
      let seq = head;
      for (const { index, report: r } of goalReports) {
        const key = keyOf(r);
        const before = current.get(key);
        if (r.ended && !before) {
          refused.push(refusal(index, 'NO_PRESENCE_AT_LOCATION'));
          continue;
        }
        if (before && r.reportSeq <= before.reportSeq && before.instanceId === instanceId) {
          result.outOfOrder++;
          continue;
        }
        const occupantRef = r.occupantRef ?? (before?.occupantRef as string);
        const liveness = r.liveness ?? (before?.liveness as Liveness);
        const basis = r.basis ?? (before?.basis as PresenceBasis);
        const explain = r.ended ? (before?.explain ?? null) : r.explain;
        const blockedKind = r.ended ? (before?.blockedKind ?? null) : r.blockedKind;
        const changed =
          !before ||
          r.ended !== (before.endedAt !== null) ||
          before.liveness !== liveness ||
          before.blockedKind !== blockedKind ||
          before.occupantRef !== occupantRef ||
          before.lapse !== null;
        const next: PresenceRow = {
          goalId,
          agentId: r.agentId,
          providerId,
          providerSessionRef: r.providerSessionRef,
          host,
          instanceId,
          occupantRef,
          liveness,
          basis,
          explain,
          blockedKind,
          observedAt: r.observedAt,
          reportSeq: r.reportSeq,
          stateChangeSeq: before?.stateChangeSeq ?? 0n,
          endedAt: r.ended ? (before?.endedAt ?? r.observedAt) : null,
          expiresAt,
          lapse: null,
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
            host,
            occupantRef,
            liveness,
            previousLiveness: before && before.endedAt === null ? readLiveness(before) : null,
            basis,
            explain,
            blockedKind,
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
            instance_id = excluded.instance_id, host = excluded.host, occupant_ref = excluded.occupant_ref,
            liveness = excluded.liveness, basis = excluded.basis,
            explain = excluded.explain, blocked_kind = excluded.blocked_kind,
            observed_at = excluded.observed_at, report_seq = excluded.report_seq,
            state_change_seq = excluded.state_change_seq, ended_at = excluded.ended_at,
            expires_at = excluded.expires_at, lapse = excluded.lapse`),
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
  });
  refused.sort((a, b) => a.index - b.index);
  return result;
}

/**
 * Judges every report before anything is written: the provider is registered (else no
 * provider), each goal is one its credential and its registration cover, and each agent is
 * registered and active (a live session never creates an identity). `reasons[i]` is why
 * report i is refused, undefined when it may apply.
 */
async function screenEach(
  db: Db,
  caller: ProviderCaller,
  reports: readonly Pick<Report, 'goalId' | 'agentId'>[],
): Promise<{ provider: Provider | undefined; reasons: (RefusalReason | undefined)[] }> {
  // Both reads at once (one round trip).
  const [[provider], registered] = await Promise.all([
    providerById(db).execute({ providerId: caller.providerId }),
    registeredAgents(db).execute({
      goalIds: textArrayLiteral(reports.map((r) => r.goalId)),
      agentIds: textArrayLiteral(reports.map((r) => r.agentId)),
    }),
  ]);
  const known = new Set(registered.map((row) => JSON.stringify([row.goalId, row.agentId])));
  return {
    provider,
    reasons: reports.map((r) =>
      !caller.goalIds.includes(r.goalId) || !provider?.goalIds.includes(r.goalId)
        ? 'GOAL_NOT_IN_SCOPE'
        : !known.has(JSON.stringify([r.goalId, r.agentId]))
          ? 'AGENT_NOT_REGISTERED'
          : undefined,
    ),
  };
}

/** The same judgement for a single report (an observation): the provider, or the refusal. */
export async function screenReports(
  db: Db,
  caller: ProviderCaller,
  reports: readonly Pick<Report, 'goalId' | 'agentId'>[],
): Promise<{ provider: Provider } | { refused: PresenceRefused }> {
  const { provider, reasons } = await screenEach(db, caller, reports);
  const index = provider ? reasons.findIndex((reason) => reason !== undefined) : 0;
  if (provider && index < 0) return { provider };
  return {
    refused: {
      type: 'PresenceRefused',
      index,
      goalId: reports[index]?.goalId as string,
      agentId: reports[index]?.agentId as string,
      reason: provider ? (reasons[index] as RefusalReason) : 'PROVIDER_NOT_REGISTERED',
      field: null,
      message: null,
    },
  };
}
