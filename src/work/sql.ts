/**
 * The work graph's rules as SQL fragments built from its Drizzle tables, for its own queries
 * and for the read models of other domains (directory, ledger) that compose them. A column
 * rename fails the typecheck here instead of a query at run time. Each fragment names the
 * unaliased table (`"todos"`, `"gates"`): compose it where that table is in the FROM list.
 */
import { getTableColumns, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { headSql } from '../events/sequence.ts';
import { gatesTable, todosTable } from './tables.ts';
import type { GateState, LeaseState } from './values.ts';

/** A todo's lease now: NONE without a holder, ACTIVE until it expires, EXPIRED after. */
export const leaseStateSql = sql<LeaseState>`case
  when ${todosTable.leaseHolder} is null then 'NONE'
  when ${todosTable.leaseExpiresAt} > now() then 'ACTIVE'
  else 'EXPIRED' end`;
export const todoColumns = { ...getTableColumns(todosTable), leaseState: leaseStateSql };

/** A live todo: OPEN or DEFERRED, on the frontier; the other statuses are final. */
export const todoLiveSql = sql<boolean>`${todosTable.status} in ('OPEN', 'DEFERRED')`;

/** A todo that left the frontier without being done: its lineage still matters. */
export const todoRetiredSql = sql<boolean>`${todosTable.status} in ('SUPERSEDED', 'CLOSED_NO_FOLLOW_UP')`;

/**
 * The todo an agent works on now: its highest-priority OPEN claimed todo, oldest claim first
 * (one probe of todos_open_claims_idx). `columns` is the select list.
 */
export const currentClaimSql = (
  goalId: string | SQLWrapper,
  agentId: string | SQLWrapper,
  columns: SQL,
) =>
  sql`select ${columns} from ${todosTable}
    where ${todosTable.goalId} = ${goalId} and ${todosTable.claimedBy} = ${agentId}
      and ${todosTable.status} = 'OPEN'
    order by ${todosTable.priority} desc, ${todosTable.claimedAt} asc
    limit 1`;

/** A gate now: EXPIRED past `expires_at` whatever the decision, else OPEN until decided. */
export const gateStateSql = sql<GateState>`case
  when ${gatesTable.expiresAt} is not null and ${gatesTable.expiresAt} <= now() then 'EXPIRED'
  when ${gatesTable.decision} is null then 'OPEN'
  else ${gatesTable.decision} end`;
export const gateColumns = { ...getTableColumns(gatesTable), state: gateStateSql };

/** The gate is open: undecided and not expired (its state is OPEN). */
export const gateOpenSql = sql<boolean>`(${gateStateSql}) = 'OPEN'`;

/** The goal's work sequence (its `work` stream head) as an SQL expression; null before any write. */
export const workSeqSql = (goalId: string | SQLWrapper) => headSql(goalId, 'work');

/**
 * When a todo was claimed, in microseconds since the epoch (null while unclaimed): the order
 * of overlapping claims (conflicts.ts), exact in a float8.
 */
export const claimOrderSql = sql<
  number | null
>`(extract(epoch from ${todosTable.claimedAt}) * 1000000)::float8`;

/** When a todo was created, in microseconds since the epoch: display order after priority. */
export const createdOrderSql = sql<number>`(extract(epoch from ${todosTable.createdAt}) * 1000000)::float8`;
