import { sql } from 'drizzle-orm';
import type { Caller } from '../core/caller.ts';
import { InputError } from '../core/errors.ts';
import type { ScopeGap } from '../core/scope.ts';
import type { Db } from '../db/database.ts';
import { rowsOf } from '../db/sql.ts';
import { stalledDeliveries } from '../delivery/delivery.ts';
import { type Presence, toPresence } from '../presence/read.ts';
import type {
  DeclaredSource,
  Liveness,
  ObservationLimit,
  PresenceRow,
} from '../presence/tables.ts';
import { checkGoalScope } from '../registry/scope.ts';
import { covers, parseDecisionScope } from '../work/rules.ts';

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

export type LeaseState = 'ACTIVE' | 'EXPIRED' | 'NONE';

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
  instance_id: string | null;
  occupant_ref: string | null;
  liveness: Liveness | null;
  basis: PresenceRow['basis'] | null;
  observed_at: string | Date | null;
  report_seq: string | null;
  state_change_seq: string | null;
  ended_at: string | Date | null;
  current_instance: string | null;
  presence_ttl_ms: number | null;
  observation_sources: DeclaredSource[] | null;
}

const asDate = (value: string | Date) => (value instanceof Date ? value : new Date(value));

/**
 * The directory packet (DESIGN §4): one row per registered agent, running or not, with its
 * claimed work and what a provider last saw of it. One statement whatever the number of
 * agents (plus the scope check). Reading it changes nothing and grants nothing.
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
  const records = rowsOf<RowRecord>(
    await db.execute(sql`
      select a.agent_id, a.agent_model, a.host_surface, a.registered_at,
             count(*) over () as total,
             exists (select 1 from providers pv where ${goalId} = any(pv.goal_ids)) as provider_available,
             w.id as todo_id, w.lease_state,
             p.provider_id, p.provider_session_ref, p.instance_id, p.occupant_ref, p.liveness,
             p.basis, p.observed_at, p.report_seq::text, p.state_change_seq::text, p.ended_at,
             pr.instance_id as current_instance, pr.presence_ttl_ms, pr.observation_sources
      from agents a
      left join lateral (
        select t.id,
               case when t.lease_holder is null then 'NONE'
                    when t.lease_expires_at > now() then 'ACTIVE'
                    else 'EXPIRED' end as lease_state
        from todos t
        where t.goal_id = a.goal_id and t.claimed_by = a.agent_id and t.status = 'OPEN'
        order by t.priority desc, t.claimed_at asc
        limit 1) w on true
      left join lateral (
        select * from presence p
        where p.goal_id = a.goal_id and p.agent_id = a.agent_id
        order by (p.ended_at is null) desc, p.state_change_seq desc
        limit 1) p on true
      left join providers pr on pr.provider_id = p.provider_id
      where a.goal_id = ${goalId} and a.retired_at is null
      order by a.agent_id
      limit ${limit}`),
  );
  const total = Number(records[0]?.total ?? 0);
  const rows = records.map((r) => toRow(r, collectedAt));
  const providerAvailable = records[0]?.provider_available ?? (await anyProvider(db, goalId));
  const limitations = new Set<DirectoryLimitation>();
  if (!providerAvailable) limitations.add('PRESENCE_PROVIDER_UNAVAILABLE');
  else limitations.add('PRESENCE_IS_ADVISORY');
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

/** Only needed for a goal with no agents, where the row query returns nothing. */
async function anyProvider(db: Db, goalId: string): Promise<boolean> {
  const [row] = rowsOf<{ available: boolean }>(
    await db.execute(
      sql`select exists (select 1 from providers where ${goalId} = any(goal_ids)) as available`,
    ),
  );
  return row?.available ?? false;
}

function toRow(r: RowRecord, now: Date): DirectoryRow {
  const presence =
    r.provider_id === null
      ? null
      : toPresence(
          {
            goalId: '',
            agentId: r.agent_id,
            providerId: r.provider_id,
            providerSessionRef: r.provider_session_ref as string,
            instanceId: r.instance_id as string,
            occupantRef: r.occupant_ref as string,
            liveness: r.liveness as Liveness,
            basis: r.basis as PresenceRow['basis'],
            observedAt: asDate(r.observed_at as string),
            reportSeq: BigInt(r.report_seq ?? 0),
            stateChangeSeq: BigInt(r.state_change_seq ?? 0),
            endedAt: r.ended_at === null ? null : asDate(r.ended_at),
          },
          { instanceId: r.current_instance as string, presenceTtlMs: r.presence_ttl_ms as number },
          now,
        );
  return {
    agentId: r.agent_id,
    agentModel: r.agent_model,
    hostSurface: r.host_surface,
    registeredAt: asDate(r.registered_at),
    work: { todoId: r.todo_id, claimed: r.todo_id !== null, lease: r.lease_state ?? 'NONE' },
    presence,
    observationLimits: [...new Set((r.observation_sources ?? []).flatMap((s) => s.limits))],
  };
}

// ---- attention ------------------------------------------------------------------------

export const attentionReasons = [
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
  /** How long it has been so: the row's age, which orders rows of the same urgency. */
  readonly since: Date;
  /** Presence as colour only: it never creates, promotes or removes a row. */
  readonly liveness: Liveness | null;
}

export interface Attention {
  readonly goalId: string;
  readonly rows: AttentionRow[];
  readonly scopeGap: ScopeGap | null;
}

/** Default threshold for STALE_CLAIM: a claim with no advancement for an hour. */
export const DEFAULT_STALE_CLAIM_MS = 3_600_000;

/**
 * Which agents need a decision now, from typed state only, most urgent first: an agent's
 * claimed todo held by an open gate, open user gates and actions, stalled deliveries, and
 * claims with no advancement past the threshold. Assigns nothing.
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
      select id, task_class, claimed_by, required_decision_scopes, updated_at, created_at,
             updated_at < now() - ${`${staleClaimMs} milliseconds`}::interval as stale
      from todos
      where goal_id = ${goalId} and status = 'OPEN'
        and (claimed_by is not null or task_class in ('USER_GATE', 'USER_ACTION'))`),
  );
  const gates = rowsOf<{
    id: string;
    kind: string;
    granularity: string;
    scope_key: string;
    opened_at: string | Date;
  }>(
    await db.execute(sql`
      select id, kind, granularity, scope_key, opened_at from gates
      where goal_id = ${goalId} and decision is null and (expires_at is null or expires_at > now())
      order by opened_at`),
  );
  const liveness = new Map(
    rowsOf<{ agent_id: string; liveness: Liveness }>(
      await db.execute(sql`
        select distinct on (agent_id) agent_id, liveness from presence
        where goal_id = ${goalId} and ended_at is null
        order by agent_id, state_change_seq desc`),
    ).map((r) => [r.agent_id, r.liveness]),
  );
  const rows: AttentionRow[] = [];
  const row = (
    fields: Omit<AttentionRow, 'liveness' | 'gateId' | 'deliveryId'> & Partial<AttentionRow>,
  ) =>
    rows.push({
      gateId: null,
      deliveryId: null,
      ...fields,
      liveness: fields.agentId ? (liveness.get(fields.agentId) ?? null) : null,
    });
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
