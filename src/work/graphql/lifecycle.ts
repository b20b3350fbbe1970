/** Lifecycle: complete, supersede, defer, resume and close, with their inputs and results. */
import { builder } from '../../graphql/builder.ts';
import { byType } from '../../graphql/values.ts';
import {
  type CompletedTodo,
  closeNoFollowUp,
  completeTodo,
  deferTodo,
  resumeTodo,
  type SupersededTodo,
  supersedeTodo,
} from '../lifecycle.ts';
import { SPEC, TodoActionInput, TodoRef, TodoResult, TodoSpecInputRef } from './todos.ts';
import { AGENT_ID, refusals } from './write.ts';

const CompletedTodoRef = builder.objectRef<CompletedTodo>('CompletedTodo').implement({
  description: 'The todo is DONE; its successor, if one was given, was created with it.',
  fields: (t) => ({
    todo: t.expose('todo', { type: TodoRef, description: 'The completed todo.' }),
    successor: t.expose('successor', {
      type: TodoRef,
      nullable: true,
      description: 'The successor (`successorOf` = the completed todo).',
    }),
  }),
});

const SupersededTodoRef = builder.objectRef<SupersededTodo>('SupersededTodo').implement({
  description: 'The todo is SUPERSEDED (not done); `replacement` takes over.',
  fields: (t) => ({
    todo: t.expose('todo', { type: TodoRef, description: 'The superseded todo.' }),
    replacement: t.expose('replacement', {
      type: TodoRef,
      description: 'The todo that replaces it.',
    }),
  }),
});

const CompleteTodoResult = builder.unionType('CompleteTodoResult', {
  description: 'The completed todo and its successor, or why not.',
  types: [CompletedTodoRef, ...refusals],
  resolveType: byType,
});

const SupersedeTodoResult = builder.unionType('SupersedeTodoResult', {
  description: 'The superseded todo and its replacement, or why not.',
  types: [SupersededTodoRef, ...refusals],
  resolveType: byType,
});

const CompleteTodoInput = builder.inputType('CompleteTodoInput', {
  description: 'Completes a todo with evidence, optionally creating its successor.',
  fields: (t) => ({
    goalId: t.id({ required: true, description: 'The goal.' }),
    todoId: t.id({ required: true, description: 'The todo.' }),
    agentId: t.id({ description: AGENT_ID }),
    evidenceRefs: t.stringList({
      required: true,
      description:
        'At least one relative, credential-free reference (a commit, a test run, a relative path); absolute paths are refused. At most 20.',
    }),
    successor: t.field({
      type: TodoSpecInputRef,
      description: 'The next unit of work, created in the same transaction.',
    }),
  }),
});

const SupersedeTodoInput = builder.inputType('SupersedeTodoInput', {
  description: 'Replaces a todo. Give exactly one of `replacement` or `replacementId`.',
  fields: (t) => ({
    goalId: t.id({ required: true, description: 'The goal.' }),
    todoId: t.id({ required: true, description: 'The todo to supersede.' }),
    agentId: t.id({ description: AGENT_ID }),
    reason: t.string({ required: true, description: 'Why, up to 500 characters.' }),
    replacement: t.field({ type: TodoSpecInputRef, description: 'A new todo to replace it.' }),
    replacementId: t.id({ description: 'An existing live todo of the goal that replaces it.' }),
  }),
});

const DeferTodoInput = builder.inputType('DeferTodoInput', {
  description: 'Defers (or blocks) a todo until its resume conditions hold.',
  fields: (t) => ({
    goalId: t.id({ required: true, description: 'The goal.' }),
    todoId: t.id({ required: true, description: 'The todo.' }),
    agentId: t.id({ description: AGENT_ID }),
    resumeWhen: t.stringList({
      required: true,
      description: `At least one condition; replaces the todo's. ${SPEC.resumeWhen}`,
    }),
    reason: t.string({ description: 'Why, up to 500 characters.' }),
  }),
});

const CloseNoFollowUpInput = builder.inputType('CloseNoFollowUpInput', {
  description: 'Closes a todo with no successor.',
  fields: (t) => ({
    goalId: t.id({ required: true, description: 'The goal.' }),
    todoId: t.id({ required: true, description: 'The todo.' }),
    agentId: t.id({ description: AGENT_ID }),
    reason: t.string({
      required: true,
      description: 'Why no follow-up is needed, up to 500 characters.',
    }),
  }),
});

builder.mutationFields((t) => ({
  completeTodo: t.withAuth({ reader: true }).field({
    type: CompleteTodoResult,
    description:
      'DONE with evidence, optionally with a successor created in the same transaction. Claimant, anyone while unclaimed, or ADMIN/STEWARD.',
    args: {
      input: t.arg({
        type: CompleteTodoInput,
        required: true,
        description: 'The write, validated in full before anything is written.',
      }),
    },
    resolve: (_root, { input }, { db, caller }) => completeTodo(db, caller, input),
  }),
  supersedeTodo: t.withAuth({ reader: true }).field({
    type: SupersedeTodoResult,
    description:
      'SUPERSEDED (never DONE), lineage kept, by a new or named replacement. Claimant, anyone while unclaimed, or ADMIN/STEWARD.',
    args: {
      input: t.arg({
        type: SupersedeTodoInput,
        required: true,
        description: 'The write, validated in full before anything is written.',
      }),
    },
    resolve: (_root, { input }, { db, caller }) => supersedeTodo(db, caller, input),
  }),
  deferTodo: t.withAuth({ reader: true }).field({
    type: TodoResult,
    description:
      'DEFERRED until its resume conditions hold. Claimant, anyone while unclaimed, or ADMIN/STEWARD.',
    args: {
      input: t.arg({
        type: DeferTodoInput,
        required: true,
        description: 'The write, validated in full before anything is written.',
      }),
    },
    resolve: (_root, { input }, { db, caller }) => deferTodo(db, caller, input),
  }),
  resumeTodo: t.withAuth({ reader: true }).field({
    type: TodoResult,
    description:
      'A deferred todo back to OPEN after replanning (unmet resume conditions still hold it back). Claimant, anyone while unclaimed, or ADMIN/STEWARD.',
    args: {
      input: t.arg({
        type: TodoActionInput,
        required: true,
        description: 'The write, validated in full before anything is written.',
      }),
    },
    resolve: (_root, { input }, { db, caller }) => resumeTodo(db, caller, input),
  }),
  closeNoFollowUp: t.withAuth({ reader: true }).field({
    type: TodoResult,
    description:
      'CLOSED_NO_FOLLOW_UP with a required reason. Claimant, anyone while unclaimed, or ADMIN/STEWARD.',
    args: {
      input: t.arg({
        type: CloseNoFollowUpInput,
        required: true,
        description: 'The write, validated in full before anything is written.',
      }),
    },
    resolve: (_root, { input }, { db, caller }) => closeNoFollowUp(db, caller, input),
  }),
}));
