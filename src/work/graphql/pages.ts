/** One page of the goal's todos, or just the todos named: what a view of one screen reads. */
import { builder } from '../../graphql/builder.ts';
import { DEFAULT_TODO_PAGE, TODO_PAGE_MAX, todoPage } from '../pages.ts';
import { TodoListingRef } from './todos.ts';

builder.queryFields((t) => ({
  todoPage: t.withAuth({ reader: true }).field({
    type: TodoListingRef,
    description: `A page of the goal's todos in the order \`todos\` gives (highest priority first, then oldest): \`limit\` of them from \`offset\`; with \`ids\`, only those todos (an id of no todo in the goal is left out, not an error). \`omittedRowCount\` counts the todos outside this page, so offset + rows + the rest after it add up to it. A scope gap with no rows when out of scope.`,
    args: {
      goalId: t.arg.id({ required: true, description: 'The goal.' }),
      ids: t.arg.idList({
        description: `Only these todos, at most ${TODO_PAGE_MAX}; null for all of the goal's.`,
      }),
      offset: t.arg.int({
        defaultValue: 0,
        description: 'How many todos of the order to skip before the page starts.',
      }),
      limit: t.arg.int({
        defaultValue: DEFAULT_TODO_PAGE,
        description: `At most this many rows, 1-${TODO_PAGE_MAX}.`,
      }),
    },
    resolve: (_root, args, { db, caller }) =>
      todoPage(db, caller, args.goalId, {
        ids: args.ids?.map(String),
        offset: args.offset,
        limit: args.limit,
      }),
  }),
}));
