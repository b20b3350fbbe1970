import { and, asc, eq, gt, inArray } from 'drizzle-orm';
import type { Caller } from '../core/caller.ts';
import type { ScopeGap } from '../core/scope.ts';
import { single } from '../core/stream.ts';
import type { Db, Queryable } from '../db/database.ts';
import type { Page, StreamHub } from '../events/hub.ts';
import { readHead } from '../events/sequence.ts';
import { checkGoalScope } from '../registry/scope.ts';
import {
  type BlockedKind,
  type Liveness,
  type PresenceBasis,
  type PresenceChangeRow,
  type PresenceRow,
  type Provider,
  presenceChangesTable,
  providersTable,
} from './tables.ts';

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
  readonly explain: string | null;
  readonly blockedKind: BlockedKind | null;
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
    explain: row.explain,
    blockedKind: row.blockedKind,
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
    explain: row.explain,
    blockedKind: row.blockedKind,
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
