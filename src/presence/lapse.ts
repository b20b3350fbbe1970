/**
 * Expiry as an event (docs/api.md, "Expiry is an event"): a presence that lapses becomes one
 * change on the goal's presence stream, with its own `stateChangeSeq` and the gap named, and
 * the row is marked so that it never lapses twice. Three things lapse a presence:
 *
 * - no report within the provider's TTL (`expiresAt` passed): PRESENCE_TTL_EXPIRED;
 * - the provider re-registered with a new instance: PROVIDER_RESTARTED, at registration;
 * - no credential of the provider covers the goal any more: PROVIDER_REVOKED.
 *
 * The sweeper (presence/sweeper.ts) lapses what has expired; registerProvider lapses the rows
 * of an instance it replaces. Both go through `lapseGoal`, which reads the rows under the
 * goal's presence head lock, as every report does, so a report and a lapse of one location are
 * ordered and a read after either says what its change said.
 */
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../db/database.ts';
import { jsonRows } from '../db/sql.ts';
import { advanceHead, lockHead } from '../events/sequence.ts';
import { credentialsTable } from '../registry/tables.ts';
import { type LapseGap, presenceChangesTable, presenceTable, providersTable } from './tables.ts';

const p = presenceTable;
const pr = providersTable;
const c = credentialsTable;

/** Whether some unrevoked credential of the row's provider covers the row's goal. */
export const coveredSql = sql`exists (select 1 from ${c}
  where ${c.kind} = 'PROVIDER' and ${c.providerId} = ${p.providerId}
    and ${c.revokedAt} is null and ${p.goalId} = any(${c.goalIds}))`;

/** The gap a live row lapses with, from what the registry says now, in this order. */
const gapSql = sql<LapseGap>`case
  when ${p.instanceId} <> ${pr.instanceId} then 'PROVIDER_RESTARTED'
  when not ${coveredSql} then 'PROVIDER_REVOKED'
  else 'PRESENCE_TTL_EXPIRED' end`;

/** The rows that can lapse: not ended, not lapsed already. */
export const liveSql = sql`${p.endedAt} is null and ${p.lapse} is null`;

/**
 * Lapses the live rows of one goal that `due` selects (an SQL condition over the presence
 * table), in one transaction's hold of the goal's presence head lock: each row becomes one
 * change (liveness reads UNKNOWN, `lapse` names the gap), numbered after the head, and is
 * marked lapsed. Returns how many lapsed. Callers holding several goals lock them in goal order.
 */
export async function lapseGoal(tx: Tx, goalId: string, due: SQL): Promise<number> {
  const head = await lockHead(tx, goalId, 'presence');
  const rows = await tx
    .select({ row: p, gap: gapSql })
    .from(p)
    .innerJoin(pr, eq(pr.providerId, p.providerId))
    .where(and(eq(p.goalId, goalId), liveSql, due))
    .orderBy(p.agentId, p.providerId, p.providerSessionRef);
  if (rows.length === 0) return 0;
  let seq = head;
  const changes: (typeof presenceChangesTable.$inferInsert)[] = [];
  for (const { row, gap } of rows) {
    seq += 1n;
    changes.push({
      goalId,
      agentId: row.agentId,
      providerId: row.providerId,
      providerSessionRef: row.providerSessionRef,
      host: row.host,
      seq,
      occupantRef: row.occupantRef,
      liveness: row.liveness,
      previousLiveness: row.liveness,
      basis: row.basis,
      explain: row.explain,
      blockedKind: row.blockedKind,
      observedAt: row.observedAt,
      ended: false,
      lapse: gap,
    });
  }
  const logged = jsonRows(presenceChangesTable, changes);
  // The log and the marks in one statement, the head in another, sent at once (a failed one
  // fails the transaction, and with it the other).
  await Promise.all([
    tx.execute(sql`
      with v as (select * from ${logged.source}),
      logged as (
        insert into ${presenceChangesTable} (${logged.columns}) select ${logged.columns} from v)
      update ${p} set lapse = v.lapse, state_change_seq = v.seq from v
      where ${and(
        eq(p.goalId, sql`v.goal_id`),
        eq(p.agentId, sql`v.agent_id`),
        eq(p.providerId, sql`v.provider_id`),
        eq(p.providerSessionRef, sql`v.provider_session_ref`),
      )}`),
    advanceHead(tx, goalId, 'presence', seq),
  ]);
  return rows.length;
}
