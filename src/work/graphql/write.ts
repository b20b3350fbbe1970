/**
 * What every work write's schema shares: who acted (Actor), the agent a caller acts for, the
 * todo status and transition kinds, and the refusals any write on an existing todo can return.
 */
import type { Caller } from '../../core/caller.ts';
import { builder } from '../../graphql/builder.ts';
import { CallerKindEnum, ScopeGapRef } from '../../graphql/shared.ts';
import { UnknownAgentRef } from '../../registry/graphql/agents.ts';
import type { TodoStatus, TodoTransitionKind } from '../tables.ts';
import type { ClaimedByOther, IllegalTransition, UnknownTodo } from '../values.ts';

export const TodoStatusEnum = builder.enumType('TodoStatus', {
  description:
    'Where a todo is in its lifecycle. OPEN and DEFERRED are live (on the frontier); the other three are final. There is no delete.',
  values: {
    OPEN: { description: 'Live. Not the same as runnable: see `frontier`.' },
    DEFERRED: {
      description:
        'Deferred or blocked until its `resumeWhen` conditions hold; then it must be resumed (or superseded) after replanning.',
    },
    DONE: { description: 'Completed with evidence. Says nothing about the goal being done.' },
    SUPERSEDED: {
      description:
        'Replaced by `supersededBy`. Never counts as done: dependents wait for the replacement.',
    },
    CLOSED_NO_FOLLOW_UP: {
      description: 'Closed with a stated reason and no successor. Not done either.',
    },
  } satisfies Record<TodoStatus, unknown>,
});

export const TodoTransitionKindEnum = builder.enumType('TodoTransitionKind', {
  description: 'A governed write on a todo.',
  values: {
    CREATE: {
      description: 'createTodo, or a successor/replacement created by complete/supersede.',
    },
    SET_DEPENDENCIES: { description: 'setDependencies.' },
    CLAIM: { description: 'claimTodo.' },
    RELEASE_CLAIM: { description: 'releaseClaim.' },
    ACQUIRE_LEASE: { description: 'acquireLease.' },
    RENEW_LEASE: { description: 'renewLease.' },
    RELEASE_LEASE: { description: 'releaseLease.' },
    COMPLETE: { description: 'completeTodo.' },
    SUPERSEDE: { description: 'supersedeTodo.' },
    DEFER: { description: 'deferTodo.' },
    RESUME: { description: 'resumeTodo.' },
    CLOSE_NO_FOLLOW_UP: { description: 'closeNoFollowUp.' },
    HANDOFF: {
      description:
        'handoffTodo: the claim moved to the receiver (or was dropped for any qualified peer); the lease ended, never transferred.',
    },
  } satisfies Record<TodoTransitionKind, unknown>,
});

interface ActorValue {
  kind: Caller['kind'];
  agentId: string | null;
}

export const ActorRef = builder.objectRef<ActorValue>('Actor').implement({
  description: 'Who performed a write: the caller kind, and the agent it acted as.',
  fields: (t) => ({
    kind: t.expose('kind', { type: CallerKindEnum, description: 'Caller kind.' }),
    agentId: t.exposeID('agentId', {
      nullable: true,
      description: 'The acting agent; null when an ADMIN or STEWARD acted without naming one.',
    }),
  }),
});

export const AGENT_ID =
  'ADMIN/STEWARD: the active agent of the goal to act for (needed to claim, lease or set vision/capabilities). A PEER always acts as itself and may only name itself.';

export const UnknownTodoRef = builder.objectRef<UnknownTodo>('UnknownTodo').implement({
  description: 'No todo with this id in the goal. Nothing was written.',
  fields: (t) => ({
    goalId: t.exposeID('goalId', { description: 'The goal searched.' }),
    todoId: t.exposeID('todoId', { description: 'The id that matched nothing.' }),
  }),
});

const ClaimedByOtherRef = builder.objectRef<ClaimedByOther>('ClaimedByOther').implement({
  description:
    'Another agent claims the todo, and only it (or an ADMIN/STEWARD) may do this. Nothing was written.',
  fields: (t) => ({
    goalId: t.exposeID('goalId', { description: 'The goal.' }),
    todoId: t.exposeID('todoId', { description: 'The todo.' }),
    owner: t.exposeID('owner', { description: 'The agent that claims it.' }),
    claimedAt: t.expose('claimedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'Since when.',
    }),
  }),
});

export const IllegalTransitionRef = builder
  .objectRef<IllegalTransition>('IllegalTransition')
  .implement({
    description:
      'The todo is in a status this write cannot start from (final statuses are final). Nothing was written.',
    fields: (t) => ({
      goalId: t.exposeID('goalId', { description: 'The goal.' }),
      todoId: t.exposeID('todoId', { description: 'The todo.' }),
      from: t.expose('from', { type: TodoStatusEnum, description: 'Its status.' }),
      attempted: t.expose('attempted', {
        type: TodoTransitionKindEnum,
        description: 'The write that was refused.',
      }),
    }),
  });

export const refusals = [
  ScopeGapRef,
  UnknownAgentRef,
  UnknownTodoRef,
  ClaimedByOtherRef,
  IllegalTransitionRef,
] as const;
