/** Goals: the Goal type, the goals in the caller's scope, and createGoal. */
import { builder } from '../../graphql/builder.ts';
import { byType } from '../../graphql/values.ts';
import { createGoal, listGoals } from '../registry.ts';
import type { Goal } from '../tables.ts';

export const GoalRef = builder.objectRef<Goal>('Goal').implement({
  description: 'One goal that peers work on together; the unit of scope.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Stable id chosen at creation.' }),
    title: t.exposeString('title', { description: 'Human-readable title.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
  }),
});

const GoalAlreadyExistsRef = builder.objectRef<{ goal: Goal }>('GoalAlreadyExists').implement({
  description: 'A goal with this id exists already; nothing was written.',
  fields: (t) => ({
    goal: t.expose('goal', { type: GoalRef, description: 'The existing goal.' }),
  }),
});

const CreateGoalResult = builder.unionType('CreateGoalResult', {
  description: 'The new goal, or the existing one it conflicts with.',
  types: [GoalRef, GoalAlreadyExistsRef],
  resolveType: byType,
});

const CreateGoalInput = builder.inputType('CreateGoalInput', {
  description: 'A new goal.',
  fields: (t) => ({
    goalId: t.id({ required: true, description: '1-64 letters, digits, ".", "_" or "-".' }),
    title: t.string({ required: true, description: 'Up to 200 characters.' }),
  }),
});

builder.queryFields((t) => ({
  goals: t.withAuth({ reader: true }).field({
    type: [GoalRef],
    description: "The goals in the caller's scope, by id.",
    resolve: (_root, _args, { db, caller }) => listGoals(db, caller),
  }),
}));

builder.mutationFields((t) => ({
  createGoal: t.withAuth({ admin: true }).field({
    type: CreateGoalResult,
    description: 'Creates a goal. Admin only.',
    args: {
      input: t.arg({ type: CreateGoalInput, required: true, description: 'What to write.' }),
    },
    resolve: (_root, { input }, { db }) =>
      createGoal(db, { goalId: input.goalId, title: input.title }),
  }),
}));
