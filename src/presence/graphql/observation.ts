/**
 * Observation: bounded, advisory excerpts of an agent's terminal; a provider reports one
 * (reportObservation) and a reader asks for one (observe), or learns why there is none.
 */
import { builder } from '../../graphql/builder.ts';
import { ScopeGapRef } from '../../graphql/shared.ts';
import { byType, describeValues } from '../../graphql/values.ts';
import { UnknownAgentRef } from '../../registry/graphql/agents.ts';
import {
  type Observation,
  type ObservationGap,
  observationGapReasons,
  observe,
  reportObservation,
} from '../observation.ts';
import { GATEWAY_MAX_LINES, MAX_LINE_LENGTH } from '../providers.ts';
import { observationLimits, observationSources } from '../tables.ts';
import { PresenceAcceptedRef, PresenceRefusedRef } from './reports.ts';

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

const ObservationGapReasonEnum = builder.enumType('ObservationGapReason', {
  description: 'Why there is no excerpt.',
  values: describeValues(observationGapReasons, {
    NO_PROVIDER: 'No provider reports for this goal: nothing can be observed.',
    SOURCE_NOT_DECLARED: 'No provider declared this source.',
    NOTHING_CAPTURED: 'The source is declared but nothing was captured for this agent yet.',
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
      // What the estimate of an answer's size counts for each (graphql/execution/response-size.ts).
      extensions: { maxBytes: MAX_LINE_LENGTH },
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
    redactionCount: t.exposeInt('redactionCount', {
      description:
        'How many credentials and absolute local paths the privacy screen replaced by `[redacted:…]` markers when the provider reported the excerpt (in all its stored lines, which may be more than `lines` returns). Not a count of secrets on the screen, nor proof that none is left.',
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
    lines: t.stringList({
      required: true,
      description:
        'The excerpt; cut to the declared bound, and stored after the privacy screen (credentials and absolute local paths become `[redacted:…]` markers).',
    }),
    limits: t.field({
      type: [ObservationLimitEnum],
      defaultValue: [],
      description: 'Limits that apply to this capture, beyond the declared ones.',
    }),
    capturedAt: t.field({ type: 'DateTime', required: true, description: 'When it was captured.' }),
  }),
});

builder.mutationFields((t) => ({
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
    // More lines than this are never answered (graphql/execution/response-size.ts counts so).
    extensions: { maxItems: GATEWAY_MAX_LINES },
    resolve: (_root, args, { db, caller }) =>
      observe(db, caller, {
        goalId: args.goalId,
        agentId: args.agentId,
        source: args.source,
        lines: args.lines,
      }),
  }),
}));
