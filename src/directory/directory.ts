import { sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Caller } from '../core/caller.ts';
import { InputError } from '../core/errors.ts';
import type { ScopeGap } from '../core/scope.ts';
import type { Db } from '../db/database.ts';
import { rowsOf } from '../db/sql.ts';
import { stalledDeliveries } from '../delivery/read.ts';
import { type ReplanObligationKind, visionCheckpointMissingSql } from '../ledger/obligations.ts';
import { type Presence, toPresence } from '../presence/read.ts';
import {
  type BlockedKind,
  type DeclaredSource,
  type LapseGap,
  type Liveness,
  type ObservationLimit,
  type PresenceRow,
  presenceTable,
  providersTable,
} from '../presence/tables.ts';
import { checkGoalScope } from '../registry/scope.ts';
import { agentsTable } from '../registry/tables.ts';
import { covers, parseDecisionScope } from '../work/rules.ts';
import { currentClaimSql, gateOpenSql, leaseStateSql } from '../work/sql.ts';
import { gatesTable, todosTable } from '../work/tables.ts';
import type { LeaseState } from '../work/values.ts';

export const DIRECTORY_SCHEMA_VERSION = 'peer_agent_directory_v0';
export const DEFAULT_DIRECTORY_LIMIT = 200;
export const MAX_DIRECTORY_LIMIT = 1000;

export const directoryLimitations = [
  'PRESENCE_PROVIDER_UNAVAILABLE',
  'PRESENCE_IS_ADVISORY',
  'PRESENCE_STALE_AFTER_PROVIDER_RESTART',
  'LEASE_STATE_NOT_PROJECTED',
  'CALLER_IDENTITY_NOT_SUPPLIED',
  'ROWS_TRUNCATED_AT_CAP',
] as const;
export type DirectoryLimitation = (typeof directoryLimitations)[number];

export interface DirectoryRow {
  readonly agentId: string;
  readonly agentModel: string;
  readonly hostSurface: string;
  readonly registeredAt: Date;
  readonly work: {
    readonly todoId: string | null;
    readonly claimed: boolean;
    readonly lease: LeaseState;
  };
  readonly presence: Presence | null;
  readonly observationLimits: ObservationLimit[];
  /** VISION_CHECKPOINT_MISSING when the agent has a vision and no replan checkpoint. */
  readonly replanNotices: ReplanObligationKind[];
}

export interface DirectoryPacket {
  readonly schemaVersion: typeof DIRECTORY_SCHEMA_VERSION;
  readonly goalId: string;
  readonly collectedAt: Date;
  readonly scope: 'GOAL_REGISTERED_AGENTS';
  readonly audience: Caller['kind'] | null;
  readonly rows: DirectoryRow[];
  readonly registeredAgentCount: number;
  readonly omittedRowCount: number;
  readonly limitations: DirectoryLimitation[];
  readonly scopeGap: ScopeGap | null;
}

interface RowRecord {
  agent_id: string;
  agent_model: string;
  host_surface: string;
  registered_at: string | Date;
  total: string | number;
  provider_available: boolean;
  todo_id: string | null;
  lease_state: LeaseState | null;
  provider_id: string | null;
  provider_session_ref: string | null;
  host: string | null;
  occupant_ref: string | null;
  liveness: Liveness | null;
  basis: PresenceRow['basis'] | null;
  explain: string | null;
  blocked_kind: PresenceRow['blockedKind'];
  observed_at: string | Date | null;
  state_change_seq: string | null;
  ended_at: string | Date | null;
  lapse: PresenceRow['lapse'];
  observation_sources: DeclaredSource[] | null;
  vision_checkpoint_missing: boolean;
}

const asDate = (value: string | Date) => (value instanceof Date ? value : new Date(value));

/**
 * The directory packet (docs/api.md, "Directory, presence and attention"): one row per
 * registered agent, running or not, with its claimed work and what a provider last saw of it.
 * One statement whatever the number of agents (plus the scope check), whose cost grows with
 * the rows returned, not with the goal. Reading it changes nothing and grants nothing.
 */
export async function readDirectory(
  db: Db,
  caller: Caller | null,
  goalId: string,
  limit: number = DEFAULT_DIRECTORY_LIMIT,
): Promise<DirectoryPacket> {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_DIRECTORY_LIMIT) {
    throw new InputError(`limit must be an integer from 1 to ${MAX_DIRECTORY_LIMIT}`, 'limit');
  }
  const collectedAt = new Date();
  const base = {
    schemaVersion: DIRECTORY_SCHEMA_VERSION,
    goalId,
    collectedAt,
    scope: 'GOAL_REGISTERED_AGENTS',
    audience: caller?.kind ?? null,
  } as const;
  const gap = await checkGoalScope(db, caller, goalId);
  if (gap) {
    return {
      ...base,
      rows: [],
      registeredAgentCount: 0,
      omittedRowCount: 0,
      limitations: [],
      scopeGap: gap,
    };
  }
  const a = agentsTable;
  const here = presenceTable;
  // `page` is the goal's agents in order, cut to the limit before anything is joined to them
  // (with their count): each lateral runs once per row returned, whatever the goal's size.
  // `p` names the lateral's one presence row; `pr` that row's provider.
  const goalOf = sql.raw('page.goal_id');
  const agentOf = sql.raw('page.agent_id');
  const p = alias(presenceTable, 'p');
  const pr = alias(providersTable, 'pr');
  const records = rowsOf<RowRecord>(
    await db.execute(sql`
      with page as (
        select ${a.goalId} as goal_id, ${a.agentId} as agent_id, ${a.agentModel} as agent_model,
               ${a.hostSurface} as host_surface, ${a.registeredAt} as registered_at,
               count(*) over () as total
        from ${a}
        where ${a.goalId} = ${goalId} and ${a.retiredAt} is null
        order by ${a.agentId}
        limit ${limit})
      select page.agent_id, page.agent_model, page.host_surface, page.registered_at, page.total,
             ${providerAvailableSql(goalId)} as provider_available,
             w.id as todo_id, w.lease_state,
             ${p.providerId} as provider_id, ${p.providerSessionRef} as provider_session_ref,
             ${p.host} as host, ${p.occupantRef} as occupant_ref,
             ${p.liveness} as liveness, ${p.basis} as basis, ${p.explain} as explain,
             ${p.blockedKind} as blocked_kind, ${p.observedAt} as observed_at,
             ${p.stateChangeSeq}::text as state_change_seq,
             ${p.endedAt} as ended_at, ${p.lapse} as lapse,
             ${pr.observationSources} as observation_sources,
             ${visionCheckpointMissingSql(goalOf, agentOf)} as vision_checkpoint_missing
      from page
      left join lateral (${currentClaimSql(
        goalOf,
        agentOf,
        sql`${todosTable.id} as id, ${leaseStateSql} as lease_state`,
      )}) w on true
      left join lateral (
        select * from ${here}
        where ${here.goalId} = ${goalOf} and ${here.agentId} = ${agentOf}
        order by (${here.endedAt} is null) desc, (${here.lapse} is null) desc,
          ${here.stateChangeSeq} desc
        limit 1) as ${p} on true
      left join ${providersTable} as ${pr} on ${pr.providerId} = ${p.providerId}
      order by page.agent_id`),
  );
  const total = Number(records[0]?.total ?? 0);
  const rows = records.map(toRow);
  const providerAvailable = records[0]?.provider_available ?? (await anyProvider(db, goalId));
  const limitations = new Set<DirectoryLimitation>();
  // Presence is advisory whether or not a provider reports it.
  limitations.add('PRESENCE_IS_ADVISORY');
  if (!providerAvailable) limitations.add('PRESENCE_PROVIDER_UNAVAILABLE');
  if (rows.some((row) => row.presence?.stale))
    limitations.add('PRESENCE_STALE_AFTER_PROVIDER_RESTART');
  if (!(caller?.kind === 'PEER' && caller.goalId === goalId))
    limitations.add('CALLER_IDENTITY_NOT_SUPPLIED');
  if (total > rows.length) limitations.add('ROWS_TRUNCATED_AT_CAP');
  return {
    ...base,
    rows,
    registeredAgentCount: total,
    omittedRowCount: total - rows.length,
    limitations: directoryLimitations.filter((l) => limitations.has(l)),
    scopeGap: null,
  };
}

/** Whether some presence provider reports for the goal. */
const providerAvailableSql = (goalId: string) =>
  sql<boolean>`exists (select 1 from ${providersTable}
    where ${goalId} = any(${providersTable.goalIds}))`;

/** Only needed for a goal with no agents, where the row query returns nothing. */
async function anyProvider(db: Db, goalId: string): Promise<boolean> {
  const [row] = rowsOf<{ available: boolean }>(
    await db.execute(sql`select ${providerAvailableSql(goalId)} as available`),
  );
  return row?.available ?? false;
}

function toRow(r: RowRecord): DirectoryRow {
  const presence =
    r.provider_id === null
      ? null
      : toPresence({
          providerId: r.provider_id,
          providerSessionRef: r.provider_session_ref as string,
          host: r.host,
          occupantRef: r.occupant_ref as string,
          liveness: r.liveness as Liveness,
          basis: r.basis as PresenceRow['basis'],
          explain: r.explain,
          blockedKind: r.blocked_kind,
          observedAt: asDate(r.observed_at as string),
          stateChangeSeq: BigInt(r.state_change_seq ?? 0),
          endedAt: r.ended_at === null ? null : asDate(r.ended_at),
          lapse: r.lapse,
        });
  return {
    agentId: r.agent_id,
    agentModel: r.agent_model,
    hostSurface: r.host_surface,
    registeredAt: asDate(r.registered_at),
    work: { todoId: r.todo_id, claimed: r.todo_id !== null, lease: r.lease_state ?? 'NONE' },
    presence,
    observationLimits: [...new Set((r.observation_sources ?? []).flatMap((s) => s.limits))],
    replanNotices: r.vision_checkpoint_missing ? ['VISION_CHECKPOINT_MISSING'] : [],
  };
}

// ---- attention ------------------------------------------------------------------------

export const attentionReasons = [
  'PROVIDER_SILENT',
  'BLOCKED_ON_GATE',
  'WAITING_ON_OWNER',
  'STALLED_DELIVERY',
  'STALE_CLAIM',
] as const;
export type AttentionReason = (typeof attentionReasons)[number];

export interface AttentionRow {
  readonly reason: AttentionReason;
  readonly agentId: string | null;
  readonly todoId: string | null;
  readonly gateId: string | null;
  readonly deliveryId: string | null;
  /** PROVIDER_SILENT: the provider, the agents whose presence it reported here, and how it lapsed. */
  readonly provider: string | null;
  readonly agentIds: readonly string[];
  readonly coverageGap: LapseGap | null;
  /** How long it has been so: the row's age, which orders rows of the same urgency. */
  readonly since: Date;
  /** Presence as colour only: it never creates, promotes or removes a row. */
  readonly liveness: Liveness | null;
  /** With liveness BLOCKED: what the agent waits for, when its status source said. */
  readonly blockedKind: BlockedKind | null;
}

export interface Attention {
  readonly goalId: string;
  readonly rows: AttentionRow[];
  readonly scopeGap: ScopeGap | null;
}

/** Default threshold for STALE_CLAIM: a claim with no advancement for an hour. */
export const DEFAULT_STALE_CLAIM_MS = 3_600_000;

/**
 * Which agents need a decision now, from typed state only, most urgent first: providers that
 * stopped reporting (a fact about the provider from the registry and its lapses, not a guess
 * about the work), an agent's claimed todo held by an open gate, open user gates and actions,
 * stalled deliveries, and claims with no advancement past the threshold. Assigns nothing.
 */
export async function readAttention(
  db: Db,
  caller: Caller | null,
  goalId: string,
  staleClaimMs = DEFAULT_STALE_CLAIM_MS,
): Promise<Attention> {
  if (!Number.isInteger(staleClaimMs) || staleClaimMs < 1) {
    throw new InputError('staleClaimMs must be a positive integer', 'staleClaimMs');
  }
  const gap = await checkGoalScope(db, caller, goalId);
  if (gap) return { goalId, rows: [], scopeGap: gap };
  return { goalId, rows: await attentionRows(db, goalId, staleClaimMs), scopeGap: null };
}

export async function attentionRows(
  db: Db,
  goalId: string,
  staleClaimMs: number,
): Promise<AttentionRow[]> {
  const [t, g, here] = [todosTable, gatesTable, presenceTable];
  const todos = rowsOf<{
    id: string;
    task_class: string;
    claimed_by: string | null;
    required_decision_scopes: string[];
    updated_at: string | Date;
    created_at: string | Date;
    stale: boolean;
  }>(
    await db.execute(sql`
      select ${t.id} as id, ${t.taskClass} as task_class, ${t.claimedBy} as claimed_by,
             ${t.requiredDecisionScopes} as required_decision_scopes,
             ${t.updatedAt} as updated_at, ${t.createdAt} as created_at,
             ${t.updatedAt} < now() - ${`${staleClaimMs} milliseconds`}::interval as stale
      from ${t}
      where ${t.goalId} = ${goalId} and ${t.status} = 'OPEN'
        and (${t.claimedBy} is not null or ${t.taskClass} in ('USER_GATE', 'USER_ACTION'))`),
  );
  const gates = rowsOf<{
    id: string;
    kind: string;
    granularity: string;
    scope_key: string;
    opened_at: string | Date;
  }>(
    await db.execute(sql`
      select ${g.id} as id, ${g.kind} as kind, ${g.granularity} as granularity,
             ${g.scopeKey} as scope_key, ${g.openedAt} as opened_at
      from ${g}
      where ${g.goalId} = ${goalId} and ${gateOpenSql}
      order by ${g.openedAt}`),
  );
  const presence = new Map(
    rowsOf<{ agent_id: string; liveness: Liveness; blocked_kind: BlockedKind | null }>(
      await db.execute(sql`
        select distinct on (${here.agentId}) ${here.agentId} as agent_id,
          case when ${here.lapse} is null then ${here.liveness} else 'UNKNOWN' end as liveness,
          case when ${here.lapse} is null then ${here.blockedKind} end as blocked_kind
        from ${here}
        where ${here.goalId} = ${goalId} and ${here.endedAt} is null
        order by ${here.agentId}, (${here.lapse} is null) desc, ${here.stateChangeSeq} desc`),
    ).map((r) => [r.agent_id, r]),
  );
  const pr = providersTable;
  // A provider is silent here when every live presence its current instance reported in the
  // goal lapsed because it stopped reporting or lost its credential.
  const silent = rowsOf<{
    provider_id: string;
    agent_ids: string[];
    gap: LapseGap;
    since: string | Date;
  }>(
    await db.execute(sql`
      select ${here.providerId} as provider_id,
        array_agg(distinct ${here.agentId} order by ${here.agentId}) as agent_ids,
        max(${here.lapse}) as gap, max(${here.observedAt}) as since
      from ${here} join ${pr}
        on ${pr.providerId} = ${here.providerId} and ${pr.instanceId} = ${here.instanceId}
      where ${here.goalId} = ${goalId} and ${here.endedAt} is null
      group by ${here.providerId}
      having bool_and(coalesce(${here.lapse} in ('PRESENCE_TTL_EXPIRED', 'PROVIDER_REVOKED'), false))`),
  );
  const rows: AttentionRow[] = [];
  const row = (
    fields: Pick<AttentionRow, 'reason' | 'agentId' | 'todoId' | 'since'> & Partial<AttentionRow>,
  ) => {
    const seen = fields.agentId ? presence.get(fields.agentId) : undefined;
    rows.push({
      gateId: null,
      deliveryId: null,
      provider: null,
      agentIds: [],
      coverageGap: null,
      ...fields,
      liveness: seen?.liveness ?? null,
      blockedKind: seen?.blocked_kind ?? null,
    });
  };
  for (const provider of silent) {
    row({
      reason: 'PROVIDER_SILENT',
      agentId: null,
      todoId: null,
      provider: provider.provider_id,
      agentIds: provider.agent_ids,
      coverageGap: provider.gap,
      since: asDate(provider.since),
    });
  }
  for (const todo of todos) {
    const since = asDate(todo.updated_at);
    if (todo.claimed_by) {
      const required = todo.required_decision_scopes.map((s) =>
        parseDecisionScope('requiredDecisionScopes', s),
      );
      const gate = gates.find((g) =>
        required.some((scope) =>
          covers(parseDecisionScope('gate', `${g.kind}:${g.granularity}:${g.scope_key}`), scope),
        ),
      );
      if (gate)
        row({
          reason: 'BLOCKED_ON_GATE',
          agentId: todo.claimed_by,
          todoId: todo.id,
          gateId: gate.id,
          since: asDate(gate.opened_at),
        });
      if (todo.stale)
        row({ reason: 'STALE_CLAIM', agentId: todo.claimed_by, todoId: todo.id, since });
    }
    if (todo.task_class === 'USER_GATE' || todo.task_class === 'USER_ACTION') {
      row({
        reason: 'WAITING_ON_OWNER',
        agentId: todo.claimed_by,
        todoId: todo.id,
        since: asDate(todo.created_at),
      });
    }
  }
  for (const stalled of await stalledDeliveries(db, goalId)) {
    row({
      reason: 'STALLED_DELIVERY',
      agentId: stalled.to,
      todoId: stalled.todoId,
      deliveryId: stalled.deliveryId,
      since: stalled.stalledSince,
    });
  }
  const urgency = (reason: AttentionReason) => attentionReasons.indexOf(reason);
  return rows.sort(
    (a, b) =>
      urgency(a.reason) - urgency(b.reason) ||
      a.since.getTime() - b.since.getTime() ||
      (a.todoId ?? '').localeCompare(b.todoId ?? ''),
  );
}
