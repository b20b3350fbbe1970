/** The Todo type, its listing and history, and the writes that create a todo or change its dependencies. */
import { builder } from '../../graphql/builder.ts';
import { listingRef, ScopeGapRef } from '../../graphql/shared.ts';
import { byType } from '../../graphql/values.ts';
import { UnknownAgentRef } from '../../registry/graphql/agents.ts';
import { DEFAULT_TODOS_LIMIT, listTodos, listTransitions, type TodoListing } from '../reads.ts';
import type { ContinuationPolicy, TaskClass, TodoTransitionRow } from '../tables.ts';
import { createTodo, setDependencies } from '../todos.ts';
import { leaseOf, type Todo } from '../values.ts';
import { LeaseRef } from './leases.ts';
import { ActorRef, AGENT_ID, refusals, TodoStatusEnum, TodoTransitionKindEnum } from './write.ts';

export const TaskClassEnum = builder.enumType('TaskClass', {
  description:
    'What kind of work a todo is. Always given explicitly by whoever creates it; never inferred from its title.',
  values: {
    ADVANCEMENT_TASK: {
      description: 'Agent work that advances the goal: implementation, docs, analysis, repair.',
    },
    USER_GATE: {
      description: 'A user/controller decision without which related work cannot legally go on.',
    },
    USER_ACTION: {
      description: 'Something a person should do; independent agent work need not stop for it.',
    },
    CONTINUOUS_MONITOR: {
      description: 'Observe an external condition on a cadence; advance only on material change.',
    },
    BLOCKER: {
      description: 'An executable condition is missing and needs a concrete recovery path.',
    },
  } satisfies Record<TaskClass, unknown>,
});

const ContinuationPolicyEnum = builder.enumType('ContinuationPolicy', {
  description: 'Who owns the work created to continue a todo (its successor or replacement).',
  values: {
    SAME_AGENT_NON_DELIVERY: {
      description: 'The same agent does a bounded follow-up: the new todo is claimed by it.',
    },
    INDEPENDENT_HANDOFF: {
      description: 'The new todo is left unclaimed for any qualified peer. The default.',
    },
  } satisfies Record<ContinuationPolicy, unknown>,
});

const ClaimRef = builder.objectRef<{ agentId: string; claimedAt: Date | null }>('Claim').implement({
  description:
    'A soft owner: the agent that plans to execute the todo. Not a lock, and no proof that it is alive or that the todo is runnable.',
  fields: (t) => ({
    agentId: t.exposeID('agentId', { description: 'The owner.' }),
    claimedAt: t.expose('claimedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When it claimed.',
    }),
  }),
});

export const TodoRef = builder.objectRef<Todo>('Todo').implement({
  description:
    'The smallest executable or waiting unit of a goal. Its lifecycle changes only through the governed mutations; it is never deleted.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Server-assigned id.' }),
    goalId: t.exposeID('goalId', { description: 'The goal it belongs to.' }),
    title: t.exposeString('title', {
      description: 'Human-readable; machines route on the typed fields, never on this.',
    }),
    taskClass: t.expose('taskClass', {
      type: TaskClassEnum,
      description: 'What kind of work it is, as declared.',
    }),
    status: t.expose('status', {
      type: TodoStatusEnum,
      description: 'Lifecycle status. OPEN does not mean runnable.',
    }),
    priority: t.exposeInt('priority', {
      description: '0-1000, higher first. Orders work; never bypasses a guard.',
    }),
    dependsOn: t.exposeIDList('dependsOn', {
      description:
        'Todos that must be done first. A superseded dependency is met when its replacement is done.',
    }),
    resumeWhen: t.exposeStringList('resumeWhen', {
      description:
        'Machine-readable conditions that must all hold: `todo_done:<todo id>`, `gate_resolved:<gate id>` (decided, or expired), `capacity_available:<capability>` (some active agent of the goal declares it), `pr_merged:git:<host>/<path>#<n>` (a merge of that pull request is recorded with recordExternalEvent; `pr_merged:#<n>` means its own taskRepository).',
    }),
    taskRepository: t.exposeString('taskRepository', {
      nullable: true,
      description:
        'The credential-free repository it writes to (`git:host/owner/repo`). Selects the repository for workspace and write-scope checks; grants no write authority.',
    }),
    requiredDecisionScopes: t.exposeStringList('requiredDecisionScopes', {
      description:
        'Decision scopes (`kind:granularity:scopeKey`) the todo needs; a gate covering one holds it back.',
    }),
    requiredCapability: t.exposeString('requiredCapability', {
      nullable: true,
      description: 'A capability the executing agent must have declared.',
    }),
    writeScope: t.exposeStringList('writeScope', {
      description:
        "Relative paths or globs it writes (`*`, `?` and `**` only). Checked against other agents' claimed todos of the same repository (the WRITE_SCOPE_CONFLICT guard); Switchboard does not see what is actually written.",
    }),
    continuationPolicy: t.expose('continuationPolicy', {
      type: ContinuationPolicyEnum,
      description: 'Who owns its successor or replacement.',
    }),
    successorOf: t.exposeID('successorOf', {
      nullable: true,
      description:
        'The todo this one continues: the completed todo it succeeds, or the superseded todo it replaces.',
    }),
    supersededBy: t.exposeID('supersededBy', {
      nullable: true,
      description: 'The todo that replaced this one (status SUPERSEDED).',
    }),
    evidenceRefs: t.exposeStringList('evidenceRefs', {
      description: 'Relative references to the evidence it was completed with.',
    }),
    deferReason: t.exposeString('deferReason', {
      nullable: true,
      description: 'Why it was last deferred.',
    }),
    supersedeReason: t.exposeString('supersedeReason', {
      nullable: true,
      description: 'Why it was superseded.',
    }),
    noFollowUpReason: t.exposeString('noFollowUpReason', {
      nullable: true,
      description: 'Why it was closed with no follow-up.',
    }),
    claim: t.field({
      type: ClaimRef,
      nullable: true,
      resolve: (todo) =>
        todo.claimedBy === null ? null : { agentId: todo.claimedBy, claimedAt: todo.claimedAt },
      description: 'Its soft owner, if any.',
    }),
    lease: t.field({
      type: LeaseRef,
      resolve: (todo) => leaseOf(todo),
      description: 'Its occupancy lease (state NONE when there is none).',
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was created.' }),
    createdBy: t.field({
      type: ActorRef,
      resolve: (todo) => ({ kind: todo.createdByKind, agentId: todo.createdByAgent }),
      description: 'Who created it.',
    }),
    updatedAt: t.expose('updatedAt', {
      type: 'DateTime',
      description: 'When its last transition happened.',
    }),
    updatedBy: t.field({
      type: ActorRef,
      resolve: (todo) => ({ kind: todo.updatedByKind, agentId: todo.updatedByAgent }),
      description: 'Who performed its last transition (for a final todo: who finished it).',
    }),
    closedAt: t.expose('closedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When it reached a final status.',
    }),
  }),
});

const TodoTransitionRef = builder.objectRef<TodoTransitionRow>('TodoTransition').implement({
  description: 'One governed write on a todo: append-only history.',
  fields: (t) => ({
    todoId: t.exposeID('todoId', { description: 'The todo.' }),
    seq: t.expose('seq', {
      type: 'Seq',
      description: 'The goal work sequence the write moved to.',
    }),
    kind: t.expose('kind', { type: TodoTransitionKindEnum, description: 'What.' }),
    fromStatus: t.expose('fromStatus', {
      type: TodoStatusEnum,
      nullable: true,
      description: 'Status before (null on CREATE).',
    }),
    toStatus: t.expose('toStatus', { type: TodoStatusEnum, description: 'After.' }),
    actor: t.field({
      type: ActorRef,
      resolve: (r) => ({ kind: r.actorKind, agentId: r.actorAgent }),
      description: 'Who.',
    }),
    at: t.expose('at', { type: 'DateTime', description: 'When.' }),
    detail: t.string({
      resolve: (r) => JSON.stringify(r.detail),
      description: 'What changed, as a JSON object (evidence refs, reasons, fences, lineage).',
    }),
  }),
});

export const TodoListingRef = listingRef<Todo, TodoListing>(
  'TodoListing',
  "A goal's todos, or a scope gap with no rows.",
  TodoRef,
  'Highest priority first, then oldest first.',
);
builder.objectFields(TodoListingRef, (t) => ({
  omittedRowCount: t.exposeInt('omittedRowCount', {
    description: 'Rows left out by `limit`: a non-zero value means this list is not complete.',
  }),
  seq: t.expose('seq', {
    type: 'Seq',
    description: "The goal's work sequence these rows reflect.",
  }),
  ledgerSeq: t.expose('ledgerSeq', {
    type: 'Seq',
    description:
      "The goal ledger's last seq in the same snapshot as these rows: follow goalLedgerEvents with `after: ledgerSeq` and no later change of the goal's work is missed.",
  }),
}));

const TodoTransitionListingRef = listingRef<TodoTransitionRow>(
  'TodoTransitionListing',
  "A todo's transitions, oldest first, or a scope gap with no rows.",
  TodoTransitionRef,
  'Oldest first; empty for a todo not in the goal.',
);

const CreateTodoResult = builder.unionType('CreateTodoResult', {
  description: 'The new todo, or why it was not created.',
  types: [TodoRef, ScopeGapRef, UnknownAgentRef],
  resolveType: byType,
});

export const TodoResult = builder.unionType('TodoResult', {
  description: 'The todo after the write (unchanged when there was nothing to do), or why not.',
  types: [TodoRef, ...refusals],
  resolveType: byType,
});

export const SPEC = {
  title: 'Up to 200 characters.',
  taskClass: 'Its class, given explicitly.',
  priority: '0-1000, higher first; default 0. Orders work; never bypasses a guard.',
  dependsOn: 'Existing todos of the goal, at most 50. A cycle is refused.',
  resumeWhen:
    'Conditions that must all hold: `todo_done:<todo id>`, `gate_resolved:<gate id>`, `capacity_available:<capability>`, `pr_merged:<owner/repo>#<n>` (GitHub) or `pr_merged:git:<host>/<path>#<n>`; a bare `pr_merged:#<n>` only with a taskRepository.',
  requiredDecisionScopes:
    '`kind:granularity:scopeKey`, e.g. `public_claim:action:bilingual_homepage`; at most 20.',
  requiredCapability: 'A capability the executing agent must declare.',
  taskRepository:
    'The repository it writes to, without credentials: `git:github.com/owner/repo` (an https or `git@host:` URL is accepted and stored in that form; a URL with credentials is refused). Selects the repository; grants no write authority.',
  writeScope:
    'Relative paths or globs it writes, e.g. `src/**`; at most 20. Globs are `*` (within a segment), `?` and `**` (any number of segments); a plain path also covers what lies beneath it. Brackets, braces, negation, backslashes and commas are refused; `./` and repeated slashes are dropped.',
  continuationPolicy: 'Who owns its successor or replacement; default INDEPENDENT_HANDOFF.',
};

export const TodoSpecInputRef = builder.inputType('TodoSpecInput', {
  description: 'A todo to create as a successor or a replacement (in the same goal).',
  fields: (t) => ({
    title: t.string({ required: true, description: SPEC.title }),
    taskClass: t.field({ type: TaskClassEnum, required: true, description: SPEC.taskClass }),
    priority: t.int({ description: SPEC.priority }),
    dependsOn: t.idList({ description: SPEC.dependsOn }),
    resumeWhen: t.stringList({ description: SPEC.resumeWhen }),
    requiredDecisionScopes: t.stringList({ description: SPEC.requiredDecisionScopes }),
    requiredCapability: t.string({ description: SPEC.requiredCapability }),
    taskRepository: t.string({ description: SPEC.taskRepository }),
    writeScope: t.stringList({ description: SPEC.writeScope }),
    continuationPolicy: t.field({
      type: ContinuationPolicyEnum,
      description: SPEC.continuationPolicy,
    }),
  }),
});

const CreateTodoInput = builder.inputType('CreateTodoInput', {
  description: 'A new todo in a goal.',
  fields: (t) => ({
    goalId: t.id({ required: true, description: 'The goal.' }),
    agentId: t.id({ description: AGENT_ID }),
    title: t.string({ required: true, description: SPEC.title }),
    taskClass: t.field({ type: TaskClassEnum, required: true, description: SPEC.taskClass }),
    priority: t.int({ description: SPEC.priority }),
    dependsOn: t.idList({ description: SPEC.dependsOn }),
    resumeWhen: t.stringList({ description: SPEC.resumeWhen }),
    requiredDecisionScopes: t.stringList({ description: SPEC.requiredDecisionScopes }),
    requiredCapability: t.string({ description: SPEC.requiredCapability }),
    taskRepository: t.string({ description: SPEC.taskRepository }),
    writeScope: t.stringList({ description: SPEC.writeScope }),
    continuationPolicy: t.field({
      type: ContinuationPolicyEnum,
      description: SPEC.continuationPolicy,
    }),
  }),
});

export const TodoActionInput = builder.inputType('TodoActionInput', {
  description: 'One todo, and (ADMIN/STEWARD) the agent to act for.',
  fields: (t) => ({
    goalId: t.id({ required: true, description: 'The goal.' }),
    todoId: t.id({ required: true, description: 'The todo.' }),
    agentId: t.id({ description: AGENT_ID }),
  }),
});

const SetDependenciesInput = builder.inputType('SetDependenciesInput', {
  description: "Replaces a live todo's dependencies (a replanning write).",
  fields: (t) => ({
    goalId: t.id({ required: true, description: 'The goal.' }),
    todoId: t.id({ required: true, description: 'The todo.' }),
    agentId: t.id({ description: AGENT_ID }),
    dependsOn: t.idList({ required: true, description: SPEC.dependsOn }),
  }),
});

builder.queryFields((t) => ({
  todos: t.withAuth({ reader: true }).field({
    type: TodoListingRef,
    description:
      "The goal's todos, highest priority first; a scope gap with no rows when out of scope.",
    args: {
      goalId: t.arg.id({ required: true, description: 'The goal.' }),
      statuses: t.arg({ type: [TodoStatusEnum], description: 'Only these statuses.' }),
      limit: t.arg.int({
        defaultValue: DEFAULT_TODOS_LIMIT,
        description: 'At most this many rows, 1-5000.',
      }),
    },
    resolve: (_root, args, { db, caller }) =>
      listTodos(db, caller, args.goalId, { statuses: args.statuses, limit: args.limit }),
  }),
  todoTransitions: t.withAuth({ reader: true }).field({
    type: TodoTransitionListingRef,
    description: "A todo's append-only history: who did what, when.",
    args: {
      goalId: t.arg.id({ required: true, description: 'The goal.' }),
      todoId: t.arg.id({ required: true, description: 'The todo.' }),
    },
    resolve: (_root, args, { db, caller }) => listTransitions(db, caller, args.goalId, args.todoId),
  }),
}));

builder.mutationFields((t) => ({
  createTodo: t.withAuth({ reader: true }).field({
    type: CreateTodoResult,
    description:
      'Creates a todo. Unknown ids and malformed scopes or conditions are BAD_USER_INPUT.',
    args: {
      input: t.arg({
        type: CreateTodoInput,
        required: true,
        description: 'The write, validated in full before anything is written.',
      }),
    },
    resolve: (_root, { input }, { db, caller }) => createTodo(db, caller, input),
  }),
  setDependencies: t.withAuth({ reader: true }).field({
    type: TodoResult,
    description:
      "Replaces a live todo's dependencies. A cycle or an unknown id is BAD_USER_INPUT. Claimant, anyone while unclaimed, or ADMIN/STEWARD.",
    args: {
      input: t.arg({
        type: SetDependenciesInput,
        required: true,
        description: 'The write, validated in full before anything is written.',
      }),
    },
    resolve: (_root, { input }, { db, caller }) => setDependencies(db, caller, input),
  }),
}));
