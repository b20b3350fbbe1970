import { and, asc, eq, gt, lte, sql } from 'drizzle-orm';
import type { Queryable } from '../db/database.ts';
import { prepared, textArrayLiteral } from '../db/sql.ts';
import { minSeq } from '../events/sequence.ts';
import { type Presence, toPresence } from './read.ts';
import {
  type LapseGap,
  type Liveness,
  type PresenceChangeRow,
  presenceChangesTable,
  presenceTable,
  providersTable,
} from './tables.ts';

/**
 * Identity pinning, shared by waits and deliveries (docs/api.md, "Identity-pinned waits" and "Delivery, inbox and roster"): a target is resolved once
 * to its current location and occupant, with the baseline `stateChangeSeq` a later change
 * must move beyond; afterwards only the goal's presence change log is consulted, never the
 * current presence row, so the answer does not depend on when or where it is computed.
 */
export interface Pin {
  readonly agentId: string;
  readonly provider: string;
  readonly providerSessionRef: string;
  readonly occupantRef: string;
  /** The baseline: changes at or below it were already visible when the pin was taken. */
  readonly stateChangeSeq: bigint;
  readonly supportsPinnedWaits: boolean;
  /** The presence as a reader sees it now (a lapsed one reads UNKNOWN, with its gap). */
  readonly presence: Presence;
  /** Its presence had lapsed: nothing can be observed of it until the provider reports again. */
  readonly lapsed: boolean;
}

const presenceOfAgents = prepared('presence_of_agents', (db) =>
  db
    .select({ row: presenceTable, provider: providersTable })
    .from(presenceTable)
    .innerJoin(providersTable, eq(providersTable.providerId, presenceTable.providerId))
    .where(
      and(
        eq(presenceTable.goalId, sql.placeholder('goalId')),
        sql`${presenceTable.agentId} = any(${sql.placeholder('agentIds')}::text[])`,
      ),
    )
    .orderBy(asc(presenceTable.stateChangeSeq)),
);

/**
 * Each agent's current location: its most recently changed presence that has not ended, a
 * covered one before a lapsed one. Agents without one are absent.
 */
export async function currentPins(
  db: Queryable,
  goalId: string,
  agentIds: readonly string[],
): Promise<Map<string, Pin>> {
  if (agentIds.length === 0) return new Map();
  const rows = await presenceOfAgents(db).execute({
    goalId,
    agentIds: textArrayLiteral(agentIds),
  });
  const pins = new Map<string, Pin>();
  for (const { row, provider } of rows) {
    if (row.endedAt !== null) continue;
    const lapsed = row.lapse !== null;
    if (lapsed && pins.get(row.agentId)?.lapsed === false) continue;
    pins.set(row.agentId, {
      agentId: row.agentId,
      provider: row.providerId,
      providerSessionRef: row.providerSessionRef,
      occupantRef: row.occupantRef,
      stateChangeSeq: row.stateChangeSeq,
      supportsPinnedWaits: provider.supportsPinnedWaits,
      presence: toPresence(row),
      lapsed,
    });
  }
  return pins;
}

/** What was pinned, as stored by whoever pinned it. */
export interface PinnedTarget {
  readonly agentId: string;
  readonly provider: string | null;
  readonly providerSessionRef: string | null;
  readonly occupantRef: string | null;
  readonly baselineSeq: bigint;
}

/**
 * What one change of the log means for one pinned target. `null` when it does not concern
 * the pin (another agent or location, or at or below the baseline). A different occupant at
 * the location means the pinned one is gone: a replacement never counts as the target. A
 * lapse means nothing more can be observed of it: its liveness is never read as a state.
 */
export type PinnedChange =
  | { readonly kind: 'REPLACED' }
  | { readonly kind: 'ENDED' }
  | { readonly kind: 'COVERAGE_LOST'; readonly gap: LapseGap }
  | { readonly kind: 'UNREACHABLE' }
  | { readonly kind: 'STATE'; readonly liveness: Liveness };

export function classifyChange(
  target: PinnedTarget,
  change: PresenceChangeRow,
): PinnedChange | null {
  if (
    change.seq <= target.baselineSeq ||
    change.agentId !== target.agentId ||
    change.providerId !== target.provider ||
    change.providerSessionRef !== target.providerSessionRef
  ) {
    return null;
  }
  if (change.occupantRef !== target.occupantRef) return { kind: 'REPLACED' };
  if (change.ended) return { kind: 'ENDED' };
  if (change.lapse) return { kind: 'COVERAGE_LOST', gap: change.lapse };
  if (change.liveness === 'UNREACHABLE') return { kind: 'UNREACHABLE' };
  return { kind: 'STATE', liveness: change.liveness };
}

/** Presence changes of a goal after `after`, in order, a page at a time. */
export const CHANGE_PAGE = 1000;
const changesPage = prepared('presence_changes_after', (db) =>
  db
    .select()
    .from(presenceChangesTable)
    .where(
      and(
        eq(presenceChangesTable.goalId, sql.placeholder('goalId')),
        gt(presenceChangesTable.seq, sql.placeholder('after')),
      ),
    )
    .orderBy(asc(presenceChangesTable.seq))
    .limit(CHANGE_PAGE),
);
/** A page of the goal's changes after `after`, in sequence order. */
export const changesAfter = (
  db: Queryable,
  goalId: string,
  after: bigint,
): Promise<PresenceChangeRow[]> => changesPage(db).execute({ goalId, after: String(after) });

const agentChangesPage = prepared('presence_changes_of_agents_between', (db) =>
  db
    .select()
    .from(presenceChangesTable)
    .where(
      and(
        eq(presenceChangesTable.goalId, sql.placeholder('goalId')),
        gt(presenceChangesTable.seq, sql.placeholder('after')),
        lte(presenceChangesTable.seq, sql.placeholder('upto')),
        sql`${presenceChangesTable.agentId} = any(${sql.placeholder('agentIds')}::text[])`,
      ),
    )
    .orderBy(asc(presenceChangesTable.seq))
    .limit(CHANGE_PAGE),
);

/** A page of some agents' changes in (`after`, `upto`], in sequence order. */
export const agentChangesBetween = (
  db: Queryable,
  goalId: string,
  agentIds: readonly string[],
  after: bigint,
  upto: bigint,
): Promise<PresenceChangeRow[]> =>
  agentChangesPage(db).execute({
    goalId,
    agentIds: textArrayLiteral(agentIds),
    after: String(after),
    upto: String(upto),
  });

/**
 * Feeds a goal's change log to readers (waits, deliveries) that each keep their own cursor:
 * one query per page for all of them, from the lowest cursor, until `open()` is empty or the
 * log is exhausted. Each reader ignores changes at or below its own cursor.
 */
export async function feedChanges<R extends { readonly seenSeq: bigint }>(
  db: Queryable,
  goalId: string,
  open: () => readonly R[],
  apply: (reader: R, changes: readonly PresenceChangeRow[]) => void,
): Promise<void> {
  for (;;) {
    const readers = open();
    if (readers.length === 0) return;
    const changes = await changesAfter(
      db,
      goalId,
      minSeq(
        readers.map((r) => r.seenSeq),
        0n,
      ),
    );
    for (const reader of readers) apply(reader, changes);
    if (changes.length < CHANGE_PAGE) return;
  }
}
