import { and, asc, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Caller, ProviderCaller } from '../core/caller.ts';
import { ForbiddenError, InputError } from '../core/errors.ts';
import type { ScopeGap } from '../core/scope.ts';
import { single } from '../core/stream.ts';
import { refuse, transactOrRefuse } from '../core/transaction.ts';
import { validateId, validateText } from '../core/validate.ts';
import type { Db, Queryable } from '../db/database.ts';
import { rowsOf, textArray } from '../db/sql.ts';
import type { Page, StreamHub } from '../events/hub.ts';
import { advanceHead, lockHead, readHead } from '../events/sequence.ts';
import { checkGoalScope } from '../registry/scope.ts';
import {
  type DeclaredSource,
  type Liveness,
  type ObservationLimit,
  type ObservationSource,
  observationSources,
  observationsTable,
  type PresenceBasis,
  type PresenceChangeRow,
  type PresenceRow,
  type Provider,
  presenceChangesTable,
  presenceTable,
  providersTable,
} from './tables.ts';

/** Most lines an excerpt may carry, whatever a provider declares. */
export const GATEWAY_MAX_LINES = 500;
/** Most reports in one reportPresence call. */
export const MAX_REPORTS_PER_BATCH = 500;
const MAX_REF_LENGTH = 200;
const MAX_LINE_LENGTH = 2000;

// ---- providers -----------------------------------------------------------------------

export interface RegisterProviderInput {
  providerId: string;
  instanceId: string;
  membershipProof: string;
  identifierRules: string;
  livenessMapping: { providerState: string; liveness: Liveness }[];
  presenceTtlMs: number;
  observationSources: DeclaredSource[];
  supportsPinnedWaits: boolean;
  persistence: string;
  rollup?: string | null;
}

/**
 * Records (or replaces) a provider's declaration. A new `instanceId` means the provider
 * restarted: presence its earlier instances reported now reads as stale.
 */
export async function registerProvider(
  db: Db,
  caller: ProviderCaller,
  input: RegisterProviderInput,
): Promise<Provider> {
  const providerId = validateId('providerId', input.providerId);
  if (caller.providerId !== providerId) {
    throw new ForbiddenError(
      `this credential speaks for provider ${caller.providerId}, not ${providerId}`,
    );
  }
  if (
    !Number.isInteger(input.presenceTtlMs) ||
    input.presenceTtlMs < 1000 ||
    input.presenceTtlMs > 86_400_000
  ) {
    throw new InputError('presenceTtlMs must be an integer from 1000 to 86400000', 'presenceTtlMs');
  }
  const sources = new Set<ObservationSource>();
  for (const declared of input.observationSources) {
    if (sources.has(declared.source)) {
      throw new InputError(
        `observation source ${declared.source} is declared twice`,
        'observationSources',
      );
    }
    sources.add(declared.source);
    if (
      !Number.isInteger(declared.maxLines) ||
      declared.maxLines < 1 ||
      declared.maxLines > 10_000
    ) {
      throw new InputError('maxLines must be an integer from 1 to 10000', 'observationSources');
    }
  }
  const mapping: Record<string, Liveness> = {};
  for (const { providerState, liveness } of input.livenessMapping) {
    mapping[validateText('livenessMapping.providerState', providerState, 100)] = liveness;
  }
  const values = {
    providerId,
    instanceId: validateText('instanceId', input.instanceId, MAX_REF_LENGTH),
    goalIds: [...caller.goalIds],
    membershipProof: validateText('membershipProof', input.membershipProof, 1000),
    identifierRules: validateText('identifierRules', input.identifierRules, 1000),
    livenessMapping: mapping,
    presenceTtlMs: input.presenceTtlMs,
    observationSources: input.observationSources.map((s) => ({
      source: s.source,
      maxLines: s.maxLines,
      limits: [...new Set(s.limits)],
    })),
    supportsPinnedWaits: input.supportsPinnedWaits,
    persistence: validateText('persistence', input.persistence, 1000),
    rollup: input.rollup ? validateText('rollup', input.rollup, 1000) : null,
  };
  const [row] = await db
    .insert(providersTable)
    .values(values)
    .onConflictDoUpdate({
      target: providersTable.providerId,
      set: { ...values, registeredAt: sql`now()` },
    })
    .returning();
  if (!row) throw new Error('provider was written but cannot be read');
  return row;
}

// ---- reports -------------------------------------------------------------------------

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
interface Report {
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
      occupantRef: validateText('occupantRef', r.occupantRef, MAX_REF_LENGTH),
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
    validateText('providerSessionRef', r.providerSessionRef, MAX_REF_LENGTH);
    if (Number.isNaN(r.observedAt.getTime()))
      throw new InputError('observedAt is not a valid time', 'observedAt');
  }
  const screened = await screenReports(db, caller, reports);
  if ('refused' in screened) return screened.refused;
  const { providerId, instanceId } = screened.provider;
  const result = { type: 'PresenceAccepted' as const, changed: 0, heartbeats: 0, outOfOrder: 0 };
  const byGoal = new Map<string, Report[]>();
  for (const r of reports) byGoal.set(r.goalId, [...(byGoal.get(r.goalId) ?? []), r]);
  const goalIds = [...byGoal.keys()].sort();

  return transactOrRefuse<ReportResult>(db, async (tx) => {
    for (const goalId of goalIds) {
      const goalReports = byGoal.get(goalId) ?? [];
      const head = await lockHead(tx, goalId, 'presence');
      const current = new Map<string, PresenceRow>();
      const existing = await tx
        .select()
        .from(presenceTable)
        .where(
          and(
            eq(presenceTable.goalId, goalId),
            eq(presenceTable.providerId, providerId),
            inArray(presenceTable.agentId, [...new Set(goalReports.map((r) => r.agentId))]),
          ),
        );
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
      const rows = [...touched].map((key) => current.get(key) as PresenceRow);
      if (rows.length > 0) {
        await tx
          .insert(presenceTable)
          .values(rows)
          .onConflictDoUpdate({
            target: [
              presenceTable.goalId,
              presenceTable.agentId,
              presenceTable.providerId,
              presenceTable.providerSessionRef,
            ],
            set: {
              instanceId: sql`excluded.instance_id`,
              occupantRef: sql`excluded.occupant_ref`,
              liveness: sql`excluded.liveness`,
              basis: sql`excluded.basis`,
              observedAt: sql`excluded.observed_at`,
              reportSeq: sql`excluded.report_seq`,
              stateChangeSeq: sql`excluded.state_change_seq`,
              endedAt: sql`excluded.ended_at`,
            },
          });
      }
      if (changes.length > 0) {
        await tx.insert(presenceChangesTable).values(changes);
        await advanceHead(tx, goalId, 'presence', seq);
      }
    }
    return result;
  });
}

/**
 * Checks every report before anything is written: the provider is registered, each goal is
 * one its credential and its registration cover, and each agent is registered and active
 * (a live session never creates an identity). Returns the provider, or the first refusal.
 */
async function screenReports(
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
  const [provider] = await db
    .select()
    .from(providersTable)
    .where(eq(providersTable.providerId, caller.providerId));
  if (!provider) return refuse(0, 'PROVIDER_NOT_REGISTERED');
  const outside = reports.findIndex(
    (r) => !caller.goalIds.includes(r.goalId) || !provider.goalIds.includes(r.goalId),
  );
  if (outside >= 0) return refuse(outside, 'GOAL_NOT_IN_SCOPE');
  const registered = rowsOf<{ goal_id: string; agent_id: string }>(
    await db.execute(sql`
      select goal_id, agent_id from agents
      where retired_at is null
        and (goal_id, agent_id) in (
          select * from unnest(${textArray(reports.map((r) => r.goalId))}, ${textArray(reports.map((r) => r.agentId))}))`),
  );
  const known = new Set(registered.map((row) => JSON.stringify([row.goal_id, row.agent_id])));
  const unknown = reports.findIndex((r) => !known.has(JSON.stringify([r.goalId, r.agentId])));
  return unknown >= 0 ? refuse(unknown, 'AGENT_NOT_REGISTERED') : { provider };
}

// ---- reading presence ----------------------------------------------------------------

export const coverageGaps = [
  'PRESENCE_TTL_EXPIRED',
  'PROVIDER_RESTARTED',
  'PROVIDER_CANNOT_CLASSIFY',
] as const;
export type CoverageGap = (typeof coverageGaps)[number];

/** Presence as a reader sees it: TTL expiry and provider restarts read as UNKNOWN, with the gap named. */
export interface Presence {
  readonly provider: string;
  readonly providerSessionRef: string;
  readonly occupantRef: string;
  readonly liveness: Liveness;
  readonly reportedLiveness: Liveness;
  readonly observedAt: Date;
  readonly basis: PresenceBasis;
  readonly stateChangeSeq: bigint;
  readonly stale: boolean;
  readonly coverageGap: CoverageGap | null;
  readonly endedAt: Date | null;
}

export function toPresence(
  row: PresenceRow,
  provider: Pick<Provider, 'instanceId' | 'presenceTtlMs'>,
  now: Date,
): Presence {
  const stale = row.instanceId !== provider.instanceId;
  const expired =
    row.endedAt === null && now.getTime() - row.observedAt.getTime() > provider.presenceTtlMs;
  const coverageGap: CoverageGap | null = stale
    ? 'PROVIDER_RESTARTED'
    : expired
      ? 'PRESENCE_TTL_EXPIRED'
      : row.liveness === 'UNKNOWN'
        ? 'PROVIDER_CANNOT_CLASSIFY'
        : null;
  return {
    provider: row.providerId,
    providerSessionRef: row.providerSessionRef,
    occupantRef: row.occupantRef,
    liveness: coverageGap ? 'UNKNOWN' : row.liveness,
    reportedLiveness: row.liveness,
    observedAt: row.observedAt,
    basis: row.basis,
    stateChangeSeq: row.stateChangeSeq,
    stale,
    coverageGap,
    endedAt: row.endedAt,
  };
}

export interface PresenceChange {
  readonly goalId: string;
  readonly agentId: string | null;
  readonly seq: bigint | null;
  readonly presence: Presence | null;
  readonly previousLiveness: Liveness | null;
  readonly scopeGap: ScopeGap | null;
}

const STREAM_PAGE = 500;

/**
 * Every change of presence in a goal after `after` (or from now), gap-free and in order,
 * as a live stream. Out of scope: one change carrying the scope gap, then the end.
 */
export async function presenceChanges(
  db: Db,
  hub: StreamHub<PresenceChange>,
  caller: Caller | null,
  goalId: string,
  agentIds: readonly string[] | null,
  after: string | null,
): Promise<AsyncIterable<PresenceChange>> {
  const gap = await checkGoalScope(db, caller, goalId);
  if (gap) {
    return single({
      goalId,
      agentId: null,
      seq: null,
      presence: null,
      previousLiveness: null,
      scopeGap: gap,
    });
  }
  const start = after === null ? await readHead(db, goalId, 'presence') : BigInt(after);
  return hub.subscribe(
    goalId,
    start,
    (change) => agentIds === null || agentIds.includes(change.agentId as string),
  );
}

/** One page of a goal's presence changes after `after`: what the presence hub reads per ring. */
export async function readPresencePage(
  db: Db,
  goalId: string,
  after: bigint,
): Promise<Page<PresenceChange>> {
  const rows = await db
    .select()
    .from(presenceChangesTable)
    .where(and(eq(presenceChangesTable.goalId, goalId), gt(presenceChangesTable.seq, after)))
    .orderBy(asc(presenceChangesTable.seq))
    .limit(STREAM_PAGE);
  const providers = await providerStates(db, [...new Set(rows.map((r) => r.providerId))]);
  const now = new Date();
  return {
    items: rows.map((r) => changeOf(r, providers.get(r.providerId), now)),
    cursor: rows.at(-1)?.seq ?? after,
    more: rows.length === STREAM_PAGE,
  };
}

function changeOf(
  row: PresenceChangeRow,
  provider: Pick<Provider, 'instanceId' | 'presenceTtlMs'> | undefined,
  now: Date,
): PresenceChange {
  const presenceRow: PresenceRow = {
    goalId: row.goalId,
    agentId: row.agentId,
    providerId: row.providerId,
    providerSessionRef: row.providerSessionRef,
    instanceId: provider?.instanceId ?? '',
    occupantRef: row.occupantRef,
    liveness: row.liveness,
    basis: row.basis,
    observedAt: row.observedAt,
    reportSeq: 0n,
    stateChangeSeq: row.seq,
    endedAt: row.ended ? row.observedAt : null,
  };
  return {
    goalId: row.goalId,
    agentId: row.agentId,
    seq: row.seq,
    presence: toPresence(
      presenceRow,
      provider ?? { instanceId: '', presenceTtlMs: Number.MAX_SAFE_INTEGER },
      now,
    ),
    previousLiveness: row.previousLiveness,
    scopeGap: null,
  };
}

export async function providerStates(
  db: Queryable,
  providerIds: readonly string[],
): Promise<Map<string, Provider>> {
  if (providerIds.length === 0) return new Map();
  const rows = await db
    .select()
    .from(providersTable)
    .where(inArray(providersTable.providerId, [...providerIds]));
  return new Map(rows.map((row) => [row.providerId, row]));
}

// ---- observation ---------------------------------------------------------------------

export interface ObservationInput {
  goalId: string;
  agentId: string;
  source: ObservationSource;
  lines: string[];
  limits: ObservationLimit[];
  capturedAt: Date;
}

/**
 * Stores the latest excerpt for one source, cut to the provider's declared bound and the
 * gateway maximum. Refused (nothing written) like presence when the agent or goal is not
 * the provider's, or when the source was never declared.
 */
export async function reportObservation(
  db: Db,
  caller: ProviderCaller,
  input: ObservationInput,
): Promise<PresenceAccepted | PresenceRefused | ObservationGap> {
  const providerId = caller.providerId;
  validateId('goalId', input.goalId);
  validateId('agentId', input.agentId);
  if (!observationSources.includes(input.source)) throw new InputError('unknown source', 'source');
  const report: Report = {
    goalId: input.goalId,
    agentId: input.agentId,
    providerSessionRef: '-',
    occupantRef: null,
    liveness: null,
    observedAt: input.capturedAt,
    basis: null,
    reportSeq: 0n,
    ended: false,
  };
  const screened = await screenReports(db, caller, [report]);
  if ('refused' in screened) return screened.refused;
  const declared = screened.provider.observationSources.find((s) => s.source === input.source);
  if (!declared)
    return observationGap(input.goalId, input.agentId, 'SOURCE_NOT_DECLARED', input.source);
  const bound = Math.min(declared.maxLines, GATEWAY_MAX_LINES);
  const lines = input.lines.slice(-bound).map((line) => line.slice(0, MAX_LINE_LENGTH));
  const values = {
    goalId: input.goalId,
    agentId: input.agentId,
    providerId,
    source: input.source,
    lines,
    limits: [...new Set([...declared.limits, ...input.limits])],
    capturedAt: input.capturedAt,
  };
  await db
    .insert(observationsTable)
    .values(values)
    .onConflictDoUpdate({
      target: [
        observationsTable.goalId,
        observationsTable.agentId,
        observationsTable.providerId,
        observationsTable.source,
      ],
      set: { lines: values.lines, limits: values.limits, capturedAt: values.capturedAt },
    });
  return { type: 'PresenceAccepted', changed: 1, heartbeats: 0, outOfOrder: 0 };
}

export const observationGapReasons = [
  'NO_PROVIDER',
  'SOURCE_NOT_DECLARED',
  'NOTHING_CAPTURED',
] as const;
export type ObservationGapReason = (typeof observationGapReasons)[number];

export interface ObservationGap {
  readonly type: 'ObservationGap';
  readonly goalId: string;
  readonly agentId: string;
  readonly source: ObservationSource;
  readonly reason: ObservationGapReason;
}

const observationGap = (
  goalId: string,
  agentId: string,
  reason: ObservationGapReason,
  source: ObservationSource,
): ObservationGap => ({ type: 'ObservationGap', goalId, agentId, source, reason });

export interface Observation {
  readonly type: 'Observation';
  readonly goalId: string;
  readonly agentId: string;
  readonly provider: string;
  readonly source: ObservationSource;
  readonly lines: string[];
  readonly lineBound: number;
  readonly capturedAt: Date;
  readonly limits: ObservationLimit[];
}

/**
 * A bounded, advisory excerpt of what a provider last captured for an agent. Never an empty
 * excerpt standing in for "cannot see": no provider, an undeclared source and nothing
 * captured are typed gaps.
 */
export async function observe(
  db: Db,
  caller: Caller | null,
  input: { goalId: string; agentId: string; source: ObservationSource; lines: number },
): Promise<
  | Observation
  | ObservationGap
  | ScopeGap
  | { type: 'UnknownAgent'; goalId: string; agentId: string }
> {
  if (!Number.isInteger(input.lines) || input.lines < 1)
    throw new InputError('lines must be a positive integer', 'lines');
  const gap = await checkGoalScope(db, caller, input.goalId);
  if (gap) return gap;
  const rows = rowsOf<{
    registered: boolean;
    provider_id: string | null;
    observation_sources: DeclaredSource[] | null;
    lines: string[] | null;
    limits: ObservationLimit[] | null;
    captured_at: string | Date | null;
  }>(
    await db.execute(sql`
      select exists (select 1 from agents where goal_id = ${input.goalId} and agent_id = ${input.agentId}) as registered,
             p.provider_id, p.observation_sources, o.lines, o.limits, o.captured_at
      from (select 1) one
      left join providers p on ${input.goalId} = any(p.goal_ids)
      left join observations o on o.goal_id = ${input.goalId} and o.agent_id = ${input.agentId}
        and o.provider_id = p.provider_id and o.source = ${input.source}
      order by o.captured_at desc nulls last, p.provider_id`),
  );
  const first = rows[0];
  if (!first?.registered)
    return { type: 'UnknownAgent', goalId: input.goalId, agentId: input.agentId };
  const withProvider = rows.filter((r) => r.provider_id !== null);
  if (withProvider.length === 0)
    return observationGap(input.goalId, input.agentId, 'NO_PROVIDER', input.source);
  const declaring = withProvider.filter((r) =>
    r.observation_sources?.some((s) => s.source === input.source),
  );
  if (declaring.length === 0) {
    return observationGap(input.goalId, input.agentId, 'SOURCE_NOT_DECLARED', input.source);
  }
  const captured = declaring.find((r) => r.lines !== null);
  if (!captured)
    return observationGap(input.goalId, input.agentId, 'NOTHING_CAPTURED', input.source);
  const declared = captured.observation_sources?.find(
    (s) => s.source === input.source,
  ) as DeclaredSource;
  const lineBound = Math.min(input.lines, declared.maxLines, GATEWAY_MAX_LINES);
  return {
    type: 'Observation',
    goalId: input.goalId,
    agentId: input.agentId,
    provider: captured.provider_id as string,
    source: input.source,
    lines: (captured.lines ?? []).slice(-lineBound),
    lineBound,
    capturedAt: new Date(captured.captured_at as string),
    limits: captured.limits ?? [],
  };
}
