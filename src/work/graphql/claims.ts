/** Claims: the mutations that set or drop a todo's soft owner (the Claim type sits on Todo). */
import { builder } from '../../graphql/builder.ts';
import { claimTodo, releaseClaim } from '../claims.ts';
import { TodoActionInput, TodoResult } from './todos.ts';

builder.mutationFields((t) => ({
  claimTodo: t.withAuth({ reader: true }).field({
    type: TodoResult,
    description:
      "Makes the acting agent the todo's soft owner. Another agent's claim is refused with the owner named.",
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
