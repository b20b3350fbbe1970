import { builder } from '../graphql/builder.ts';
import { CallerKindEnum, ScopeGapRef } from '../graphql/shared.ts';
import { ReplanObligationKindEnum } from '../ledger/graphql/obligations.ts';
import { ObservationLimitEnum } from '../presence/graphql/observation.ts';
import {
  BlockedKindEnum,
  CoverageGapEnum,
  LivenessEnum,
  PresenceRef,
} from '../presence/graphql/presence.ts';
import { LeaseStateEnum } from '../work/graphql/leases.ts';
import {
  type Attention,
  type AttentionRow,
  type attentionReasons,
  attentionRows,
  DEFAULT_DIRECTORY_LIMIT,
  type DirectoryPacket,
  type DirectoryRow,
  type directoryLimitations,
  readAttention,
  readDirectory,
} from './directory.ts';

const DirectoryLimitationEnum = builder.enumType('DirectoryLimitation', {
  description: 'What a directory packet cannot tell, stated instead of implied.',
  values: {
    PRESENCE_PROVIDER_UNAVAILABLE: {
      description:
        'No provider reports for this goal: no row has presence, which says nothing about whether agents run.',
    },
    PRESENCE_IS_ADVISORY: {
      description: 'Presence annotates rows; it is not evidence of progress.',
    },
    PRESENCE_STALE_AFTER_PROVIDER_RESTART: {
      description: 'Some presence was reported by a provider instance that has since restarted.',
    },
    LEASE_STATE_NOT_PROJECTED: {
      description: 'Lease state could not be read (not emitted while leases are projected).',
    },
    CALLER_IDENTITY_NOT_SUPPLIED: {
      description:
        'The caller is not an agent of this goal, so nothing is relative to a caller identity.',
    },
    ROWS_TRUNCATED_AT_CAP: {
      description: 'More agents than `limit`: see omittedRowCount. Not a complete listing.',
    },
  } satisfies Record<(typeof directoryLimitations)[number], unknown>,
});

const AttentionReasonEnum = builder.enumType('AttentionReason', {
  description: 'Why a row needs attention, from typed state only. Urgency is this order.',
  values: {
    PROVIDER_SILENT: {
      description:
        'A presence provider stopped reporting for this goal: every presence its current instance reported here lapsed (coverageGap PRESENCE_TTL_EXPIRED: no report within its TTL; PROVIDER_REVOKED: no credential covers the goal). A fact about the provider, from its registration and its lapses; the agents it covered (agentIds) are not known to have stopped, only no longer seen.',
    },
    BLOCKED_ON_GATE: {
      description: "An agent's claimed todo needs a decision scope an open gate covers.",
    },
    WAITING_ON_OWNER: { description: 'An open user gate or user action: a person must act.' },
    STALLED_DELIVERY: {
      description: 'A delivery saw no activity from its recipient inside its window.',
    },
    STALE_CLAIM: { description: 'A claim with no advancement for longer than the threshold.' },
  } satisfies Record<(typeof attentionReasons)[number], unknown>,
});

const AttentionRowRef = builder.objectRef<AttentionRow>('AttentionRow').implement({
  description: 'One thing that needs a decision. Routes attention; assigns nothing.',
  fields: (t) => ({
    reason: t.expose('reason', { type: AttentionReasonEnum, description: 'Why.' }),
    agentId: t.exposeID('agentId', { nullable: true, description: 'The agent concerned, if any.' }),
    todoId: t.exposeID('todoId', { nullable: true, description: 'The todo concerned, if any.' }),
    gateId: t.exposeID('gateId', { nullable: true, description: 'BLOCKED_ON_GATE: the gate.' }),
    deliveryId: t.exposeID('deliveryId', {
      nullable: true,
      description: 'STALLED_DELIVERY: the delivery.',
    }),
    provider: t.exposeID('provider', {
      nullable: true,
      description: 'PROVIDER_SILENT: the provider that stopped reporting.',
    }),
    agentIds: t.exposeIDList('agentIds', {
      description:
        'PROVIDER_SILENT: the agents whose presence it reported in this goal, each now UNKNOWN; empty for other reasons (see agentId).',
    }),
    coverageGap: t.expose('coverageGap', {
      type: CoverageGapEnum,
      nullable: true,
      description: 'PROVIDER_SILENT: how its presence lapsed; null for other reasons.',
    }),
    since: t.expose('since', {
      type: 'DateTime',
      description:
        "Since when it has been so (PROVIDER_SILENT: the provider's last observation it reported here).",
    }),
    liveness: t.expose('liveness', {
      type: LivenessEnum,
      nullable: true,
      description: 'Annotation only: presence never creates, promotes or removes a row.',
    }),
    blockedKind: t.expose('blockedKind', {
      type: BlockedKindEnum,
      nullable: true,
      description:
        'Annotation only, with liveness BLOCKED: what the agent waits for (a permission, an answer, a login), when its status source said.',
    }),
  }),
});

const AttentionRef = builder.objectRef<Attention>('Attention').implement({
  description: 'The attention rollup of a goal, or a scope gap with no rows.',
  fields: (t) => ({
    goalId: t.exposeID('goalId', { description: 'The goal.' }),
    rows: t.expose('rows', {
      type: [AttentionRowRef],
      description: 'Most urgent first.',
    }),
    scopeGap: t.expose('scopeGap', {
      type: ScopeGapRef,
      nullable: true,
      description: 'Set when the goal is out of scope.',
    }),
  }),
});

const WorkRef = builder.objectRef<DirectoryRow['work']>('DirectoryWork').implement({
  description: "The agent's current work, from the work graph. Claimed does not prove executable.",
  fields: (t) => ({
    todoId: t.exposeID('todoId', {
      nullable: true,
      description: 'Its highest-priority open claimed todo.',
    }),
    claimed: t.exposeBoolean('claimed', { description: 'Whether it claims an open todo.' }),
    lease: t.expose('lease', {
      type: LeaseStateEnum,
      description: "That todo's lease.",
    }),
  }),
});

const DirectoryRowRef = builder.objectRef<DirectoryRow>('DirectoryRow').implement({
  description: 'One registered agent, whether or not it runs.',
  fields: (t) => ({
    agentId: t.exposeID('agentId', { description: 'The agent.' }),
    registered: t.boolean({
      resolve: () => true,
      description: 'Always true: rows come from the registry.',
    }),
    agentModel: t.exposeString('agentModel', { description: 'As registered.' }),
    hostSurface: t.exposeString('hostSurface', {
      description: 'As registered; a label, not an identity.',
    }),
    work: t.expose('work', { type: WorkRef, description: 'From the work graph.' }),
    presence: t.expose('presence', {
      type: PresenceRef,
      nullable: true,
      description:
        'What a provider last saw; null when no provider sees this agent (not the same as not running).',
    }),
    observationLimits: t.expose('observationLimits', {
      type: [ObservationLimitEnum],
      description: 'What excerpts of this agent cannot contain, as its provider declared.',
    }),
    replanNotices: t.expose('replanNotices', {
      type: [ReplanObligationKindEnum],
      description:
        'VISION_CHECKPOINT_MISSING when the agent has a vision and has recorded no replan checkpoint; empty otherwise. The other obligations depend on its scoped ledger: read replanObligations.',
    }),
  }),
});

const DirectoryPacketRef = builder.objectRef<DirectoryPacket>('DirectoryPacket').implement({
  description:
    'peer_agent_directory_v0: who is registered for a goal and who runs now. Reading it grants nothing.',
  fields: (t) => ({
    schemaVersion: t.exposeString('schemaVersion', { description: '"peer_agent_directory_v0".' }),
    goalId: t.exposeID('goalId', { description: 'The goal asked about.' }),
    collectedAt: t.expose('collectedAt', { type: 'DateTime', description: 'When it was read.' }),
    scope: t.exposeString('scope', {
      description: '"GOAL_REGISTERED_AGENTS": one row per registered agent.',
    }),
    audience: t.expose('audience', {
      type: CallerKindEnum,
      nullable: true,
      description: 'The kind of caller it was built for.',
    }),
    rows: t.expose('rows', {
      type: [DirectoryRowRef],
      description: 'By agent id, at most `limit`.',
    }),
    registeredAgentCount: t.exposeInt('registeredAgentCount', {
      description: 'Registered, active agents.',
    }),
    omittedRowCount: t.exposeInt('omittedRowCount', { description: 'Agents left out by `limit`.' }),
    limitations: t.expose('limitations', {
      type: [DirectoryLimitationEnum],
      description: 'Everything this packet cannot tell.',
    }),
    scopeGap: t.expose('scopeGap', {
      type: ScopeGapRef,
      nullable: true,
      description: 'Set (with zero rows) when the goal is out of scope.',
    }),
    rollup: t.field({
      type: [AttentionRowRef],
      description: 'The attention rollup (see `attention`).',
      resolve: (p, _args, { db, deps }) =>
        p.scopeGap ? [] : attentionRows(db, p.goalId, deps.config.staleClaimMs),
    }),
  }),
});

builder.queryFields((t) => ({
  directory: t.withAuth({ reader: true }).field({
    type: DirectoryPacketRef,
    description: 'The directory packet of a goal. Out of scope: a scope gap and zero rows.',
    args: {
      goalId: t.arg.id({ required: true, description: 'The goal.' }),
      limit: t.arg.int({
        defaultValue: DEFAULT_DIRECTORY_LIMIT,
        description: 'Most rows (1-1000).',
      }),
    },
    resolve: (_root, args, { db, caller }) =>
      readDirectory(db, caller, args.goalId, args.limit ?? undefined),
  }),
  attention: t.withAuth({ reader: true }).field({
    type: AttentionRef,
    description:
      'What needs a decision in a goal, most urgent first. Typed state only; assigns nothing.',
    args: {
      goalId: t.arg.id({ required: true, description: 'The goal.' }),
      staleClaimMs: t.arg.int({
        description: 'STALE_CLAIM threshold; the configured one when omitted.',
      }),
    },
    resolve: (_root, args, { db, caller, deps }) =>
      readAttention(db, caller, args.goalId, args.staleClaimMs ?? deps.config.staleClaimMs),
  }),
}));
