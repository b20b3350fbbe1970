import { and, asc, eq, gt } from 'drizzle-orm';
import type { Caller } from '../core/caller.ts';
import type { ScopeGap } from '../core/scope.ts';
import { single } from '../core/stream.ts';
import type { Db } from '../db/database.ts';
import type { Page, StreamHub } from '../events/hub.ts';
import { type RetentionGap, resumeFrom } from '../events/sequence.ts';
import { checkGoalScope } from '../registry/scope.ts';
import {
  type BlockedKind,
  type Liveness,
  lapseGaps,
  type PresenceBasis,
  type PresenceChangeRow,
  type PresenceRow,
  presenceChangesTable,
} from './tables.ts';

export const coverageGaps = [...lapseGaps, 'PROVIDER_CANNOT_CLASSIFY'] as const;
export type CoverageGap = (typeof coverageGaps)[number];

/**
 * Presence as a reader sees it: a lapsed presence reads UNKNOWN with its gap named. Computed
 * from what is stored only, never from the clock, so a read says what the last change on the
 * stream said.
 */
export interface Presence {
  readonly provider: string;
  readonly providerSessionRef: string;
  readonly host: string | null;
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

/** What a Presence is made of: a presence row, or a change of the log as of that change. */
export type PresenceFields = Pick<
  PresenceRow,
  | 'providerId'
  | 'providerSessionRef'
  | 'host'
  | 'occupantRef'
  | 'liveness'
  | 'basis'
  | 'explain'
  | 'blockedKind'
  | 'observedAt'
  | 'stateChangeSeq'
  | 'endedAt'
  | 'lapse'
>;

export function toPresence(row: PresenceFields): Presence {
  const coverageGap: CoverageGap | null =
    row.lapse ?? (row.liveness === 'UNKNOWN' ? 'PROVIDER_CANNOT_CLASSIFY' : null);
  return {
    provider: row.providerId,
    providerSessionRef: row.providerSessionRef,
    host: row.host,
    occupantRef: row.occupantRef,
    liveness: coverageGap ? 'UNKNOWN' : row.liveness,
    reportedLiveness: row.liveness,
    observedAt: row.observedAt,
    basis: row.basis,
    explain: row.explain,
    blockedKind: row.blockedKind,
    stateChangeSeq: row.stateChangeSeq,
    stale: row.lapse === 'PROVIDER_RESTARTED',
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
  readonly retentionGap: RetentionGap | null;
}

const STREAM_PAGE = 500;

/**
 * Every change of presence in a goal after `after` (or from now), gap-free and in order,
 * as a live stream. Out of scope: one change carrying the scope gap, then the end; resumed
 * from before what retention kept: one carrying the retention gap, then the end.
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
      retentionGap: null,
    });
  }
  const start = await resumeFrom(db, goalId, 'presence', after);
  if (typeof start !== 'bigint') {
    return single({
      goalId,
      agentId: null,
      seq: null,
      presence: null,
      previousLiveness: null,
      scopeGap: null,
      retentionGap: start,
    });
  }
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
  return {
    items: rows.map(changeOf),
    cursor: rows.at(-1)?.seq ?? after,
    more: rows.length === STREAM_PAGE,
  };
}

function changeOf(row: PresenceChangeRow): PresenceChange {
  return {
    goalId: row.goalId,
    agentId: row.agentId,
    seq: row.seq,
    presence: toPresence({
      ...row,
      stateChangeSeq: row.seq,
      endedAt: row.ended ? row.observedAt : null,
    }),
    previousLiveness: row.previousLiveness,
    scopeGap: null,
    retentionGap: null,
  };
}
