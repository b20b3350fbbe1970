/**
 * The caller's roster (the peers it connected on purpose: the only input of deliver without
 * `to`) and discovery (who is registered, and how fresh that is), with their changes.
 */

import { builder } from '../../graphql/builder.ts';
import { CallerKindEnum, ScopeGapRef } from '../../graphql/shared.ts';
import { byType, describeValues } from '../../graphql/values.ts';
import { LivenessEnum } from '../../presence/graphql/presence.ts';
import { UnknownAgentRef } from '../../registry/graphql/agents.ts';
import {
  addPeer,
  type DiscoveredAgent,
  type Discovery,
  discover,
  discoveryLimitations,
  discoverySources,
  freshnessValues,
  type Roster,
  type RosterPeer,
  readRoster,
  removePeer,
  rosterStatuses,
  setPrimaryPeer,
  staleReasons,
} from '../roster.ts';
import { rosterSources } from '../tables.ts';

const RosterStatusEnum = builder.enumType('RosterPeerStatus', {
  description: 'Where a connected peer stands.',
  values: describeValues(rosterStatuses, {
    CONNECTED:
      'In the roster and registered: a possible target. Not presence: it may not be running.',
    STALE: 'In the roster, but the agent was retired since: not a delivery target.',
  }),
});

const RosterSourceEnum = builder.enumType('RosterSource', {
  description: 'The explicit act that connected a peer. Discovery is never one.',
  values: describeValues(rosterSources, {
    ADD_PEER: 'addPeer.',
    SET_PRIMARY_PEER: 'setPrimaryPeer on a peer not yet connected.',
  }),
});

const DiscoverySourceEnum = builder.enumType('DiscoverySource', {
  description: 'Where the caller could know an agent from. None of these connects or trusts it.',
  values: describeValues(discoverySources, {
    REGISTRY: 'Registered to the goal (always present: the registry is the identity).',
    PRESENCE: 'A provider has reported it (now or before). Advisory.',
    MESSAGE: 'The caller exchanged a delivery with it in this goal.',
  }),
});

const FreshnessEnum = builder.enumType('Freshness', {
  description: 'How current what is known of an agent is. Never a statement about its work.',
  values: describeValues(freshnessValues, {
    FRESH: 'A provider reports it now, within its TTL.',
    STALE:
      'What is known is old or ended (see staleReason). Not gone: it may still read its inbox.',
    UNKNOWN: 'No provider sees it (or cannot classify it). Not absence.',
  }),
});

const StaleReasonEnum = builder.enumType('StaleReason', {
  description: 'Why an agent reads STALE.',
  values: describeValues(staleReasons, {
    AGENT_RETIRED: 'Retired from the goal.',
    PRESENCE_ENDED: 'Its last presence was ended by the provider.',
    PRESENCE_TTL_EXPIRED: "No report within the provider's TTL.",
    PROVIDER_RESTARTED: 'Reported by a provider instance that has since restarted.',
    UNREACHABLE: 'The provider reports it UNREACHABLE.',
  }),
});

const DiscoveryLimitationEnum = builder.enumType('DiscoveryLimitation', {
  description: 'What a discovery answer cannot contain, stated rather than implied.',
  values: describeValues(discoveryLimitations, {
    PRESENCE_PROVIDER_UNAVAILABLE:
      'No provider reports for this goal: freshness is UNKNOWN for all.',
    PRESENCE_IS_ADVISORY: 'Presence annotates; it never creates, connects or ranks an agent.',
  }),
});

const RosterPeerRef = builder.objectRef<RosterPeer>('RosterPeer').implement({
  description: 'A peer the caller connected on purpose. Connected is not running (see discover).',
  fields: (t) => ({
    agentId: t.exposeID('agentId', { description: 'The peer agent.' }),
    status: t.expose('status', {
      type: RosterStatusEnum,
      description: 'Connected, or stale (retired since).',
    }),
    source: t.expose('source', {
      type: RosterSourceEnum,
      description: 'The act that connected it.',
    }),
    attachedAt: t.expose('attachedAt', { type: 'DateTime', description: 'When it was connected.' }),
    lastActiveAt: t.expose('lastActiveAt', {
      type: 'DateTime',
      nullable: true,
      description:
        'The last delivery between the caller and it, either way; null when none. Not presence.',
    }),
    isPrimary: t.exposeBoolean('isPrimary', {
      description: 'The target of deliver without `to`.',
    }),
  }),
});

const RosterRef = builder.objectRef<Roster>('Roster').implement({
  description:
    "The caller's own roster in a goal, persisted. The only input of deliver without `to`; discovery never changes it.",
  fields: (t) => ({
    goalId: t.exposeID('goalId', { description: 'The goal.' }),
    self: t.exposeID('self', {
      nullable: true,
      description: 'The caller agent (PEER); null for STEWARD and ADMIN callers, who are no agent.',
    }),
    selfKind: t.expose('selfKind', {
      type: CallerKindEnum,
      description: 'The kind of caller the roster belongs to.',
    }),
    primaryPeer: t.exposeID('primaryPeer', {
      nullable: true,
      description: 'The primary peer; null when none is set.',
    }),
    peers: t.expose('peers', {
      type: [RosterPeerRef],
      description: 'Connected peers, by id.',
    }),
  }),
});

const DiscoveredAgentRef = builder.objectRef<DiscoveredAgent>('DiscoveredAgent').implement({
  description:
    'A registered agent as the caller can know it. Available is not connected, and neither is trusted.',
  fields: (t) => ({
    agentId: t.exposeID('agentId', { description: 'The agent.' }),
    isSelf: t.exposeBoolean('isSelf', { description: 'It is the caller.' }),
    sources: t.expose('sources', {
      type: [DiscoverySourceEnum],
      description: 'Where it is known from.',
    }),
    freshness: t.expose('freshness', {
      type: FreshnessEnum,
      description: 'How current that is.',
    }),
    staleReason: t.expose('staleReason', {
      type: StaleReasonEnum,
      nullable: true,
      description: 'Why STALE; null otherwise.',
    }),
    liveness: t.expose('liveness', {
      type: LivenessEnum,
      nullable: true,
      description: 'Advisory liveness now; null when no provider has seen it.',
    }),
    lastSeenAt: t.expose('lastSeenAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When a provider last saw it; null when none has.',
    }),
    lastMessageAt: t.expose('lastMessageAt', {
      type: 'DateTime',
      nullable: true,
      description: 'The last delivery between the caller and it; null when none.',
    }),
    connected: t.exposeBoolean('connected', {
      description: "In the caller's roster. Discovery never sets this.",
    }),
    isPrimary: t.exposeBoolean('isPrimary', { description: "The caller's primary peer." }),
  }),
});

const DiscoveryRef = builder.objectRef<Discovery>('Discovery').implement({
  description:
    'Every agent registered to a goal, with source, freshness and whether the caller connected it. Read-only: it connects and trusts no one, and shows no message body.',
  fields: (t) => ({
    goalId: t.exposeID('goalId', { description: 'The goal.' }),
    self: t.exposeID('self', {
      nullable: true,
      description: 'The caller agent; null for STEWARD and ADMIN callers.',
    }),
    agents: t.expose('agents', {
      type: [DiscoveredAgentRef],
      description: 'Every registered agent (retired ones read STALE), by id.',
    }),
    limitations: t.expose('limitations', {
      type: [DiscoveryLimitationEnum],
      description: 'What this answer cannot contain.',
    }),
  }),
});

const RosterResult = builder.unionType('RosterResult', {
  description: 'The roster, or a scope gap.',
  types: [RosterRef, ScopeGapRef],
  resolveType: byType,
});
const RosterChangeResult = builder.unionType('RosterChangeResult', {
  description:
    'The roster after the change, a scope gap, or UnknownAgent for a peer that is not a registered, active agent of the goal (nothing written).',
  types: [RosterRef, ScopeGapRef, UnknownAgentRef],
  resolveType: byType,
});
const DiscoveryResult = builder.unionType('DiscoveryResult', {
  description: 'The discovery answer, or a scope gap with no rows.',
  types: [DiscoveryRef, ScopeGapRef],
  resolveType: byType,
});

builder.queryFields((t) => ({
  roster: t.withAuth({ reader: true }).field({
    type: RosterResult,
    description: "The caller's roster in a goal.",
    args: { goalId: t.arg.id({ required: true, description: 'The goal.' }) },
    resolve: (_root, args, { db, caller }) => readRoster(db, caller, args.goalId),
  }),
  discover: t.withAuth({ reader: true }).field({
    type: DiscoveryResult,
    description:
      'Who is registered and how fresh that is, with whether the caller connected each. Never connects anyone.',
    args: { goalId: t.arg.id({ required: true, description: 'The goal.' }) },
    resolve: (_root, args, { db, caller }) => discover(db, caller, args.goalId),
  }),
}));

builder.mutationFields((t) => ({
  addPeer: t.withAuth({ reader: true }).field({
    type: RosterChangeResult,
    description:
      'Connects a registered, active agent of the goal to your roster. Grants it nothing.',
    args: {
      goalId: t.arg.id({ required: true, description: 'The goal.' }),
      agentId: t.arg.id({ required: true, description: 'The agent to connect.' }),
    },
    resolve: (_root, args, { db, caller }) => addPeer(db, caller, args.goalId, args.agentId),
  }),
  removePeer: t.withAuth({ reader: true }).field({
    type: RosterResult,
    description: 'Disconnects a peer (clearing it as primary). Its messages stay where they are.',
    args: {
      goalId: t.arg.id({ required: true, description: 'The goal.' }),
      agentId: t.arg.id({ required: true, description: 'The agent to disconnect.' }),
    },
    resolve: (_root, args, { db, caller }) => removePeer(db, caller, args.goalId, args.agentId),
  }),
  setPrimaryPeer: t.withAuth({ reader: true }).field({
    type: RosterChangeResult,
    description:
      'Sets the target of deliver without `to` (connecting it if needed), or clears it with agentId null. Not a leader.',
    args: {
      goalId: t.arg.id({ required: true, description: 'The goal.' }),
      agentId: t.arg.id({ description: 'The peer; omit or null to clear the primary.' }),
    },
    resolve: (_root, args, { db, caller }) =>
      setPrimaryPeer(db, caller, args.goalId, args.agentId ?? null),
  }),
}));
