import { and, count, eq, gt, sql } from 'drizzle-orm';
import type { Caller } from '../core/caller.ts';
import { type Tagged, tag } from '../core/results.ts';
import type { Queryable } from '../db/database.ts';
import { waitsTable } from './tables.ts';

/** A wait not started: its caller already has as many pending waits as it may. Nothing written. */
export type PendingWaitsLimited = Tagged<
  'PendingWaitsLimited',
  { readonly limit: number; readonly pending: number }
>;

/**
 * Whether `caller` may start another wait while at most `limit` of the waits it started are
 * pending (not settled, deadline not passed): null when it may (always for the operator token,
 * and with limit 0), else the typed refusal. One indexed count.
 */
export async function checkPendingWaits(
  db: Queryable,
  caller: Caller,
  limit: number,
): Promise<PendingWaitsLimited | null> {
  if (limit === 0 || caller.credentialId === null) return null;
  const [row] = await db
    .select({ pending: count() })
    .from(waitsTable)
    .where(
      and(
        eq(waitsTable.createdByCredential, caller.credentialId),
        eq(waitsTable.status, 'PENDING'),
        gt(waitsTable.deadline, sql`now()`),
      ),
    );
  const pending = Number(row?.pending ?? 0);
  return pending < limit ? null : tag('PendingWaitsLimited', { limit, pending });
}
