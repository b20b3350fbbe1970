/** Delegations: the Delegation type and delegateGoal, which lets an agent act in another goal. */
import { builder } from '../../graphql/builder.ts';
import { ScopeGapRef } from '../../graphql/shared.ts';
import { byType } from '../../graphql/values.ts';
import { delegateGoal } from '../registry.ts';
import type { Delegation } from '../tables.ts';
import { UnknownAgentRef } from './agents.ts';

const DelegationRef = builder.objectRef<Delegation>('Delegation').implement({
  description: 'A goal delegated to an agent of another (or the same) goal.',
  fields: (t) => ({
    goalId: t.exposeID('goalId', { description: 'The goal the agent may now act in.' }),
    agentGoalId: t.exposeID('agentGoalId', { description: 'The goal the agent is registered to.' }),
    agentId: t.exposeID('agentId', { description: 'The agent.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was delegated.' }),
  }),
});

const DelegateGoalResult = builder.unionType('DelegateGoalResult', {
  description: 'The delegation, or why it could not be made.',
  types: [DelegationRef, UnknownAgentRef, ScopeGapRef],
  resolveType: byType,
});

const DelegateGoalInput = builder.inputType('DelegateGoalInput', {
  description: 'Let an agent of `agentGoalId` also act in `goalId`.',
  fields: (t) => ({
    goalId: t.id({ required: true, description: 'The goal being delegated.' }),
    agentGoalId: t.id({ required: true, description: 'The goal the agent is registered to.' }),
    agentId: t.id({ required: true, description: 'The agent.' }),
  }),
});

builder.mutationFields((t) => ({
  delegateGoal: t.withAuth({ admin: true }).field({
    type: DelegateGoalResult,
    description: "Widens an agent's scope to another goal. Admin only.",
    args: {
      input: t.arg({ type: DelegateGoalInput, required: true, description: 'What to write.' }),
    },
    resolve: (_root, { input }, { db, caller }) =>
      delegateGoal(db, caller, {
        goalId: input.goalId,
        agentGoalId: input.agentGoalId,
        agentId: input.agentId,
      }),
  }),
}));
