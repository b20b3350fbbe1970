/**
 * The work graph's rules as SQL fragments built from its Drizzle tables, for its own queries
 * and for the read models of other domains (directory, ledger) that compose them. A column
 * rename fails the typecheck here instead of a query at run time.
 */

import { getTableColumns, type SQL, sql } from 'drizzle-orm';
import { headSql } from '../events/sequence.ts';
import { gatesTable, todosTable } from './tables.ts';
import type { GateState, LeaseState } from './values.ts';

export const leaseStateSql = sql<LeaseState>`case
  when ${todosTable.leaseHolder} is null then 'NONE'
  when ${todosTable.leaseExpiresAt} > now() then 'ACTIVE'
  else 'EXPIRED' end`;
export const todoColumns = { ...getTableColumns(todosTable), leaseState: leaseStateSql };

export const gateStateSql = sql<GateState>`case
  when ${gatesTable.expiresAt} is not null and ${gatesTable.expiresAt} <= now() then 'EXPIRED'
  when ${gatesTable.decision} is null then 'OPEN'
  else ${gatesTable.decision} end`;
export const gateColumns = { ...getTableColumns(gatesTable), state: gateStateSql };

/** The goal's work sequence (its `work` stream head) as an SQL expression; null before any write. */
export const workSeqSql = (goalId: string | SQL) => headSql(goalId, 'work');
