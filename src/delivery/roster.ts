import { and, asc, eq, isNotNull, max, sql } from 'drizzle-orm';
import type { Caller } from '../core/caller.ts';
import { InputError } from '../core/errors.ts';
import type { ScopeGap } from '../core/scope.ts';
import { validateId } from '../core/validate.ts';
import type { Db, Queryable } from '../db/database.ts';
import { type Presence, toPresence } from '../presence/read.ts';
import { type Liveness, presenceTable, providersTable } from '../presence/tables.ts';
import { findAgent, type UnknownAgent, unknownAgent } from '../registry/registry.ts';
import { checkGoalScope } from '../registry/scope.ts';
import { agentsTable } from '../registry/tables.ts';
import { recipientIn, senderOf } from './sender.ts';
import {
  deliveriesTable,
  type RosterSource,
  rosterPeersTable,
  rostersTable,
  type SenderKind,
} from './tables.ts';

/**
 * The caller's roster in a goal (ADR "peer discovery and roster"): the peers it connected on
 * purpose, and at most one primary. It is the caller's own state, persisted, and it is the
 * only thing `deliver` without `to` consults. Discovery reads; it never writes here.
 */
export interface Roster {
  readonly type: 'Roster';
  readonly goalId: string;
  /** The caller's agent id (PEER); null for a STEWARD or ADMIN. */
  readonly self: string | null;
  readonly selfKind: SenderKind;
  readonly primaryPeer: string | null;
  readonly peers: readonly RosterPeer[];
}

export const rosterStatuses = ['CONNECTED', 'STALE'] as const;
export type RosterStatus = (typeof rosterStatuses)[number];

export interface RosterPeer {
  readonly agentId: string;
  /** STALE: the agent was retired after it was connected; it is no longer a delivery target. */
  readonly status: RosterStatus;
  readonly source: RosterSource;
  readonly attachedAt: Date;
  /** The last delivery between the caller and this peer, either way; null when none. */
  readonly lastActiveAt: Date | null;
  readonly isPrimary: boolean;
}

/** When the caller last exchanged a delivery with each agent of the goal (either direction). */
async function counterparts(
  db: Queryable,
  goalId: string,
  ownerKey: string,
  self: string | null,
): Promise<Map<string, Date>> {
  const sent = await db
    .select({ agentId: deliveriesTable.toAgentId, at: max(deliveriesTable.submittedAt) })
    .from(deliveriesTable)
    .where(and(eq(deliveriesTable.goalId, goalId), eq(deliveriesTable.senderKey, ownerKey)))
    .groupBy(deliveriesTable.toAgentId);
  const received =
    self === null
      ? []
      : await db
          .select({ agentId: deliveriesTable.senderAgentId, at: max(deliveriesTable.submittedAt) })
          .from(deliveriesTable)
          .where(
            and(
              eq(deliveriesTable.goalId, goalId),
              eq(deliveriesTable.toAgentId, self),
              // Only agents of this goal: a delegated sender is registered elsewhere.
              eq(deliveriesTable.senderGoalId, goalId),
              isNotNull(deliveriesTable.senderAgentId),
            ),
          )
          .groupBy(deliveriesTable.senderAgentId);
  const last = new Map<string, Date>();
  for (const { agentId, at } of [...sent, ...received]) {
    if (agentId === null || at === null) continue;
    const when = at instanceof Date ? at : new Date(at);
    const seen = last.get(agentId);
    if (!seen || seen < when) last.set(agentId, when);
  }
  return last;
}

interface StoredRoster {
  primaryPeer: string | null;
  peers: { agentId: string; source: RosterSource; attachedAt: Date; retired: boolean }[];
}

async function storedRoster(
  db: Queryable,
  goalId: string,
  ownerKey: string,
): Promise<StoredRoster> {
  const [head] = await db
    .select({ primaryPeer: rostersTable.primaryPeer })
    .from(rostersTable)
    .where(and(eq(rostersTable.goalId, goalId), eq(rostersTable.ownerKey, ownerKey)));
  const peers = await db
    .select({
      agentId: rosterPeersTable.agentId,
      source: rosterPeersTable.source,
      attachedAt: rosterPeersTable.attachedAt,
      retiredAt: agentsTable.retiredAt,
    })
    .from(rosterPeersTable)
    .innerJoin(
      agentsTable,
      and(
        eq(agentsTable.goalId, rosterPeersTable.goalId),
        eq(agentsTable.agentId, rosterPeersTable.agentId),
      ),
    )
    .where(and(eq(rosterPeersTable.goalId, goalId), eq(rosterPeersTable.ownerKey, ownerKey)))
    .orderBy(asc(rosterPeersTable.agentId));
  return {
    primaryPeer: head?.primaryPeer ?? null,
    peers: peers.map((p) => ({ ...p, retired: p.retiredAt !== null })),
  };
}

/** What `deliver` without `to` may choose from: the primary, and the connected (not retired) peers. */
export async function connectedTargets(
  db: Queryable,
  goalId: string,
  ownerKey: string,
): Promise<{ primaryPeer: string | null; connected: string[] }> {
  const stored = await storedRoster(db, goalId, ownerKey);
  return {
    primaryPeer: stored.primaryPeer,
    connected: stored.peers.filter((p) => !p.retired).map((p) => p.agentId),
  };
}

async function rosterOf(db: Queryable, caller: Caller, goalId: string): Promise<Roster> {
  const sender = senderOf(caller);
  const self = recipientIn(caller, goalId);
  const stored = await storedRoster(db, goalId, sender.key);
  const last = await counterparts(db, goalId, sender.key, self);
  return {
    type: 'Roster',
    goalId,
    self: sender.agentId,
    selfKind: sender.kind,
    primaryPeer: stored.primaryPeer,
    peers: stored.peers.map((p) => ({
      agentId: p.agentId,
      status: p.retired ? 'STALE' : 'CONNECTED',
      source: p.source,
      attachedAt: p.attachedAt,
      lastActiveAt: last.get(p.agentId) ?? null,
      isPrimary: p.agentId === stored.primaryPeer,
    })),
  };
}

export async function readRoster(
  db: Db,
  caller: Caller,
  goalId: string,
): Promise<Roster | ScopeGap> {
  validateId('goalId', goalId);
  return (await checkGoalScope(db, caller, goalId)) ?? rosterOf(db, caller, goalId);
}

/** Checks a peer to connect: another agent, registered and active in a goal in scope. */
async function screenPeer(
  db: Db,
  caller: Caller,
  goalId: string,
  agentId: string,
): Promise<ScopeGap | UnknownAgent | null> {
  validateId('goalId', goalId);
  validateId('agentId', agentId);
  if (agentId === recipientIn(caller, goalId)) {
    throw new InputError('agentId is you: a roster lists other agents', 'agentId');
  }
  const gap = await checkGoalScope(db, caller, goalId);
  if (gap) return gap;
  const agent = await findAgent(db, goalId, agentId);
  return !agent || agent.retiredAt ? unknownAgent(goalId, agentId) : null;
}

/** Connects a peer (idempotent: an existing entry keeps its source and time). */
export async function addPeer(
  db: Db,
  caller: Caller,
  goalId: string,
  agentId: string,
): Promise<Roster | ScopeGap | UnknownAgent> {
  const refusal = await screenPeer(db, caller, goalId, agentId);
  if (refusal) return refusal;
  await db
    .insert(rosterPeersTable)
    .values({ goalId, ownerKey: senderOf(caller).key, agentId, source: 'ADD_PEER' })
    .onConflictDoNothing();
  return rosterOf(db, caller, goalId);
}

/** Disconnects a peer (and clears it as primary); removing one that is not connected changes nothing. */
export async function removePeer(
  db: Db,
  caller: Caller,
  goalId: string,
  agentId: string,
): Promise<Roster | ScopeGap> {
  validateId('goalId', goalId);
  validateId('agentId', agentId);
  const gap = await checkGoalScope(db, caller, goalId);
  if (gap) return gap;
  const ownerKey = senderOf(caller).key;
  await db.transaction(async (tx) => {
    await tx
      .delete(rosterPeersTable)
      .where(
        and(
          eq(rosterPeersTable.goalId, goalId),
          eq(rosterPeersTable.ownerKey, ownerKey),
          eq(rosterPeersTable.agentId, agentId),
        ),
      );
    await tx
      .update(rostersTable)
      .set({ primaryPeer: null, updatedAt: sql`now()` })
      .where(
        and(
          eq(rostersTable.goalId, goalId),
          eq(rostersTable.ownerKey, ownerKey),
          eq(rostersTable.primaryPeer, agentId),
        ),
      );
  });
  return rosterOf(db, caller, goalId);
}

/**
 * Sets (or with null clears) the primary peer: the target of `deliver` without `to`. A peer
 * not yet connected is connected by this explicit act (source SET_PRIMARY_PEER).
 */
export async function setPrimaryPeer(
  db: Db,
  caller: Caller,
  goalId: string,
  agentId: string | null,
): Promise<Roster | ScopeGap | UnknownAgent> {
  const ownerKey = senderOf(caller).key;
  if (agentId === null) {
    validateId('goalId', goalId);
    const gap = await checkGoalScope(db, caller, goalId);
    if (gap) return gap;
  } else {
    const refusal = await screenPeer(db, caller, goalId, agentId);
    if (refusal) return refusal;
  }
  await db.transaction(async (tx) => {
    if (agentId !== null) {
      await tx
        .insert(rosterPeersTable)
        .values({ goalId, ownerKey, agentId, source: 'SET_PRIMARY_PEER' })
        .onConflictDoNothing();
    }
    await tx
      .insert(rostersTable)
      .values({ goalId, ownerKey, primaryPeer: agentId })
      .onConflictDoUpdate({
        target: [rostersTable.goalId, rostersTable.ownerKey],
        set: { primaryPeer: agentId, updatedAt: sql`now()` },
      });
  });
  return rosterOf(db, caller, goalId);
}

// ---- discovery -----------------------------------------------------------------------

export const discoverySources = ['REGISTRY', 'PRESENCE', 'MESSAGE'] as const;
export type DiscoverySource = (typeof discoverySources)[number];
export const freshnessValues = ['FRESH', 'STALE', 'UNKNOWN'] as const;
export type Freshness = (typeof freshnessValues)[number];
export const staleReasons = [
  'AGENT_RETIRED',
  'PRESENCE_ENDED',
  'PRESENCE_TTL_EXPIRED',
  'PROVIDER_RESTARTED',
  'UNREACHABLE',
] as const;
export type StaleReason = (typeof staleReasons)[number];
export const discoveryLimitations = [
  'PRESENCE_PROVIDER_UNAVAILABLE',
  'PRESENCE_IS_ADVISORY',
] as const;
export type DiscoveryLimitation = (typeof discoveryLimitations)[number];

export interface DiscoveredAgent {
  readonly agentId: string;
  readonly isSelf: boolean;
  readonly sources: readonly DiscoverySource[];
  readonly freshness: Freshness;
  readonly staleReason: StaleReason | null;
  readonly liveness: Liveness | null;
  readonly lastSeenAt: Date | null;
  readonly lastMessageAt: Date | null;
  readonly connected: boolean;
  readonly isPrimary: boolean;
}

export interface Discovery {
  readonly type: 'Discovery';
  readonly goalId: string;
  readonly self: string | null;
  readonly agents: readonly DiscoveredAgent[];
  readonly limitations: readonly DiscoveryLimitation[];
}

function freshnessOf(
  retired: boolean,
  presence: Presence | undefined,
): { freshness: Freshness; staleReason: StaleReason | null } {
  const stale = (staleReason: StaleReason) => ({ freshness: 'STALE' as const, staleReason });
  if (retired) return stale('AGENT_RETIRED');
  if (!presence) return { freshness: 'UNKNOWN', staleReason: null };
  if (presence.endedAt) return stale('PRESENCE_ENDED');
  if (presence.coverageGap === 'PROVIDER_RESTARTED') return stale('PROVIDER_RESTARTED');
  if (presence.coverageGap === 'PRESENCE_TTL_EXPIRED') return stale('PRESENCE_TTL_EXPIRED');
  if (presence.liveness === 'UNREACHABLE') return stale('UNREACHABLE');
  if (presence.liveness === 'UNKNOWN') return { freshness: 'UNKNOWN', staleReason: null };
  return { freshness: 'FRESH', staleReason: null };
}

/**
 * Every agent registered to the goal, with where the caller could know it from, how fresh
 * that is, and whether the caller's roster connects it. Read-only: available is not
 * connected, and nothing here adds a peer, trusts one, or shows a message body.
 */
export async function discover(
  db: Db,
  caller: Caller,
  goalId: string,
): Promise<Discovery | ScopeGap> {
  validateId('goalId', goalId);
  const gap = await checkGoalScope(db, caller, goalId);
  if (gap) return gap;
  const sender = senderOf(caller);
  const self = recipientIn(caller, goalId);
  const agents = await db
    .select()
    .from(agentsTable)
    .where(eq(agentsTable.goalId, goalId))
    .orderBy(asc(agentsTable.agentId));
  const presenceRows = await db
    .select()
    .from(presenceTable)
    .where(eq(presenceTable.goalId, goalId));
  const [anyProvider] = await db
    .select({ id: providersTable.providerId })
    .from(providersTable)
    .where(sql`${goalId} = any(${providersTable.goalIds})`)
    .limit(1);
  const last = await counterparts(db, goalId, sender.key, self);
  const roster = await storedRoster(db, goalId, sender.key);
  const connected = new Set(roster.peers.map((p) => p.agentId));

  // Per agent, the presence to judge by: a live one of the current provider instance if any
  // (the most recently changed), else the most recently changed of the rest.
  const presence = new Map<string, Presence>();
  const live = (p: Presence) => p.endedAt === null && !p.stale;
  const better = (a: Presence, b: Presence) =>
    live(a) !== live(b) ? live(a) : a.stateChangeSeq > b.stateChangeSeq;
  for (const row of presenceRows) {
    const candidate = toPresence(row);
    const held = presence.get(row.agentId);
    if (!held || better(candidate, held)) presence.set(row.agentId, candidate);
  }

  return {
    type: 'Discovery',
    goalId,
    self: sender.agentId,
    limitations: anyProvider
      ? ['PRESENCE_IS_ADVISORY']
      : ['PRESENCE_PROVIDER_UNAVAILABLE', 'PRESENCE_IS_ADVISORY'],
    agents: agents.map((agent) => {
      const seen = presence.get(agent.agentId);
      const lastMessageAt = last.get(agent.agentId) ?? null;
      return {
        agentId: agent.agentId,
        isSelf: agent.agentId === self,
        sources: [
          'REGISTRY' as const,
          ...(seen ? ['PRESENCE' as const] : []),
          ...(lastMessageAt ? ['MESSAGE' as const] : []),
        ],
        ...freshnessOf(agent.retiredAt !== null, seen),
        liveness: seen?.liveness ?? null,
        lastSeenAt: seen?.observedAt ?? null,
        lastMessageAt,
        connected: connected.has(agent.agentId),
        isPrimary: agent.agentId === roster.primaryPeer,
      };
    }),
  };
}
