import { builder } from '../graphql/builder.ts';
import { ScopeGapRef } from '../graphql/shared.ts';
import { byType, describeValues } from '../graphql/values.ts';
import { UnknownAgentRef } from '../registry/graphql/agents.ts';
import {
  type Observation,
  type ObservationGap,
  observationGapReasons,
  observe,
  reportObservation,
} from './observation.ts';
import { registerProvider } from './providers.ts';
import { coverageGaps, type Presence, type PresenceChange, presenceChanges } from './read.ts';
import {
  endPresence,
  type PresenceAccepted,
  type PresenceRefused,
  refusalReasons,
  reportPresence,
} from './reports.ts';
import {
  livenessValues,
  observationLimits,
  observationSources,
  type Provider,
  presenceBases,
} from './tables.ts';

export const LivenessEnum = builder.enumType('Liveness', {
  description:
    'Whether an agent is runnable now, as a provider sees it. Never an answer to "is its work done".',
  values: describeValues(livenessValues, {
    WORKING: 'Observed executing. Not progress, not evidence of an outcome.',
    BLOCKED: 'At a question or approval gate. Not permission to answer the gate.',
    IDLE: 'Ready for input. Not a delivered request, not an available lease.',
    DONE: 'Settled and ready for input. Not task completion, not a closed todo.',
    UNREACHABLE: 'Known to the provider but not reachable now. Not an empty lane.',
    UNKNOWN: 'Cannot be classified (see coverageGap). Not completion, not absence of progress.',
  }),
});

const PresenceBasisEnum = builder.enumType('PresenceBasis', {
  description: 'How the provider knows.',
  values: describeValues(presenceBases, {
    PROVIDER_DETECTION: 'The provider classified the terminal itself.',
    LIFECYCLE_HOOK: 'The agent runtime reported through a lifecycle hook.',
    SELF_REPORT: 'The agent said so itself.',
  }),
});

export const ObservationSourceEnum = builder.enumType('ObservationSource', {
  description: 'Where an excerpt comes from.',
  values: describeValues(observationSources, {
    VIEWPORT: 'The rendered screen.',
    RECENT: 'Recent output, as wrapped on screen.',
    RECENT_UNWRAPPED: 'Recent output, logical lines.',
    DETECTION_SNAPSHOT: 'The snapshot the provider classified liveness from.',
  }),
});

export const ObservationLimitEnum = builder.enumType('ObservationLimit', {
  description: 'Something an excerpt cannot contain, declared instead of silently missing.',
  values: describeValues(observationLimits, {
    ALTERNATE_SCREEN_NOT_IN_SCROLLBACK: 'Full-screen programs never enter scrollback.',
    VIEWPORT_CLEARED: 'The screen was cleared; earlier output is gone.',
    PROVIDER_RESTARTED: 'The provider restarted; output before that is gone.',
    DISCONNECTED: 'The machine is disconnected; the excerpt may be old.',
  }),
});

const CoverageGapEnum = builder.enumType('CoverageGap', {
  description: 'Why presence reads UNKNOWN.',
  values: describeValues(coverageGaps, {
    PRESENCE_TTL_EXPIRED: "No report within the provider's declared presence TTL.",
    PROVIDER_RESTARTED:
      'Reported by an earlier instance of a provider that has since re-registered.',
    PROVIDER_CANNOT_CLASSIFY: 'The provider itself reported UNKNOWN.',
  }),
});

const RefusalReasonEnum = builder.enumType('PresenceRefusalReason', {
  description: 'Why a presence or observation report was refused (nothing was written).',
  values: describeValues(refusalReasons, {
    PROVIDER_NOT_REGISTERED: 'Call registerProvider first.',
    GOAL_NOT_IN_SCOPE: 'The goal is not one this provider credential and registration cover.',
    AGENT_NOT_REGISTERED:
      'No such active agent in the goal: a live session never creates an identity.',
    NO_PRESENCE_AT_LOCATION: 'endPresence for a location with no presence.',
  }),
});

const ObservationGapReasonEnum = builder.enumType('ObservationGapReason', {
  description: 'Why there is no excerpt.',
  values: describeValues(observationGapReasons, {
    NO_PROVIDER: 'No provider reports for this goal: nothing can be observed.',
    SOURCE_NOT_DECLARED: 'No provider declared this source.',
    NOTHING_CAPTURED: 'The source is declared but nothing was captured for this agent yet.',
  }),
});

const ProviderRef = builder.objectRef<Provider>('Provider').implement({
  description: "A presence provider's declaration (the provider contract).",
  fields: (t) => ({
    providerId: t.exposeID('providerId', { description: 'Its id.' }),
    instanceId: t.exposeString('instanceId', {
      description: 'The provider process that registered last.',
    }),
    goalIds: t.exposeIDList('goalIds', { description: 'The goals it reports for.' }),
    presenceTtlMs: t.exposeInt('presenceTtlMs', {
      description: 'Presence older than this reads UNKNOWN (PRESENCE_TTL_EXPIRED).',
    }),
    supportsPinnedWaits: t.exposeBoolean('supportsPinnedWaits', {
      description: 'Whether its reports carry a monotonic sequence that pinned waits can rely on.',
    }),
    registeredAt: t.expose('registeredAt', { type: 'DateTime', description: 'Last registration.' }),
  }),
});

export const PresenceRef = builder.objectRef<Presence>('Presence').implement({
  description:
    'Advisory: what a provider last saw of an agent at one location. It annotates; it never creates an agent, a claim, a lease or a priority.',
  fields: (t) => ({
    provider: t.exposeID('provider', { description: 'The provider that reported it.' }),
    providerSessionRef: t.exposeString('providerSessionRef', {
      description:
        'An opaque location inside one provider session. Never an identity; never compare across providers.',
    }),
    occupantRef: t.exposeString('occupantRef', {
      description: "The provider's identity of the occupant at that location.",
    }),
    liveness: t.expose('liveness', {
      type: LivenessEnum,
      description: 'Liveness as a reader should take it: UNKNOWN when coverageGap is set.',
    }),
    reportedLiveness: t.expose('reportedLiveness', {
      type: LivenessEnum,
      description: 'What the provider last reported, before TTL and restart checks.',
    }),
    observedAt: t.expose('observedAt', {
      type: 'DateTime',
      description: 'When the provider last saw it.',
    }),
    basis: t.expose('basis', {
      type: PresenceBasisEnum,
      description: 'How it knows.',
    }),
    stateChangeSeq: t.expose('stateChangeSeq', {
      type: 'Seq',
      description:
        'Moves forward only when liveness or occupant changes; heartbeats leave it alone.',
    }),
    stale: t.exposeBoolean('stale', {
      description: 'Reported by an earlier instance of a provider that restarted.',
    }),
    coverageGap: t.expose('coverageGap', {
      type: CoverageGapEnum,
      nullable: true,
      description: 'Why liveness reads UNKNOWN; null when the report is current.',
    }),
    endedAt: t.expose('endedAt', {
      type: 'DateTime',
      nullable: true,
      description:
        'Set when the provider reported the occupant gone (not running, as opposed to not seen).',
    }),
  }),
});

const PresenceChangeRef = builder.objectRef<PresenceChange>('PresenceChange').implement({
  description:
    'One change of liveness or occupant in a goal, in sequence order. Out of scope: a single change carrying scopeGap, then the end.',
  fields: (t) => ({
    goalId: t.exposeID('goalId', { description: 'The goal.' }),
    agentId: t.exposeID('agentId', {
      nullable: true,
      description: 'The agent; null with scopeGap.',
    }),
    seq: t.expose('seq', {
      type: 'Seq',
      nullable: true,
      description: "Position in the goal's presence stream; pass it as `after` to resume.",
    }),
    presence: t.expose('presence', {
      type: PresenceRef,
      nullable: true,
      description: 'The presence after the change.',
    }),
    previousLiveness: t.expose('previousLiveness', {
      type: LivenessEnum,
      nullable: true,
      description: 'Liveness before the change; null for a new occupant or location.',
    }),
    scopeGap: t.expose('scopeGap', {
      type: ScopeGapRef,
      nullable: true,
      description: 'Set when the goal is out of scope.',
    }),
  }),
});

const PresenceAcceptedRef = builder.objectRef<PresenceAccepted>('PresenceAccepted').implement({
  description: 'The batch was applied.',
  fields: (t) => ({
    changed: t.exposeInt('changed', { description: 'Reports that changed liveness or occupant.' }),
    heartbeats: t.exposeInt('heartbeats', { description: 'Reports that only moved observedAt.' }),
    outOfOrder: t.exposeInt('outOfOrder', {
      description: 'Reports older than one already applied for their location, ignored.',
    }),
  }),
});

const PresenceRefusedRef = builder.objectRef<PresenceRefused>('PresenceRefused').implement({
  description: 'The whole batch was refused; nothing was written.',
  fields: (t) => ({
    index: t.exposeInt('index', {
      description: "The first refused report's position in the batch.",
    }),
    goalId: t.exposeID('goalId', { description: 'Its goal.' }),
    agentId: t.exposeID('agentId', { description: 'Its agent.' }),
    reason: t.expose('reason', { type: RefusalReasonEnum, description: 'Why.' }),
  }),
});

const ObservationRef = builder.objectRef<Observation>('Observation').implement({
  description:
    'A bounded excerpt of what a provider captured. Advisory: never evidence; typed work state comes first and from the work graph.',
  fields: (t) => ({
    goalId: t.exposeID('goalId', { description: 'The goal.' }),
    agentId: t.exposeID('agentId', { description: 'The agent.' }),
    provider: t.exposeID('provider', { description: 'Who captured it.' }),
    source: t.expose('source', {
      type: ObservationSourceEnum,
      description: 'Where from.',
    }),
    lines: t.exposeStringList('lines', {
      description: 'The last lines captured, at most lineBound.',
    }),
    lineBound: t.exposeInt('lineBound', {
      description:
        "The bound applied: the least of the request, the provider's declaration and the gateway maximum.",
    }),
    advisory: t.boolean({
      resolve: () => true,
      description: 'Always true: an excerpt is never evidence.',
    }),
    capturedAt: t.expose('capturedAt', { type: 'DateTime', description: 'When it was captured.' }),
    limits: t.expose('limits', {
      type: [ObservationLimitEnum],
      description: 'What this excerpt cannot contain.',
    }),
  }),
});

const ObservationGapRef = builder.objectRef<ObservationGap>('ObservationGap').implement({
  description: 'No excerpt, and why: never an empty excerpt that looks like silence.',
  fields: (t) => ({
    goalId: t.exposeID('goalId', { description: 'The goal.' }),
    agentId: t.exposeID('agentId', { description: 'The agent.' }),
    source: t.expose('source', {
      type: ObservationSourceEnum,
      description: 'The source asked for.',
    }),
    reason: t.expose('reason', {
      type: ObservationGapReasonEnum,
      description: 'Why.',
    }),
  }),
});

const ReportResult = builder.unionType('ReportPresenceResult', {
  description: 'Applied, or refused as a whole.',
  types: [PresenceAcceptedRef, PresenceRefusedRef],
  resolveType: byType,
});
const ReportObservationResult = builder.unionType('ReportObservationResult', {
  description: 'Stored, refused, or a source the provider never declared.',
  types: [PresenceAcceptedRef, PresenceRefusedRef, ObservationGapRef],
  resolveType: byType,
});
const ObserveResult = builder.unionType('ObserveResult', {
  description: 'An excerpt, or why there is none.',
  types: [ObservationRef, ObservationGapRef, ScopeGapRef, UnknownAgentRef],
  resolveType: byType,
});

const LivenessMappingInput = builder.inputType('LivenessMappingInput', {
  description: 'One provider state and the liveness it maps to.',
  fields: (t) => ({
    providerState: t.string({ required: true, description: "The provider's own state name." }),
    liveness: t.field({ type: LivenessEnum, required: true, description: 'What it means here.' }),
  }),
});

const ObservationSourceInput = builder.inputType('ObservationSourceInput', {
  description: 'An observation source the provider can supply.',
  fields: (t) => ({
    source: t.field({ type: ObservationSourceEnum, required: true, description: 'The source.' }),
    maxLines: t.int({ required: true, description: 'Most lines it keeps (1-10000).' }),
    limits: t.field({
      type: [ObservationLimitEnum],
      required: true,
      description: 'What it cannot recover.',
    }),
  }),
});

const RegisterProviderInput = builder.inputType('RegisterProviderInput', {
  description: 'The provider contract. What is not declared is a typed gap later.',
  fields: (t) => ({
    providerId: t.id({ required: true, description: "Must match the credential's providerId." }),
    instanceId: t.string({
      required: true,
      description: 'This provider process; a new value marks earlier presence stale.',
    }),
    membershipProof: t.string({
      required: true,
      description: 'How a caller proves it is inside the space.',
    }),
    identifierRules: t.string({
      required: true,
      description: 'What happens to location ids after a move, close or restart.',
    }),
    livenessMapping: t.field({
      type: [LivenessMappingInput],
      required: true,
      description: 'Its states mapped to Liveness.',
    }),
    presenceTtlMs: t.int({
      required: true,
      description: 'How long a report stays current (1000-86400000).',
    }),
    observationSources: t.field({
      type: [ObservationSourceInput],
      required: true,
      description: 'Sources with line bounds and unrecoverable cases.',
    }),
    supportsPinnedWaits: t.boolean({
      required: true,
      description:
        'Whether its report sequence is monotonic per location, so pinned waits can rely on it.',
    }),
    persistence: t.string({
      required: true,
      description: 'What survives a client detach, a server restart, a machine restart.',
    }),
    rollup: t.string({ description: 'The rollup it publishes; omit to declare none.' }),
  }),
});

const PresenceReportInput = builder.inputType('PresenceReportInput', {
  description: 'One observation of one occupant at one location.',
  fields: (t) => ({
    goalId: t.id({ required: true, description: 'The goal.' }),
    agentId: t.id({ required: true, description: 'A registered agent of the goal.' }),
    providerSessionRef: t.string({ required: true, description: 'The location, opaque.' }),
    occupantRef: t.string({
      required: true,
      description: 'Who occupies it (e.g. terminal id + name + agent kind).',
    }),
    liveness: t.field({
      type: LivenessEnum,
      required: true,
      description: 'What the provider sees.',
    }),
    observedAt: t.field({ type: 'DateTime', required: true, description: 'When.' }),
    basis: t.field({ type: PresenceBasisEnum, required: true, description: 'How it knows.' }),
    reportSeq: t.field({
      type: 'Seq',
      required: true,
      description:
        "The provider's own monotonic sequence; reports not above the last applied are ignored.",
    }),
  }),
});

const EndPresenceInput = builder.inputType('EndPresenceInput', {
  description: 'The occupant of a location is gone.',
  fields: (t) => ({
    goalId: t.id({ required: true, description: 'The goal.' }),
    agentId: t.id({ required: true, description: 'The agent.' }),
    providerSessionRef: t.string({ required: true, description: 'The location.' }),
    observedAt: t.field({
      type: 'DateTime',
      required: true,
      description: 'When it was seen gone.',
    }),
    reportSeq: t.field({ type: 'Seq', required: true, description: "The provider's sequence." }),
  }),
});

const ReportObservationInput = builder.inputType('ReportObservationInput', {
  description: 'The latest excerpt of one source for one agent.',
  fields: (t) => ({
    goalId: t.id({ required: true, description: 'The goal.' }),
    agentId: t.id({ required: true, description: 'The agent.' }),
    source: t.field({
      type: ObservationSourceEnum,
      required: true,
      description: 'A declared source.',
    }),
    lines: t.stringList({ required: true, description: 'The excerpt; cut to the declared bound.' }),
    limits: t.field({
      type: [ObservationLimitEnum],
      defaultValue: [],
      description: 'Limits that apply to this capture, beyond the declared ones.',
    }),
    capturedAt: t.field({ type: 'DateTime', required: true, description: 'When it was captured.' }),
  }),
});

builder.mutationFields((t) => ({
  registerProvider: t.withAuth({ provider: true }).field({
    type: ProviderRef,
    description:
      'Records the provider contract. Provider credentials only, for their own providerId.',
    args: {
      input: t.arg({
        type: RegisterProviderInput,
        required: true,
        description: 'The declaration.',
      }),
    },
    resolve: (_root, { input }, { db, caller }) =>
      registerProvider(db, caller, {
        ...input,
        providerId: input.providerId,
        observationSources: input.observationSources.map((s) => ({ ...s, limits: s.limits })),
      }),
  }),
  reportPresence: t.withAuth({ provider: true }).field({
    type: ReportResult,
    description:
      "Reports presence in a batch. Refused as a whole, writing nothing, if any report names an agent or goal that is not the provider's.",
    args: {
      reports: t.arg({
        type: [PresenceReportInput],
        required: true,
        description: 'Up to 500 reports.',
      }),
    },
    resolve: (_root, { reports }, { db, caller }) =>
      reportPresence(
        db,
        caller,
        reports.map((r) => ({ ...r, goalId: r.goalId, agentId: r.agentId })),
      ),
  }),
  endPresence: t.withAuth({ provider: true }).field({
    type: ReportResult,
    description: 'Records that an occupant is gone from its location.',
    args: {
      input: t.arg({ type: EndPresenceInput, required: true, description: 'Which location.' }),
    },
    resolve: (_root, { input }, { db, caller }) =>
      endPresence(db, caller, {
        ...input,
        goalId: input.goalId,
        agentId: input.agentId,
      }),
  }),
  reportObservation: t.withAuth({ provider: true }).field({
    type: ReportObservationResult,
    description: 'Stores the latest bounded excerpt of a declared source.',
    args: {
      input: t.arg({ type: ReportObservationInput, required: true, description: 'The excerpt.' }),
    },
    resolve: (_root, { input }, { db, caller }) =>
      reportObservation(db, caller, {
        ...input,
        goalId: input.goalId,
        agentId: input.agentId,
        limits: input.limits ?? [],
      }),
  }),
}));

builder.queryFields((t) => ({
  observe: t.withAuth({ reader: true }).field({
    type: ObserveResult,
    description:
      "A bounded, advisory excerpt of an agent's terminal, or a typed gap. Grants nothing.",
    args: {
      goalId: t.arg.id({ required: true, description: 'The goal.' }),
      agentId: t.arg.id({ required: true, description: 'The agent.' }),
      source: t.arg({ type: ObservationSourceEnum, required: true, description: 'Which source.' }),
      lines: t.arg.int({ required: true, description: 'Most lines wanted.' }),
    },
    resolve: (_root, args, { db, caller }) =>
      observe(db, caller, {
        goalId: args.goalId,
        agentId: args.agentId,
        source: args.source,
        lines: args.lines,
      }),
  }),
}));

builder.subscriptionFields((t) => ({
  presenceChanged: t.withAuth({ reader: true }).field({
    type: PresenceChangeRef,
    description:
      'Every change of liveness or occupant in a goal, in order, exactly once; resumable with `after`. Scoped like the directory.',
    args: {
      goalId: t.arg.id({ required: true, description: 'The goal.' }),
      agentIds: t.arg.idList({ description: 'Only these agents; all when omitted.' }),
      after: t.arg({
        type: 'Seq',
        description: 'Resume after this seq; omitted means changes from now on.',
      }),
    },
    subscribe: (_root, args, { db, deps, caller }) =>
      presenceChanges(
        db,
        deps.presence,
        caller,
        args.goalId,
        args.agentIds ?? null,
        args.after ?? null,
      ),
    resolve: (change) => change,
  }),
}));
