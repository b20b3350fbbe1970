/**
 * Agents: the Agent type and UnknownAgent (which other domains' results name), the goal's
 * agents, and registerAgent and retireAgent.
 */
import { builder } from '../../graphql/builder.ts';
import { listingRef, ScopeGapRef } from '../../graphql/shared.ts';
import { byType } from '../../graphql/values.ts';
import {
  type AgentListing,
  listAgents,
  registerAgent,
  retireAgent,
  type UnknownAgent,
} from '../registry.ts';
import type { Agent } from '../tables.ts';

export const UnknownAgentRef = builder.objectRef<UnknownAgent>('UnknownAgent').implement({
  description: 'No agent with this id is registered (and active, where that matters) in the goal.',
  fields: (t) => ({
    goalId: t.exposeID('goalId', { description: 'The goal searched.' }),
    agentId: t.exposeID('agentId', { description: 'The agent id that matched nothing.' }),
  }),
});

export const AgentRef = builder.objectRef<Agent>('Agent').implement({
  description:
    'A registered agent identity. Registration, not a live session, is what makes an agent exist.',
  fields: (t) => ({
    goalId: t.exposeID('goalId', { description: 'The goal it is registered to.' }),
    agentId: t.exposeID('agentId', { description: 'Its id, unique within the goal.' }),
    agentModel: t.exposeString('agentModel', {
      description: 'The model it runs on, as registered.',
    }),
    hostSurface: t.exposeString('hostSurface', {
      description: 'Where it runs (a CLI or host name). A label, never an identity to resolve.',
    }),
    registeredAt: t.expose('registeredAt', {
      type: 'DateTime',
      description: 'When it was registered.',
    }),
    retiredAt: t.expose('retiredAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When it was retired; null while it is a member of its goal.',
    }),
  }),
});

const AgentListingRef = listingRef<Agent, AgentListing>(
  'AgentListing',
  'The agents registered to a goal, or a scope gap with no rows.',
  AgentRef,
  'Agents, by id.',
);

const AgentAlreadyRegisteredRef = builder
  .objectRef<{ agent: Agent }>('AgentAlreadyRegistered')
  .implement({
    description:
      'An agent with this id is (or was: ids of retired agents are not reused) registered to the goal; nothing was written.',
    fields: (t) => ({
      agent: t.expose('agent', {
        type: AgentRef,
        description: 'The existing agent.',
      }),
    }),
  });

const RegisterAgentResult = builder.unionType('RegisterAgentResult', {
  description: 'The new agent, a conflict, or a scope gap.',
  types: [AgentRef, AgentAlreadyRegisteredRef, ScopeGapRef],
  resolveType: byType,
});

const RetireAgentResult = builder.unionType('RetireAgentResult', {
  description: 'The retired agent, or why it could not be retired.',
  types: [AgentRef, UnknownAgentRef, ScopeGapRef],
  resolveType: byType,
});

const RegisterAgentInput = builder.inputType('RegisterAgentInput', {
  description: 'A new agent identity in a goal.',
  fields: (t) => ({
    goalId: t.id({ required: true, description: 'The goal.' }),
    agentId: t.id({ required: true, description: '1-64 letters, digits, ".", "_" or "-".' }),
    agentModel: t.string({ required: true, description: 'The model, up to 100 characters.' }),
    hostSurface: t.string({ required: true, description: 'Where it runs, up to 100 characters.' }),
  }),
});

builder.queryFields((t) => ({
  agents: t.withAuth({ reader: true }).field({
    type: AgentListingRef,
    description: 'The agents registered to a goal; a scope gap with no rows when out of scope.',
    args: {
      goalId: t.arg.id({ required: true, description: 'The goal.' }),
      includeRetired: t.arg.boolean({
        defaultValue: false,
        description: 'Also list retired agents.',
      }),
    },
    resolve: (_root, args, { db, caller }) =>
      listAgents(db, caller, args.goalId, args.includeRetired ?? false),
  }),
}));

builder.mutationFields((t) => ({
  registerAgent: t.withAuth({ admin: true }).field({
    type: RegisterAgentResult,
    description: 'Registers an agent identity in a goal. Admin only.',
    args: {
      input: t.arg({ type: RegisterAgentInput, required: true, description: 'What to write.' }),
    },
    resolve: (_root, { input }, { db, caller }) =>
      registerAgent(db, caller, {
        goalId: input.goalId,
        agentId: input.agentId,
        agentModel: input.agentModel,
        hostSurface: input.hostSurface,
      }),
  }),
  retireAgent: t.withAuth({ admin: true }).field({
    type: RetireAgentResult,
    description:
      'Retires an agent: kept in the registry, no longer a member; its open sockets are closed. Admin only.',
    args: {
      goalId: t.arg.id({ required: true, description: 'The goal.' }),
      agentId: t.arg.id({ required: true, description: 'The agent.' }),
    },
    resolve: (_root, args, { db, caller }) => retireAgent(db, caller, args.goalId, args.agentId),
  }),
}));
