import { getTableColumns, sql } from 'drizzle-orm';
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
