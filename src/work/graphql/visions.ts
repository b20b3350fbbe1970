/** Visions and capabilities: each agent's routing state in a goal, read and replaced. */
import { builder } from '../../graphql/builder.ts';
import { listingRef, ScopeGapRef } from '../../graphql/shared.ts';
import { byType } from '../../graphql/values.ts';
import { UnknownAgentRef } from '../../registry/graphql/agents.ts';
import { listVisions } from '../reads.ts';
import type { AgentCapabilities, Vision } from '../tables.ts';
import { setCapabilities, setVision } from '../visions.ts';
import { ActorRef, AGENT_ID } from './write.ts';

export const VisionRef = builder.objectRef<Vision>('Vision').implement({
  description:
    "An agent's bounded execution-routing state in a goal: what direction and role it currently owns. Not a product vision, not a scratchpad.",
  fields: (t) => ({
    goalId: t.exposeID('goalId', { description: 'The goal.' }),
    agentId: t.exposeID('agentId', { description: 'The agent.' }),
    roleScope: t.exposeString('roleScope', {
      description:
        'Its role in the goal. Its words that are relative paths (`src/ledger`, `docs`) also name its lane for the evidence ledger: unclaimed live todos whose writeScope lies under one of them. Prose words select nothing; a lane grants no claim.',
    }),
    visionSummary: t.exposeString('visionSummary', { description: 'Where it is heading.' }),
    acceptanceSummary: t.exposeString('acceptanceSummary', {
      description: 'What evidence it takes as enough.',
    }),
    replanTriggerSummary: t.exposeString('replanTriggerSummary', {
      description: 'What makes it replan.',
    }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When it was set.' }),
    updatedBy: t.field({
      type: ActorRef,
      resolve: (v) => ({ kind: v.updatedByKind, agentId: v.updatedByAgent }),
      description: 'Who set it.',
    }),
  }),
});

const AgentCapabilitiesRef = builder.objectRef<AgentCapabilities>('AgentCapabilities').implement({
  description:
    'What an agent declares its host/runtime can do in a goal. Checked by the CAPABILITY guard; grants no authority; not verified by Switchboard.',
  fields: (t) => ({
    goalId: t.exposeID('goalId', { description: 'The goal.' }),
    agentId: t.exposeID('agentId', { description: 'The agent.' }),
    capabilities: t.exposeStringList('capabilities', { description: 'Sorted names.' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', description: 'When declared.' }),
  }),
});

const VisionListingRef = listingRef<Vision>(
  'VisionListing',
  "Every agent's vision in a goal, or a scope gap with no rows.",
  VisionRef,
  'By agent id.',
);

const SetVisionResult = builder.unionType('SetVisionResult', {
  description: 'The vision as set, or why not.',
  types: [VisionRef, ScopeGapRef, UnknownAgentRef],
  resolveType: byType,
});

const SetCapabilitiesResult = builder.unionType('SetCapabilitiesResult', {
  description: 'The capabilities as set, or why not.',
  types: [AgentCapabilitiesRef, ScopeGapRef, UnknownAgentRef],
  resolveType: byType,
});

const SetVisionInput = builder.inputType('SetVisionInput', {
  description: "Replaces the acting agent's vision in the goal.",
  fields: (t) => ({
    goalId: t.id({ required: true, description: 'The goal.' }),
    agentId: t.id({ description: AGENT_ID }),
    roleScope: t.string({
      required: true,
      description:
        'Its role, up to 200 characters. Words that are relative paths name its lane (see Vision.roleScope).',
    }),
    visionSummary: t.string({ required: true, description: 'Up to 500 characters.' }),
    acceptanceSummary: t.string({ required: true, description: 'Up to 500 characters.' }),
    replanTriggerSummary: t.string({ required: true, description: 'Up to 500 characters.' }),
  }),
});

const SetCapabilitiesInput = builder.inputType('SetCapabilitiesInput', {
  description: "Replaces the acting agent's declared capabilities in the goal.",
  fields: (t) => ({
    goalId: t.id({ required: true, description: 'The goal.' }),
    agentId: t.id({ description: AGENT_ID }),
    capabilities: t.stringList({
      required: true,
      description:
        "Names (letters, digits, '.', '_', '-'), at most 32; an empty list declares none.",
    }),
  }),
});

builder.queryFields((t) => ({
  visions: t.withAuth({ reader: true }).field({
    type: VisionListingRef,
    description: "Every agent's vision in the goal.",
    args: { goalId: t.arg.id({ required: true, description: 'The goal.' }) },
    resolve: (_root, args, { db, caller }) => listVisions(db, caller, args.goalId),
  }),
}));

builder.mutationFields((t) => ({
  setVision: t.withAuth({ reader: true }).field({
    type: SetVisionResult,
    description: "Replaces the acting agent's vision in the goal (one row per agent).",
    args: {
      input: t.arg({
        type: SetVisionInput,
        required: true,
        description: 'The write, validated in full before anything is written.',
      }),
    },
    resolve: (_root, { input }, { db, caller }) => setVision(db, caller, input),
  }),
  setCapabilities: t.withAuth({ reader: true }).field({
    type: SetCapabilitiesResult,
    description:
      "Replaces the acting agent's declared capabilities in the goal, read by the CAPABILITY guard.",
    args: {
      input: t.arg({
        type: SetCapabilitiesInput,
        required: true,
        description: 'The write, validated in full before anything is written.',
      }),
    },
    resolve: (_root, { input }, { db, caller }) => setCapabilities(db, caller, input),
  }),
}));
