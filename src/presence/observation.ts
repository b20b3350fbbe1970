import { sql } from 'drizzle-orm';
import type { Caller, ProviderCaller } from '../core/caller.ts';
import { InputError } from '../core/errors.ts';
import { redactSecrets } from '../core/privacy.ts';
import type { ScopeGap } from '../core/scope.ts';
import { validateId } from '../core/validate.ts';
import type { Db } from '../db/database.ts';
import { rowsOf } from '../db/sql.ts';
import { checkGoalScope } from '../registry/scope.ts';
import { agentsTable } from '../registry/tables.ts';
import { GATEWAY_MAX_LINES, MAX_LINE_LENGTH } from './providers.ts';
import {
  type PresenceAccepted,
  type PresenceRefused,
  type Report,
  screenReports,
} from './reports.ts';
import {
  type DeclaredSource,
  type ObservationLimit,
  type ObservationSource,
  observationSources,
  observationsTable,
  providersTable,
} from './tables.ts';

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
 * gateway maximum, after the privacy screen of ledger summaries: credentials and absolute
 * local paths become `[redacted:…]` markers, counted. The excerpt is screened as one text, so
 * a secret over several lines (a private key block) is found whole. Refused (nothing written)
 * like presence when the agent or goal is not the provider's, or when the source was never
 * declared.
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
    explain: null,
    blockedKind: null,
    reportSeq: 0n,
    ended: false,
  };
  const screened = await screenReports(db, caller, [report]);
  if ('refused' in screened) return screened.refused;
  const declared = screened.provider.observationSources.find((s) => s.source === input.source);
  if (!declared)
    return observationGap(input.goalId, input.agentId, 'SOURCE_NOT_DECLARED', input.source);
  const bound = Math.min(declared.maxLines, GATEWAY_MAX_LINES);
  const redacted = redactSecrets(input.lines.slice(-bound).join('\n'));
  const lines = redacted.text
    .split('\n')
    .slice(-bound)
    .map((line) => line.slice(0, MAX_LINE_LENGTH));
  const values = {
    goalId: input.goalId,
    agentId: input.agentId,
    providerId,
    source: input.source,
    lines,
    limits: [...new Set([...declared.limits, ...input.limits])],
    capturedAt: input.capturedAt,
    redactionCount: redacted.count,
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
      set: {
        lines: values.lines,
        limits: values.limits,
        capturedAt: values.capturedAt,
        redactionCount: values.redactionCount,
      },
    });
  return { type: 'PresenceAccepted', changed: 1, heartbeats: 0, outOfOrder: 0, refused: [] };
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
  readonly redactionCount: number;
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
    redaction_count: number | null;
  }>(
    await db.execute(sql`
      select exists (select 1 from ${agentsTable} where ${agentsTable.goalId} = ${input.goalId}
               and ${agentsTable.agentId} = ${input.agentId}) as registered,
             ${providersTable.providerId} as provider_id,
             ${providersTable.observationSources} as observation_sources,
             ${observationsTable.lines} as lines, ${observationsTable.limits} as limits,
             ${observationsTable.capturedAt} as captured_at,
             ${observationsTable.redactionCount} as redaction_count
      from (select 1) one
      left join ${providersTable} on ${input.goalId} = any(${providersTable.goalIds})
      left join ${observationsTable} on ${observationsTable.goalId} = ${input.goalId}
        and ${observationsTable.agentId} = ${input.agentId}
        and ${observationsTable.providerId} = ${providersTable.providerId}
        and ${observationsTable.source} = ${input.source}
      order by ${observationsTable.capturedAt} desc nulls last, ${providersTable.providerId}`),
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
    redactionCount: captured.redaction_count ?? 0,
  };
}
