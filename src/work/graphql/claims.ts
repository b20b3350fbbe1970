/** Claims: the mutations that set or drop a todo's soft owner (the Claim type sits on Todo). */
import { builder } from '../../graphql/builder.ts';
import { byType, describeValues } from '../../graphql/values.ts';
import { type ClaimedTodo, type ClaimWarning, claimTodo, releaseClaim } from '../claims.ts';
import { TodoActionInput, TodoRef, TodoResult } from './todos.ts';
import { refusals } from './write.ts';

const ClaimWarningKindEnum = builder.enumType('ClaimWarningKind', {
  description: 'What a claim overlaps. A warning: the claim was made all the same.',
  values: describeValues(['WRITE_SCOPE_CONFLICT'] as const, {
    WRITE_SCOPE_CONFLICT:
      "Another agent claims a live todo of the same repository whose write scope overlaps this todo's.",
  }),
});

const ClaimWarningRef = builder.objectRef<ClaimWarning>('ClaimWarning').implement({
  description:
    'Something the claim overlaps, said alongside it. A claim is a soft owner, not a lock: it was made, and the frontier holds back the later of two overlapping claims (WRITE_SCOPE_CONFLICT); a lease is what protects an effectful run.',
  fields: (t) => ({
    kind: t.expose('kind', { type: ClaimWarningKindEnum, description: 'What kind.' }),
    todoId: t.exposeID('todoId', {
      description: "The other todo: its owner's earliest-claimed overlapping one.",
    }),
    owner: t.exposeID('owner', { description: 'The agent that claims it.' }),
    repository: t.exposeString('repository', {
      nullable: true,
      description: 'The shared repository; null when neither todo names one.',
    }),
    writeScope: t.exposeString('writeScope', {
      description: "The claimed todo's write-scope entry that overlaps.",
    }),
    otherWriteScope: t.exposeString('otherWriteScope', {
      description: "The other todo's entry it overlaps.",
    }),
  }),
});

const ClaimedTodoRef = builder.objectRef<ClaimedTodo>('ClaimedTodo').implement({
  description:
    'The claim (or the unchanged todo when the caller claimed it already), with what it overlaps.',
  fields: (t) => ({
    todo: t.expose('todo', { type: TodoRef, description: 'The todo, claimed by the caller.' }),
    warnings: t.expose('warnings', {
      type: [ClaimWarningRef],
      description: 'Empty when the claim overlaps nothing. One per other agent.',
    }),
  }),
});

const ClaimTodoResult = builder.unionType('ClaimTodoResult', {
  description: 'The claim with its warnings, or why not.',
  types: [ClaimedTodoRef, ...refusals],
  resolveType: byType,
});

builder.mutationFields((t) => ({
  claimTodo: t.withAuth({ reader: true }).field({
    type: ClaimTodoResult,
    description:
      "Makes the acting agent the todo's soft owner. Another agent's claim is refused with the owner named. Overlapping write scopes of other agents' claims come back as warnings alongside the claim.",
    args: {
      input: t.arg({
        type: TodoActionInput,
        required: true,
        description: 'The write, validated in full before anything is written.',
      }),
    },
    resolve: (_root, { input }, { db, caller }) => claimTodo(db, caller, input),
  }),
  releaseClaim: t.withAuth({ reader: true }).field({
    type: TodoResult,
    description: 'Drops the claim. Its owner, or ADMIN/STEWARD.',
    args: {
      input: t.arg({
        type: TodoActionInput,
        required: true,
        description: 'The write, validated in full before anything is written.',
      }),
    },
    resolve: (_root, { input }, { db, caller }) => releaseClaim(db, caller, input),
  }),
}));
