/** Gates: the Gate type, its listing and refusals, and the mutations that open and decide one. */
import { builder } from '../../graphql/builder.ts';
import { listingRef, ScopeGapRef } from '../../graphql/shared.ts';
import { byType } from '../../graphql/values.ts';
import { UnknownAgentRef } from '../../registry/graphql/agents.ts';
import { openGate, resolveGate } from '../gates.ts';
import { listGates } from '../reads.ts';
import type { GateDecision, GateGranularity, GateKind } from '../tables.ts';
import type { Gate, GateNotOpen, GateState, UnknownGate } from '../values.ts';
import { ActorRef, AGENT_ID } from './write.ts';

const GateKindEnum = builder.enumType('GateKind', {
  description: 'What kind of authority a gate asks for (the first part of a decision scope).',
  values: {
    PRIVATE_READ: { description: 'Reading private material.' },
    WRITE_SCOPE: { description: 'Writing outside the agreed write scope.' },
    RESOURCE: { description: 'Spending a resource (money, quota, hardware).' },
    PRODUCTION: { description: 'Touching production.' },
    PUBLIC_CLAIM: { description: 'Saying something in public (publishing, announcing).' },
    DIRECTION: { description: 'Choosing the direction of the work.' },
  } satisfies Record<GateKind, unknown>,
});

const GateGranularityEnum = builder.enumType('GateGranularity', {
  description:
    'How much a decision scope spans, narrowest first. A gate covers a required scope of its kind when: ACTION — the same ACTION key; LANE — the same LANE key, or an ACTION key inside the lane (`<lane>/…`); GOAL, PROJECT, GLOBAL — every scope of the kind in the goal (a gate never reaches another goal). A narrower gate never covers a broader requirement.',
  values: {
    ACTION: { description: 'One operation, named by its key.' },
    LANE: { description: 'A stream of work; its actions have keys `<lane>/<action>`.' },
    GOAL: { description: 'Everything of this kind in the goal.' },
    PROJECT: { description: 'Asked project-wide; within Switchboard it covers the goal.' },
    GLOBAL: { description: 'Asked globally; within Switchboard it covers the goal.' },
  } satisfies Record<GateGranularity, unknown>,
});

const GateDecisionEnum = builder.enumType('GateDecision', {
  description: 'The decision on a gate.',
  values: {
    GRANTED: { description: 'Authorized: the gate covers nothing any more.' },
    DENIED: {
      description:
        'Refused: the gate keeps covering its scope (until it expires); covered work must be superseded or closed.',
    },
  } satisfies Record<GateDecision, unknown>,
});

export const GateStateEnum = builder.enumType('GateState', {
  description: 'A gate now, computed from its decision and expiry at read time.',
  values: {
    OPEN: { description: 'Waiting for a decision; covers its scope.' },
    GRANTED: { description: 'Granted; covers nothing.' },
    DENIED: { description: 'Denied; still covers its scope.' },
    EXPIRED: { description: 'Past `expiresAt`: covers nothing, whatever the decision.' },
  } satisfies Record<GateState, unknown>,
});

const GateRef = builder.objectRef<Gate>('Gate').implement({
  description:
    'Scoped authority: a user/controller decision a todo may need. It holds back only the todos requiring a scope it covers (see GateGranularity); it never freezes the goal.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Server-assigned id; `gate_resolved:<id>` names it.' }),
    goalId: t.exposeID('goalId', { description: 'The goal.' }),
    kind: t.expose('kind', { type: GateKindEnum, description: 'Kind.' }),
    granularity: t.expose('granularity', {
      type: GateGranularityEnum,
      description: 'How much it spans.',
    }),
    scopeKey: t.exposeString('scopeKey', { description: 'The public-safe key of what it covers.' }),
    scope: t.string({
      resolve: (g) => `${g.kind.toLowerCase()}:${g.granularity.toLowerCase()}:${g.scopeKey}`,
      description: 'Its decision scope, `kind:granularity:scopeKey`, as todos write it.',
    }),
    reason: t.exposeString('reason', { description: 'The question asked.' }),
    state: t.expose('state', { type: GateStateEnum, description: 'Now.' }),
    decision: t.expose('decision', {
      type: GateDecisionEnum,
      nullable: true,
      description: 'The decision; null while pending.',
    }),
    decisionNote: t.exposeString('decisionNote', {
      nullable: true,
      description: 'What the decider said.',
    }),
    expiresAt: t.expose('expiresAt', {
      type: 'DateTime',
      nullable: true,
      description: 'After this it covers nothing.',
    }),
    openedAt: t.expose('openedAt', { type: 'DateTime', description: 'When it was opened.' }),
    openedBy: t.field({
      type: ActorRef,
      resolve: (g) => ({ kind: g.openedByKind, agentId: g.openedByAgent }),
      description: 'Who opened it.',
    }),
    resolvedAt: t.expose('resolvedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When it was decided.',
    }),
    resolvedBy: t.field({
      type: ActorRef,
      nullable: true,
      resolve: (g) =>
        g.resolvedByKind ? { kind: g.resolvedByKind, agentId: g.resolvedByAgent } : null,
      description: 'Who decided it.',
    }),
  }),
});

const GateListingRef = listingRef<Gate>(
  'GateListing',
  "A goal's gates, newest first, or a scope gap with no rows.",
  GateRef,
  'Newest first.',
);

const UnknownGateRef = builder.objectRef<UnknownGate>('UnknownGate').implement({
  description: 'No gate with this id in the goal. Nothing was written.',
  fields: (t) => ({
    goalId: t.exposeID('goalId', { description: 'The goal searched.' }),
    gateId: t.exposeID('gateId', { description: 'The id that matched nothing.' }),
  }),
});

const GateNotOpenRef = builder.objectRef<GateNotOpen>('GateNotOpen').implement({
  description: 'The gate was decided already; a decision is not changed. Nothing was written.',
  fields: (t) => ({
    gate: t.expose('gate', { type: GateRef, description: 'The gate as it is.' }),
  }),
});

const OpenGateResult = builder.unionType('OpenGateResult', {
  description: 'The new gate, or why not.',
  types: [GateRef, ScopeGapRef, UnknownAgentRef],
  resolveType: byType,
});

const ResolveGateResult = builder.unionType('ResolveGateResult', {
  description: 'The decided gate, or why not.',
  types: [GateRef, ScopeGapRef, UnknownGateRef, GateNotOpenRef],
  resolveType: byType,
});

const OpenGateInput = builder.inputType('OpenGateInput', {
  description: 'A decision a user or controller must make.',
  fields: (t) => ({
    goalId: t.id({ required: true, description: 'The goal.' }),
    agentId: t.id({ description: AGENT_ID }),
    kind: t.field({ type: GateKindEnum, required: true, description: 'Kind of authority.' }),
    granularity: t.field({
      type: GateGranularityEnum,
      required: true,
      description: 'How much it spans.',
    }),
    scopeKey: t.string({
      required: true,
      description:
        "Public-safe key: letters, digits, '.', '_', '-', '/' (lane/action), up to 100 characters.",
    }),
    reason: t.string({ required: true, description: 'The question, up to 500 characters.' }),
    expiresAt: t.field({
      type: 'DateTime',
      description: 'In the future; after it the gate covers nothing.',
    }),
  }),
});

const ResolveGateInput = builder.inputType('ResolveGateInput', {
  description: 'The decision on a gate.',
  fields: (t) => ({
    goalId: t.id({ required: true, description: 'The goal.' }),
    gateId: t.id({ required: true, description: 'The gate.' }),
    decision: t.field({ type: GateDecisionEnum, required: true, description: 'The decision.' }),
    note: t.string({ description: 'What the decider says, up to 500 characters.' }),
  }),
});

builder.queryFields((t) => ({
  gates: t.withAuth({ reader: true }).field({
    type: GateListingRef,
    description: "The goal's gates, each with its state now.",
    args: { goalId: t.arg.id({ required: true, description: 'The goal.' }) },
    resolve: (_root, args, { db, caller }) => listGates(db, caller, args.goalId),
  }),
}));

builder.mutationFields((t) => ({
  openGate: t.withAuth({ reader: true }).field({
    type: OpenGateResult,
    description: 'Opens a gate: any reader of the goal may ask for a decision.',
    args: {
      input: t.arg({
        type: OpenGateInput,
        required: true,
        description: 'The write, validated in full before anything is written.',
      }),
    },
    resolve: (_root, { input }, { db, caller }) => openGate(db, caller, input),
  }),
  resolveGate: t.withAuth({ admin: true, steward: true }).field({
    type: ResolveGateResult,
    description: 'Decides a gate. ADMIN or STEWARD only: an agent never grants itself authority.',
    args: {
      input: t.arg({
        type: ResolveGateInput,
        required: true,
        description: 'The write, validated in full before anything is written.',
      }),
    },
    resolve: (_root, { input }, { db, caller }) => resolveGate(db, caller, input),
  }),
}));
