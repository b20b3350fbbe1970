import type { Caller } from '../core/caller.ts';
import type { Listing } from '../core/results.ts';
import { builder } from '../graphql/builder.ts';
import { CallerKindEnum, ScopeGapRef } from '../graphql/shared.ts';
import { byType } from '../graphql/values.ts';
import { UnknownAgentRef } from '../registry/graphql.ts';
import { claimTodo, releaseClaim } from './claims.ts';
import { type Frontier, type FrontierTodo, frontier } from './frontier.ts';
import { openGate, resolveGate } from './gates.ts';
import { acquireLease, releaseLease, renewLease } from './leases.ts';
import {
  type CompletedTodo,
  closeNoFollowUp,
  completeTodo,
  deferTodo,
  resumeTodo,
  type SupersededTodo,
  supersedeTodo,
} from './lifecycle.ts';
import { listGates, listTodos, listTransitions, listVisions, type TodoListing } from './reads.ts';
import type { FrontierGuard, FrontierGuardKind, FrontierRow } from './rules.ts';
import type { TodoSpecInput } from './spec.ts';
import type {
  AgentCapabilities,
  ContinuationPolicy,
  GateDecision,
  GateGranularity,
  GateKind,
  TaskClass,
  TodoStatus,
  TodoTransitionKind,
  TodoTransitionRow,
  Vision,
} from './tables.ts';
import { createTodo, setDependencies } from './todos.ts';
import {
  type ClaimedByOther,
  type Gate,
  type GateNotOpen,
  type GateState,
  type IllegalTransition,
  type Lease,
  type LeaseHeld,
  type LeaseState,
  leaseOf,
  type StaleFence,
  type Todo,
  type UnknownGate,
  type UnknownTodo,
} from './values.ts';
import { setCapabilities, setVision } from './visions.ts';

// ---- enums ---------------------------------------------------------------------------

const TaskClassEnum = builder.enumType('TaskClass', {
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

const TodoStatusEnum = builder.enumType('TodoStatus', {
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

const GateKindEnum = builder.enumType('GateKind', {
  description: 'What kind of authority a gate asks for (the first part of a decision scope).',
  values: {
    PRIVATE_READ: { description: 'Reading private material.' },
    WRITE_SCOPE: { description: 'Writing outside the agreed write scope.' },
    RESOURCE: { description: 'Spending a resource (money, quota, hardware).' },
    PRODUCTION: { description: 'Touching production.' },
    PUBLIC_CLAIM: { description: 'Saying something in public (publishing, announcing).' },
    DIRECTION: { description: 'Choosing the direction of the work.' },
  } satisfies Record<GateKind, unknown>,
});

const GateGranularityEnum = builder.enumType('GateGranularity', {
  description:
    'How much a decision scope spans, narrowest first. A gate covers a required scope of its kind when: ACTION — the same ACTION key; LANE — the same LANE key, or an ACTION key inside the lane (`<lane>/…`); GOAL, PROJECT, GLOBAL — every scope of the kind in the goal (a gate never reaches another goal). A narrower gate never covers a broader requirement.',
  values: {
    ACTION: { description: 'One operation, named by its key.' },
    LANE: { description: 'A stream of work; its actions have keys `<lane>/<action>`.' },
    GOAL: { description: 'Everything of this kind in the goal.' },
    PROJECT: { description: 'Asked project-wide; within Switchboard it covers the goal.' },
    GLOBAL: { description: 'Asked globally; within Switchboard it covers the goal.' },
  } satisfies Record<GateGranularity, unknown>,
});

const GateDecisionEnum = builder.enumType('GateDecision', {
  description: 'The decision on a gate.',
  values: {
    GRANTED: { description: 'Authorized: the gate covers nothing any more.' },
    DENIED: {
      description:
        'Refused: the gate keeps covering its scope (until it expires); covered work must be superseded or closed.',
    },
  } satisfies Record<GateDecision, unknown>,
});

const GateStateEnum = builder.enumType('GateState', {
  description: 'A gate now, computed from its decision and expiry at read time.',
  values: {
    OPEN: { description: 'Waiting for a decision; covers its scope.' },
    GRANTED: { description: 'Granted; covers nothing.' },
    DENIED: { description: 'Denied; still covers its scope.' },
    EXPIRED: { description: 'Past `expiresAt`: covers nothing, whatever the decision.' },
  } satisfies Record<GateState, unknown>,
});

export const LeaseStateEnum = builder.enumType('LeaseState', {
  description: 'A lease now, computed from its expiry at read time (no background job).',
  values: {
    ACTIVE: { description: 'Held and not expired.' },
    EXPIRED: {
      description:
        'Past its expiry: anyone may acquire a new one (a takeover); its holder may still renew while nobody has.',
    },
    NONE: {
      description: 'No lease: never taken, released, or cleared when the todo left the frontier.',
    },
  } satisfies Record<LeaseState, unknown>,
});

const TodoTransitionKindEnum = builder.enumType('TodoTransitionKind', {
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
  } satisfies Record<TodoTransitionKind, unknown>,
});

const FrontierGuardKindEnum = builder.enumType('FrontierGuardKind', {
  description:
    'Why a live todo is not runnable for an agent. Guards are listed in this order, which is the order they are checked.',
  values: {
    DEPENDENCY: {
      description:
        'A todo in `dependsOn` is not done (following supersede lineage to its replacement).',
    },
    RESUME_CONDITION: { description: 'A `resumeWhen` condition does not hold yet.' },
    DECISION_SCOPE: {
      description:
        'An open (or denied) gate covers a decision scope the todo requires. Priority never bypasses it; a claim or a lease does not either.',
    },
    CLAIMED_BY_OTHER: { description: 'Another agent claims it (the owner is named).' },
    CAPABILITY: {
      description: 'The agent has not declared the capability the todo requires.',
    },
    LEASE_HELD: { description: 'Another agent holds an active lease on it.' },
    STALE: {
      description:
        'Deferred and its resume condition now holds: it may be out of date; replan, then resume or supersede it.',
    },
  } satisfies Record<FrontierGuardKind, unknown>,
});

// ---- objects -------------------------------------------------------------------------

interface ActorValue {
  kind: Caller['kind'];
  agentId: string | null;
}

export const ActorRef = builder.objectRef<ActorValue>('Actor').implement({
  description: 'Who performed a write: the caller kind, and the agent it acted as.',
  fields: (t) => ({
    kind: t.field({ type: CallerKindEnum, resolve: (a) => a.kind, description: 'Caller kind.' }),
    agentId: t.exposeID('agentId', {
      nullable: true,
      description: 'The acting agent; null when an ADMIN or STEWARD acted without naming one.',
    }),
  }),
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

const LeaseRef = builder.objectRef<Lease>('Lease').implement({
  description:
    'Optional occupancy of a todo, with a time limit and a fence token for compare-and-set. Grants no authority and does not replace the claim.',
  fields: (t) => ({
    goalId: t.exposeID('goalId', { description: 'The goal.' }),
    todoId: t.exposeID('todoId', { description: 'The todo.' }),
    state: t.field({ type: LeaseStateEnum, resolve: (l) => l.state, description: 'Now.' }),
    holder: t.exposeID('holder', {
      nullable: true,
      description: 'The agent holding (or, when EXPIRED, last holding) it; null when NONE.',
    }),
    fence: t.exposeString('fence', {
      description:
        'The fence token of the current (or last) lease, a decimal string; each acquire takes a larger one. Pass it to renewLease and releaseLease.',
    }),
    expiresAt: t.expose('expiresAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When it expires (or expired); null when NONE.',
    }),
  }),
});

const TodoRef = builder.objectRef<Todo>('Todo').implement({
  description:
    'The smallest executable or waiting unit of a goal. Its lifecycle changes only through the governed mutations; it is never deleted.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Server-assigned id.' }),
    goalId: t.exposeID('goalId', { description: 'The goal it belongs to.' }),
    title: t.exposeString('title', {
      description: 'Human-readable; machines route on the typed fields, never on this.',
    }),
    taskClass: t.field({
      type: TaskClassEnum,
      resolve: (todo) => todo.taskClass,
      description: 'What kind of work it is, as declared.',
    }),
    status: t.field({
      type: TodoStatusEnum,
      resolve: (todo) => todo.status,
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
        'Machine-readable conditions that must all hold: `todo_done:<todo id>`, `gate_resolved:<gate id>` (decided, or expired), `capacity_available:<capability>` (some active agent of the goal declares it).',
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
        'Relative paths or globs it may write. Recorded for agents and reviewers; Switchboard cannot see workspaces and does not check it.',
    }),
    continuationPolicy: t.field({
      type: ContinuationPolicyEnum,
      resolve: (todo) => todo.continuationPolicy,
      description: 'Who owns its successor or replacement.',
    }),
    successorOf: t.exposeID('successorOf', {
      nullable: true,
      description: 'The completed todo this one continues.',
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
    seq: t.field({
      type: 'Seq',
      resolve: (r) => r.seq,
      description: 'The goal work sequence the write moved to.',
    }),
    kind: t.field({ type: TodoTransitionKindEnum, resolve: (r) => r.kind, description: 'What.' }),
    fromStatus: t.field({
      type: TodoStatusEnum,
      nullable: true,
      resolve: (r) => r.fromStatus,
      description: 'Status before (null on CREATE).',
    }),
    toStatus: t.field({ type: TodoStatusEnum, resolve: (r) => r.toStatus, description: 'After.' }),
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

const GateRef = builder.objectRef<Gate>('Gate').implement({
  description:
    'Scoped authority: a user/controller decision a todo may need. It holds back only the todos requiring a scope it covers (see GateGranularity); it never freezes the goal.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'Server-assigned id; `gate_resolved:<id>` names it.' }),
    goalId: t.exposeID('goalId', { description: 'The goal.' }),
    kind: t.field({ type: GateKindEnum, resolve: (g) => g.kind, description: 'Kind.' }),
    granularity: t.field({
      type: GateGranularityEnum,
      resolve: (g) => g.granularity,
      description: 'How much it spans.',
    }),
    scopeKey: t.exposeString('scopeKey', { description: 'The public-safe key of what it covers.' }),
    scope: t.string({
      resolve: (g) => `${g.kind.toLowerCase()}:${g.granularity.toLowerCase()}:${g.scopeKey}`,
      description: 'Its decision scope, `kind:granularity:scopeKey`, as todos write it.',
    }),
    reason: t.exposeString('reason', { description: 'The question asked.' }),
    state: t.field({ type: GateStateEnum, resolve: (g) => g.state, description: 'Now.' }),
    decision: t.field({
      type: GateDecisionEnum,
      nullable: true,
      resolve: (g) => g.decision,
      description: 'The decision; null while pending.',
    }),
    decisionNote: t.exposeString('decisionNote', {
      nullable: true,
      description: 'What the decider said.',
    }),
    expiresAt: t.expose('expiresAt', {
      type: 'DateTime',
      nullable: true,
      description: 'After this it covers nothing.',
    }),
    openedAt: t.expose('openedAt', { type: 'DateTime', description: 'When it was opened.' }),
    openedBy: t.field({
      type: ActorRef,
      resolve: (g) => ({ kind: g.openedByKind, agentId: g.openedByAgent }),
      description: 'Who opened it.',
    }),
    resolvedAt: t.expose('resolvedAt', {
      type: 'DateTime',
      nullable: true,
      description: 'When it was decided.',
    }),
    resolvedBy: t.field({
      type: ActorRef,
      nullable: true,
      resolve: (g) =>
        g.resolvedByKind ? { kind: g.resolvedByKind, agentId: g.resolvedByAgent } : null,
      description: 'Who decided it.',
    }),
  }),
});

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

const FrontierGuardRef = builder.objectRef<FrontierGuard>('FrontierGuard').implement({
  description: 'One reason a todo is held back, naming what holds it.',
  fields: (t) => ({
    kind: t.field({
      type: FrontierGuardKindEnum,
      resolve: (g) => g.kind,
      description: 'Which guard.',
    }),
    detail: t.exposeString('detail', { description: 'A sentence for people.' }),
    todoId: t.id({
      nullable: true,
      resolve: (g) => g.todoId ?? null,
      description:
        'DEPENDENCY, RESUME_CONDITION on todo_done: the todo that must be done (the end of a supersede chain).',
    }),
    todoStatus: t.field({
      type: TodoStatusEnum,
      nullable: true,
      resolve: (g) => g.todoStatus ?? null,
      description: "That todo's status.",
    }),
    gateId: t.id({
      nullable: true,
      resolve: (g) => g.gateId ?? null,
      description: 'DECISION_SCOPE, RESUME_CONDITION on gate_resolved: the gate.',
    }),
    scope: t.string({
      nullable: true,
      resolve: (g) => g.scope ?? null,
      description: 'DECISION_SCOPE: the required scope the gate covers.',
    }),
    agentId: t.id({
      nullable: true,
      resolve: (g) => g.agentId ?? null,
      description: 'CLAIMED_BY_OTHER: the owner; LEASE_HELD: the holder.',
    }),
    capability: t.string({
      nullable: true,
      resolve: (g) => g.capability ?? null,
      description: 'CAPABILITY, RESUME_CONDITION on capacity_available: the capability.',
    }),
    condition: t.string({
      nullable: true,
      resolve: (g) => g.condition ?? null,
      description: 'RESUME_CONDITION: the condition as written.',
    }),
  }),
});

const FrontierTodoRef = builder.objectRef<FrontierTodo>('FrontierTodo').implement({
  description:
    'The routing fields of a live todo, as the frontier read them. Read `todos` for the rest (write scope, lineage, actors, times).',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The todo id.' }),
    title: t.exposeString('title', { description: 'Human-readable; never routed on.' }),
    taskClass: t.field({
      type: TaskClassEnum,
      resolve: (todo) => todo.taskClass,
      description: 'Its class, as declared.',
    }),
    status: t.field({
      type: TodoStatusEnum,
      resolve: (todo) => todo.status,
      description: 'OPEN or DEFERRED.',
    }),
    priority: t.exposeInt('priority', { description: 'Orders rows; never bypasses a guard.' }),
    dependsOn: t.exposeIDList('dependsOn', { description: 'Its dependencies.' }),
    resumeWhen: t.exposeStringList('resumeWhen', { description: 'Its resume conditions.' }),
    requiredDecisionScopes: t.exposeStringList('requiredDecisionScopes', {
      description: 'The decision scopes it needs.',
    }),
    requiredCapability: t.exposeString('requiredCapability', {
      nullable: true,
      description: 'The capability it needs.',
    }),
    claimedBy: t.exposeID('claimedBy', {
      nullable: true,
      description: 'Its soft owner, if any.',
    }),
    lease: t.field({
      type: LeaseRef,
      resolve: (todo) => leaseOf(todo),
      description: 'Its occupancy lease (state NONE when there is none).',
    }),
  }),
});

const FrontierRowRef = builder.objectRef<FrontierRow<FrontierTodo>>('FrontierRow').implement({
  description: 'A live todo and whether the agent may run it now.',
  fields: (t) => ({
    todo: t.field({ type: FrontierTodoRef, resolve: (r) => r.todo, description: 'The todo.' }),
    runnable: t.exposeBoolean('runnable', {
      description: 'True only when no guard holds it back. Not a claim, not an assignment.',
    }),
    guards: t.field({
      type: [FrontierGuardRef],
      resolve: (r) => r.guards,
      description: 'Every guard holding it back, in guard order; empty when runnable.',
    }),
  }),
});

const FrontierRef = builder.objectRef<Frontier>('Frontier').implement({
  description:
    "The goal's live work as one agent sees it: every OPEN or DEFERRED todo with `runnable` and its guards (dependency and resume → decision scope → claim → capability → lease → freshness). Read from one snapshot; it assigns nothing.",
  fields: (t) => ({
    goalId: t.exposeID('goalId', { description: 'The goal.' }),
    agentId: t.exposeID('agentId', { description: 'The agent it was computed for.' }),
    seq: t.field({
      type: 'Seq',
      resolve: (f) => f.seq,
      description: "The goal's work sequence it reflects; any work write moves it.",
    }),
    capabilities: t.exposeStringList('capabilities', {
      description: "The agent's declared capabilities.",
    }),
    runnableCount: t.int({
      resolve: (f) => f.rows.filter((r) => r.runnable).length,
      description: 'How many rows are runnable.',
    }),
    rows: t.field({
      type: [FrontierRowRef],
      resolve: (f) => f.rows,
      description: 'Runnable rows first, then by priority (highest first), then oldest first.',
    }),
  }),
});

const listingFields = {
  goalId: 'The goal asked about.',
  scopeGap: "Set when the goal is not in the caller's scope; rows is then empty.",
};

const TodoListingRef = builder.objectRef<TodoListing>('TodoListing').implement({
  description: "A goal's todos, or a scope gap with no rows.",
  fields: (t) => ({
    goalId: t.exposeID('goalId', { description: listingFields.goalId }),
    rows: t.field({
      type: [TodoRef],
      resolve: (l) => l.rows,
      description: 'Highest priority first, then oldest first.',
    }),
    omittedRowCount: t.exposeInt('omittedRowCount', {
      description: 'Rows left out by `limit`: a non-zero value means this list is not complete.',
    }),
    seq: t.field({
      type: 'Seq',
      resolve: (l) => l.seq,
      description: "The goal's work sequence these rows reflect.",
    }),
    scopeGap: t.field({
      type: ScopeGapRef,
      nullable: true,
      resolve: (l) => l.scopeGap,
      description: listingFields.scopeGap,
    }),
  }),
});

const GateListingRef = builder.objectRef<Listing<Gate>>('GateListing').implement({
  description: "A goal's gates, newest first, or a scope gap with no rows.",
  fields: (t) => ({
    goalId: t.exposeID('goalId', { description: listingFields.goalId }),
    rows: t.field({ type: [GateRef], resolve: (l) => l.rows, description: 'Newest first.' }),
    scopeGap: t.field({
      type: ScopeGapRef,
      nullable: true,
      resolve: (l) => l.scopeGap,
      description: listingFields.scopeGap,
    }),
  }),
});

const VisionListingRef = builder.objectRef<Listing<Vision>>('VisionListing').implement({
  description: "Every agent's vision in a goal, or a scope gap with no rows.",
  fields: (t) => ({
    goalId: t.exposeID('goalId', { description: listingFields.goalId }),
    rows: t.field({ type: [VisionRef], resolve: (l) => l.rows, description: 'By agent id.' }),
    scopeGap: t.field({
      type: ScopeGapRef,
      nullable: true,
      resolve: (l) => l.scopeGap,
      description: listingFields.scopeGap,
    }),
  }),
});

const TodoTransitionListingRef = builder
  .objectRef<Listing<TodoTransitionRow>>('TodoTransitionListing')
  .implement({
    description: "A todo's transitions, oldest first, or a scope gap with no rows.",
    fields: (t) => ({
      goalId: t.exposeID('goalId', { description: listingFields.goalId }),
      rows: t.field({
        type: [TodoTransitionRef],
        resolve: (l) => l.rows,
        description: 'Oldest first; empty for a todo not in the goal.',
      }),
      scopeGap: t.field({
        type: ScopeGapRef,
        nullable: true,
        resolve: (l) => l.scopeGap,
        description: listingFields.scopeGap,
      }),
    }),
  });

// ---- results -------------------------------------------------------------------------

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

const IllegalTransitionRef = builder.objectRef<IllegalTransition>('IllegalTransition').implement({
  description:
    'The todo is in a status this write cannot start from (final statuses are final). Nothing was written.',
  fields: (t) => ({
    goalId: t.exposeID('goalId', { description: 'The goal.' }),
    todoId: t.exposeID('todoId', { description: 'The todo.' }),
    from: t.field({ type: TodoStatusEnum, resolve: (r) => r.from, description: 'Its status.' }),
    attempted: t.field({
      type: TodoTransitionKindEnum,
      resolve: (r) => r.attempted,
      description: 'The write that was refused.',
    }),
  }),
});

const LeaseHeldRef = builder.objectRef<LeaseHeld>('LeaseHeld').implement({
  description:
    'An active lease exists (perhaps your own: renew it with its fence instead). Nothing was written.',
  fields: (t) => ({
    goalId: t.exposeID('goalId', { description: 'The goal.' }),
    todoId: t.exposeID('todoId', { description: 'The todo.' }),
    lease: t.field({
      type: LeaseRef,
      resolve: (r) => r.lease,
      description: 'The active lease: its holder and when it expires unless renewed.',
    }),
  }),
});

const StaleFenceRef = builder.objectRef<StaleFence>('StaleFence').implement({
  description:
    'The fence presented is not the current lease of the caller (it was taken over after expiry, released, or belongs to another agent). Nothing was written.',
  fields: (t) => ({
    goalId: t.exposeID('goalId', { description: 'The goal.' }),
    todoId: t.exposeID('todoId', { description: 'The todo.' }),
    fence: t.exposeString('fence', { description: 'The fence presented.' }),
    lease: t.field({ type: LeaseRef, resolve: (s) => s.lease, description: 'The lease as it is.' }),
  }),
});

const UnknownGateRef = builder.objectRef<UnknownGate>('UnknownGate').implement({
  description: 'No gate with this id in the goal. Nothing was written.',
  fields: (t) => ({
    goalId: t.exposeID('goalId', { description: 'The goal searched.' }),
    gateId: t.exposeID('gateId', { description: 'The id that matched nothing.' }),
  }),
});

const GateNotOpenRef = builder.objectRef<GateNotOpen>('GateNotOpen').implement({
  description: 'The gate was decided already; a decision is not changed. Nothing was written.',
  fields: (t) => ({
    gate: t.field({ type: GateRef, resolve: (r) => r.gate, description: 'The gate as it is.' }),
  }),
});

const CompletedTodoRef = builder.objectRef<CompletedTodo>('CompletedTodo').implement({
  description: 'The todo is DONE; its successor, if one was given, was created with it.',
  fields: (t) => ({
    todo: t.field({ type: TodoRef, resolve: (r) => r.todo, description: 'The completed todo.' }),
    successor: t.field({
      type: TodoRef,
      nullable: true,
      resolve: (r) => r.successor,
      description: 'The successor (`successorOf` = the completed todo).',
    }),
  }),
});

const SupersededTodoRef = builder.objectRef<SupersededTodo>('SupersededTodo').implement({
  description: 'The todo is SUPERSEDED (not done); `replacement` takes over.',
  fields: (t) => ({
    todo: t.field({ type: TodoRef, resolve: (r) => r.todo, description: 'The superseded todo.' }),
    replacement: t.field({
      type: TodoRef,
      resolve: (r) => r.replacement,
      description: 'The todo that replaces it.',
    }),
  }),
});

const refusals = [
  ScopeGapRef,
  UnknownAgentRef,
  UnknownTodoRef,
  ClaimedByOtherRef,
  IllegalTransitionRef,
] as const;

const CreateTodoResult = builder.unionType('CreateTodoResult', {
  description: 'The new todo, or why it was not created.',
  types: [TodoRef, ScopeGapRef, UnknownAgentRef],
  resolveType: byType,
});
const TodoResult = builder.unionType('TodoResult', {
  description: 'The todo after the write (unchanged when there was nothing to do), or why not.',
  types: [TodoRef, ...refusals],
  resolveType: byType,
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
const AcquireLeaseResult = builder.unionType('AcquireLeaseResult', {
  description: 'The new lease with its fence, or why not.',
  types: [LeaseRef, LeaseHeldRef, ...refusals],
  resolveType: byType,
});
const LeaseResult = builder.unionType('LeaseResult', {
  description: 'The lease after a compare-and-set on its fence, or why not.',
  types: [
    LeaseRef,
    StaleFenceRef,
    ScopeGapRef,
    UnknownAgentRef,
    UnknownTodoRef,
    IllegalTransitionRef,
  ],
  resolveType: byType,
});
const OpenGateResult = builder.unionType('OpenGateResult', {
  description: 'The new gate, or why not.',
  types: [GateRef, ScopeGapRef, UnknownAgentRef],
  resolveType: byType,
});
const ResolveGateResult = builder.unionType('ResolveGateResult', {
  description: 'The decided gate, or why not.',
  types: [GateRef, ScopeGapRef, UnknownGateRef, GateNotOpenRef],
  resolveType: byType,
});
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
const FrontierResult = builder.unionType('FrontierResult', {
  description: 'The frontier, or why it cannot be computed.',
  types: [FrontierRef, ScopeGapRef, UnknownAgentRef],
  resolveType: byType,
});

// ---- inputs --------------------------------------------------------------------------

const AGENT_ID =
  'ADMIN/STEWARD: the active agent of the goal to act for (needed to claim, lease or set vision/capabilities). A PEER always acts as itself and may only name itself.';
const SPEC = {
  title: 'Up to 200 characters.',
  taskClass: 'Its class, given explicitly.',
  priority: '0-1000, higher first; default 0. Orders work; never bypasses a guard.',
  dependsOn: 'Existing todos of the goal, at most 50. A cycle is refused.',
  resumeWhen:
    'Conditions that must all hold: `todo_done:<todo id>`, `gate_resolved:<gate id>`, `capacity_available:<capability>`.',
  requiredDecisionScopes:
    '`kind:granularity:scopeKey`, e.g. `public_claim:action:bilingual_homepage`; at most 20.',
  requiredCapability: 'A capability the executing agent must declare.',
  writeScope: 'Relative paths or globs, e.g. `src/**`; at most 20.',
  continuationPolicy: 'Who owns its successor or replacement; default INDEPENDENT_HANDOFF.',
};

const TodoSpecInputRef = builder.inputType('TodoSpecInput', {
  description: 'A todo to create as a successor or a replacement (in the same goal).',
  fields: (t) => ({
    title: t.string({ required: true, description: SPEC.title }),
    taskClass: t.field({ type: TaskClassEnum, required: true, description: SPEC.taskClass }),
    priority: t.int({ description: SPEC.priority }),
    dependsOn: t.idList({ description: SPEC.dependsOn }),
    resumeWhen: t.stringList({ description: SPEC.resumeWhen }),
    requiredDecisionScopes: t.stringList({ description: SPEC.requiredDecisionScopes }),
    requiredCapability: t.string({ description: SPEC.requiredCapability }),
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
    writeScope: t.stringList({ description: SPEC.writeScope }),
    continuationPolicy: t.field({
      type: ContinuationPolicyEnum,
      description: SPEC.continuationPolicy,
    }),
  }),
});

const TodoActionInput = builder.inputType('TodoActionInput', {
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

const AcquireLeaseInput = builder.inputType('AcquireLeaseInput', {
  description: 'Takes the occupancy lease of a todo.',
  fields: (t) => ({
    goalId: t.id({ required: true, description: 'The goal.' }),
    todoId: t.id({ required: true, description: 'The todo.' }),
    agentId: t.id({ description: AGENT_ID }),
    ttlMs: t.int({ required: true, description: 'Time to live, 1 ms to 24 h.' }),
  }),
});

const RenewLeaseInput = builder.inputType('RenewLeaseInput', {
  description: 'Extends a lease: compare-and-set on its fence.',
  fields: (t) => ({
    goalId: t.id({ required: true, description: 'The goal.' }),
    todoId: t.id({ required: true, description: 'The todo.' }),
    agentId: t.id({ description: AGENT_ID }),
    fence: t.string({ required: true, description: 'The fence acquireLease returned.' }),
    ttlMs: t.int({ required: true, description: 'New time to live from now, 1 ms to 24 h.' }),
  }),
});

const ReleaseLeaseInput = builder.inputType('ReleaseLeaseInput', {
  description: 'Ends a lease: compare-and-set on its fence.',
  fields: (t) => ({
    goalId: t.id({ required: true, description: 'The goal.' }),
    todoId: t.id({ required: true, description: 'The todo.' }),
    agentId: t.id({ description: AGENT_ID }),
    fence: t.string({ required: true, description: 'The fence acquireLease returned.' }),
  }),
});

const OpenGateInput = builder.inputType('OpenGateInput', {
  description: 'A decision a user or controller must make.',
  fields: (t) => ({
    goalId: t.id({ required: true, description: 'The goal.' }),
    agentId: t.id({ description: AGENT_ID }),
    kind: t.field({ type: GateKindEnum, required: true, description: 'Kind of authority.' }),
    granularity: t.field({
      type: GateGranularityEnum,
      required: true,
      description: 'How much it spans.',
    }),
    scopeKey: t.string({
      required: true,
      description:
        "Public-safe key: letters, digits, '.', '_', '-', '/' (lane/action), up to 100 characters.",
    }),
    reason: t.string({ required: true, description: 'The question, up to 500 characters.' }),
    expiresAt: t.field({
      type: 'DateTime',
      description: 'In the future; after it the gate covers nothing.',
    }),
  }),
});

const ResolveGateInput = builder.inputType('ResolveGateInput', {
  description: 'The decision on a gate.',
  fields: (t) => ({
    goalId: t.id({ required: true, description: 'The goal.' }),
    gateId: t.id({ required: true, description: 'The gate.' }),
    decision: t.field({ type: GateDecisionEnum, required: true, description: 'The decision.' }),
    note: t.string({ description: 'What the decider says, up to 500 characters.' }),
  }),
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

// ---- fields --------------------------------------------------------------------------

const str = (value: string | number) => String(value);
const optStr = (value: string | number | null | undefined) =>
  value === null || value === undefined ? null : String(value);

function spec(input: {
  title: string;
  taskClass: TaskClass;
  priority?: number | null;
  dependsOn?: readonly (string | number)[] | null;
  resumeWhen?: readonly string[] | null;
  requiredDecisionScopes?: readonly string[] | null;
  requiredCapability?: string | null;
  writeScope?: readonly string[] | null;
  continuationPolicy?: ContinuationPolicy | null;
}): TodoSpecInput {
  return { ...input, dependsOn: input.dependsOn?.map(str) ?? null };
}

const action = (input: {
  goalId: string | number;
  todoId: string | number;
  agentId?: string | number | null;
}) => ({
  goalId: str(input.goalId),
  todoId: str(input.todoId),
  agentId: optStr(input.agentId),
});

builder.queryFields((t) => ({
  todos: t.withAuth({ reader: true }).field({
    type: TodoListingRef,
    description:
      "The goal's todos, highest priority first; a scope gap with no rows when out of scope.",
    args: {
      goalId: t.arg.id({ required: true, description: 'The goal.' }),
      statuses: t.arg({ type: [TodoStatusEnum], description: 'Only these statuses.' }),
      limit: t.arg.int({ defaultValue: 200, description: 'At most this many rows, 1-5000.' }),
    },
    resolve: (_root, args, { db, caller }) =>
      listTodos(db, caller, str(args.goalId), { statuses: args.statuses, limit: args.limit }),
  }),
  todoTransitions: t.withAuth({ reader: true }).field({
    type: TodoTransitionListingRef,
    description: "A todo's append-only history: who did what, when.",
    args: {
      goalId: t.arg.id({ required: true, description: 'The goal.' }),
      todoId: t.arg.id({ required: true, description: 'The todo.' }),
    },
    resolve: (_root, args, { db, caller }) =>
      listTransitions(db, caller, str(args.goalId), str(args.todoId)),
  }),
  gates: t.withAuth({ reader: true }).field({
    type: GateListingRef,
    description: "The goal's gates, each with its state now.",
    args: { goalId: t.arg.id({ required: true, description: 'The goal.' }) },
    resolve: (_root, args, { db, caller }) => listGates(db, caller, str(args.goalId)),
  }),
  visions: t.withAuth({ reader: true }).field({
    type: VisionListingRef,
    description: "Every agent's vision in the goal.",
    args: { goalId: t.arg.id({ required: true, description: 'The goal.' }) },
    resolve: (_root, args, { db, caller }) => listVisions(db, caller, str(args.goalId)),
  }),
  frontier: t.withAuth({ reader: true }).field({
    type: FrontierResult,
    description:
      'Every live todo of the goal with `runnable` and the guards holding it back for one agent. Open is not runnable; priority never bypasses a gate; a claim does not prove the work is executable. Computed in a constant number of SQL statements.',
    args: {
      goalId: t.arg.id({ required: true, description: 'The goal.' }),
      agentId: t.arg.id({
        description:
          'The active agent to compute it for; a PEER may omit it for itself. Reading it grants nothing.',
      }),
    },
    resolve: (_root, args, { db, caller }) =>
      frontier(db, caller, str(args.goalId), optStr(args.agentId)),
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
    resolve: (_root, { input }, { db, caller }) =>
      createTodo(db, caller, {
        ...spec(input),
        goalId: str(input.goalId),
        agentId: optStr(input.agentId),
      }),
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
    resolve: (_root, { input }, { db, caller }) =>
      setDependencies(db, caller, {
        ...action(input),
        dependsOn: input.dependsOn.map(str),
      }),
  }),
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
    resolve: (_root, { input }, { db, caller }) => claimTodo(db, caller, action(input)),
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
    resolve: (_root, { input }, { db, caller }) => releaseClaim(db, caller, action(input)),
  }),
  acquireLease: t.withAuth({ reader: true }).field({
    type: AcquireLeaseResult,
    description:
      'Takes the occupancy lease and returns a new fence, unless an active lease exists. An expired lease is taken over.',
    args: {
      input: t.arg({
        type: AcquireLeaseInput,
        required: true,
        description: 'The write, validated in full before anything is written.',
      }),
    },
    resolve: (_root, { input }, { db, caller }) =>
      acquireLease(db, caller, { ...action(input), ttlMs: input.ttlMs }),
  }),
  renewLease: t.withAuth({ reader: true }).field({
    type: LeaseResult,
    description: 'Extends the lease if the fence is current and yours; otherwise StaleFence.',
    args: {
      input: t.arg({
        type: RenewLeaseInput,
        required: true,
        description: 'The write, validated in full before anything is written.',
      }),
    },
    resolve: (_root, { input }, { db, caller }) =>
      renewLease(db, caller, {
        ...action(input),
        fence: input.fence,
        ttlMs: input.ttlMs,
      }),
  }),
  releaseLease: t.withAuth({ reader: true }).field({
    type: LeaseResult,
    description: 'Ends the lease if the fence is current and yours; otherwise StaleFence.',
    args: {
      input: t.arg({
        type: ReleaseLeaseInput,
        required: true,
        description: 'The write, validated in full before anything is written.',
      }),
    },
    resolve: (_root, { input }, { db, caller }) =>
      releaseLease(db, caller, { ...action(input), fence: input.fence }),
  }),
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
    resolve: (_root, { input }, { db, caller }) =>
      completeTodo(db, caller, {
        ...action(input),
        evidenceRefs: input.evidenceRefs,
        successor: input.successor ? spec(input.successor) : null,
      }),
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
    resolve: (_root, { input }, { db, caller }) =>
      supersedeTodo(db, caller, {
        ...action(input),
        reason: input.reason,
        replacement: input.replacement ? spec(input.replacement) : null,
        replacementId: optStr(input.replacementId),
      }),
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
    resolve: (_root, { input }, { db, caller }) =>
      deferTodo(db, caller, {
        ...action(input),
        resumeWhen: input.resumeWhen,
        reason: input.reason,
      }),
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
    resolve: (_root, { input }, { db, caller }) => resumeTodo(db, caller, action(input)),
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
    resolve: (_root, { input }, { db, caller }) =>
      closeNoFollowUp(db, caller, { ...action(input), reason: input.reason }),
  }),
  openGate: t.withAuth({ reader: true }).field({
    type: OpenGateResult,
    description: 'Opens a gate: any reader of the goal may ask for a decision.',
    args: {
      input: t.arg({
        type: OpenGateInput,
        required: true,
        description: 'The write, validated in full before anything is written.',
      }),
    },
    resolve: (_root, { input }, { db, caller }) =>
      openGate(db, caller, {
        goalId: str(input.goalId),
        agentId: optStr(input.agentId),
        kind: input.kind,
        granularity: input.granularity,
        scopeKey: input.scopeKey,
        reason: input.reason,
        expiresAt: input.expiresAt,
      }),
  }),
  resolveGate: t.withAuth({ admin: true, steward: true }).field({
    type: ResolveGateResult,
    description: 'Decides a gate. ADMIN or STEWARD only: an agent never grants itself authority.',
    args: {
      input: t.arg({
        type: ResolveGateInput,
        required: true,
        description: 'The write, validated in full before anything is written.',
      }),
    },
    resolve: (_root, { input }, { db, caller }) =>
      resolveGate(db, caller, {
        goalId: str(input.goalId),
        gateId: str(input.gateId),
        decision: input.decision,
        note: input.note,
      }),
  }),
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
    resolve: (_root, { input }, { db, caller }) =>
      setVision(db, caller, {
        ...input,
        goalId: str(input.goalId),
        agentId: optStr(input.agentId),
      }),
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
    resolve: (_root, { input }, { db, caller }) =>
      setCapabilities(db, caller, {
        goalId: str(input.goalId),
        agentId: optStr(input.agentId),
        capabilities: input.capabilities,
      }),
  }),
}));
