/**
 * The goal stamp: every sequence the cacheable reads of a goal (directory, attention, frontier)
 * are computed from, as one text. The response cache keys their answers by it
 * (graphql/execution/response-cache.ts), so a commit that moves any of them misses the cache.
 */

import { sql } from 'drizzle-orm';
import type { Queryable } from '../db/database.ts';
import { rowsOf } from '../db/sql.ts';
import { streamHeadsTable } from '../events/tables.ts';
import { presenceTable, providersTable } from '../presence/tables.ts';
import { agentsTable, delegationsTable } from '../registry/tables.ts';

/**
 * The goal's stream heads (work, presence, inbox (deliveries) and ledger), the registry's agents
 * and delegations, its presence rows (heartbeats included) and the providers reporting for it,
 * read in one statement.
 */
export async function goalStamp(db: Queryable, goalId: string): Promise<string> {
  const h = streamHeadsTable;
  const a = agentsTable;
  const d = delegationsTable;
  const p = presenceTable;
  const v = providersTable;
  const [row] = rowsOf<{ stamp: string }>(
    await db.execute(sql`select concat_ws('|',
      (select string_agg(${h.stream} || '=' || ${h.seq}, ',' order by ${h.stream})
        from ${h} where ${h.goalId} = ${goalId}),
      (select concat_ws(':', count(*), max(${a.registeredAt}), max(${a.retiredAt}))
        from ${a} where ${a.goalId} = ${goalId}),
      (select count(*) from ${d} where ${d.goalId} = ${goalId}),
      (select concat_ws(':', count(*), sum(${p.reportSeq}), max(${p.observedAt}))
        from ${p} where ${p.goalId} = ${goalId}),
      (select string_agg(${v.providerId} || ':' || ${v.instanceId} || ':' || ${v.presenceTtlMs}, ','
          order by ${v.providerId})
        from ${v} where ${goalId} = any(${v.goalIds}))) as stamp`),
  );
  return row?.stamp ?? '';
}
