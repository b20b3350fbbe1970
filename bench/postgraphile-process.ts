/**
 * PostGraphile v5 (amber preset, node:http through grafserv) over the same rows as the
 * directory benchmark, for bench/directory.ts. PostGraphile exposes tables and views, so it
 * gets one view of the directory in a schema of its own (`bench_postgraphile`): the
 * directory's own statement (the same current-claim and lease rules, built from the same
 * Drizzle fragments) with the presence rule of `toPresence` (stale or expired reads UNKNOWN)
 * in SQL. bench/directory.ts checks that its answer equals the gateway's before timing.
 * Prints its URL over IPC; a pool of 10 connections, as the gateway and the raw handler have.
 */
import { createServer } from 'node:http';
import { sql } from 'drizzle-orm';
import { alias, PgDialect } from 'drizzle-orm/pg-core';
import { postgraphile } from 'postgraphile';
import { makePgService } from 'postgraphile/adaptors/pg';
import { grafserv } from 'postgraphile/grafserv/node';
import { PostGraphileAmberPreset } from 'postgraphile/presets/amber';
import postgres from 'postgres';
import { presenceTable, providersTable } from '../src/presence/tables.ts';
import { agentsTable } from '../src/registry/tables.ts';
import { currentClaimSql, leaseStateSql } from '../src/work/sql.ts';
import { todosTable } from '../src/work/tables.ts';

const url = process.env.DATABASE_URL as string;
const SCHEMA = 'bench_postgraphile';

/** The directory as a view: one row per registered agent, its claim and its presence. */
function directoryView(): string {
  const a = agentsTable;
  const here = presenceTable;
  const p = alias(presenceTable, 'p');
  const pr = alias(providersTable, 'pr');
  const view = sql`create or replace view ${sql.identifier(SCHEMA)}.directory_rows as
    select ${a.goalId} as goal_id, ${a.agentId} as agent_id, ${a.agentModel} as agent_model,
           ${a.hostSurface} as host_surface,
           w.id as todo_id, w.id is not null as claimed, coalesce(w.lease_state, 'NONE') as lease,
           ${p.providerId} as provider, ${p.providerSessionRef} as provider_session_ref,
           case when ${p.instanceId} is distinct from ${pr.instanceId}
                  or (${p.endedAt} is null
                      and now() - ${p.observedAt} > ${pr.presenceTtlMs} * interval '1 millisecond')
                then 'UNKNOWN' else ${p.liveness} end as liveness,
           ${p.basis} as basis, ${p.stateChangeSeq}::text as state_change_seq
    from ${a}
    left join lateral (${currentClaimSql(
      a.goalId,
      a.agentId,
      sql`${todosTable.id} as id, ${leaseStateSql} as lease_state`,
    )}) w on true
    left join lateral (
      select * from ${here}
      where ${here.goalId} = ${a.goalId} and ${here.agentId} = ${a.agentId}
      order by (${here.endedAt} is null) desc, ${here.stateChangeSeq} desc
      limit 1) as ${p} on true
    left join ${providersTable} as ${pr} on ${pr.providerId} = ${p.providerId}
    where ${a.retiredAt} is null`;
  const query = new PgDialect().sqlToQuery(view);
  if (query.params.length > 0) throw new Error('the view must not take parameters');
  return query.sql;
}

const admin = postgres(url, { max: 1, onnotice: () => {} });
await admin.unsafe(`create schema if not exists ${SCHEMA}`);
await admin.unsafe(directoryView());
await admin.end();

const pgl = postgraphile({
  extends: [PostGraphileAmberPreset],
  pgServices: [makePgService({ connectionString: url, schemas: [SCHEMA] })],
  grafast: { explain: false },
});
const serv = pgl.createServ(grafserv);
const server = createServer();
await serv.addTo(server, false);
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.send?.({ type: 'ready', url: `http://127.0.0.1:${port}/graphql` });
});
// The benchmark that started this process has gone (it crashed): end with it.
process.on('disconnect', () => process.exit(1));
process.on('message', (message: { type: string }) => {
  if (message.type === 'stop') {
    server.close(() => void Promise.resolve(pgl.release()).then(() => process.exit(0)));
  }
});
