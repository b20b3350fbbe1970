import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { goalsTable } from '../registry/tables.ts';

export const taskClasses = [
  'ADVANCEMENT_TASK',
  'USER_GATE',
  'USER_ACTION',
  'CONTINUOUS_MONITOR',
  'BLOCKER',
] as const;
export type TaskClass = (typeof taskClasses)[number];

/** OPEN and DEFERRED are live (on the frontier); the other three are final. */
export const todoStatuses = [
  'OPEN',
  'DEFERRED',
  'DONE',
  'SUPERSEDED',
  'CLOSED_NO_FOLLOW_UP',
] as const;
export type TodoStatus = (typeof todoStatuses)[number];

export const continuationPolicies = ['SAME_AGENT_NON_DELIVERY', 'INDEPENDENT_HANDOFF'] as const;
export type ContinuationPolicy = (typeof continuationPolicies)[number];

export const gateKinds = [
  'PRIVATE_READ',
  'WRITE_SCOPE',
  'RESOURCE',
  'PRODUCTION',
  'PUBLIC_CLAIM',
  'DIRECTION',
] as const;
export type GateKind = (typeof gateKinds)[number];

/** Narrowest first: the order is the coverage order (see rules.ts `covers`). */
export const gateGranularities = ['ACTION', 'LANE', 'GOAL', 'PROJECT', 'GLOBAL'] as const;
export type GateGranularity = (typeof gateGranularities)[number];

export const gateDecisions = ['GRANTED', 'DENIED'] as const;
export type GateDecision = (typeof gateDecisions)[number];

export const todoTransitionKinds = [
  'CREATE',
  'SET_DEPENDENCIES',
  'CLAIM',
  'RELEASE_CLAIM',
  'ACQUIRE_LEASE',
  'RENEW_LEASE',
  'RELEASE_LEASE',
  'COMPLETE',
  'SUPERSEDE',
  'DEFER',
  'RESUME',
  'CLOSE_NO_FOLLOW_UP',
  'HANDOFF',
] as const;
export type TodoTransitionKind = (typeof todoTransitionKinds)[number];

const at = (name: string) => timestamp(name, { withTimezone: true });
/** Who acted: the caller kind (an ADMIN or STEWARD may act without naming an agent). */
const actorKind = (name: string) => text(name, { enum: ['ADMIN', 'STEWARD', 'PEER', 'PROVIDER'] });

export const todosTable = pgTable(
  'todos',
  {
    id: text('id').primaryKey(),
    goalId: text('goal_id')
      .notNull()
      .references(() => goalsTable.id),
    title: text('title').notNull(),
    taskClass: text('task_class', { enum: taskClasses }).notNull(),
    status: text('status', { enum: todoStatuses }).notNull().default('OPEN'),
    priority: integer('priority').notNull().default(0),
    dependsOn: text('depends_on').array().notNull().default(sql`'{}'::text[]`),
    resumeWhen: text('resume_when').array().notNull().default(sql`'{}'::text[]`),
    requiredDecisionScopes: text('required_decision_scopes')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    requiredCapability: text('required_capability'),
    /** The credential-free repository it writes to (`git:host/owner/repo`); grants nothing. */
    taskRepository: text('task_repository'),
    writeScope: text('write_scope').array().notNull().default(sql`'{}'::text[]`),
    continuationPolicy: text('continuation_policy', { enum: continuationPolicies }).notNull(),
    successorOf: text('successor_of'),
    supersededBy: text('superseded_by'),
    evidenceRefs: text('evidence_refs').array().notNull().default(sql`'{}'::text[]`),
    deferReason: text('defer_reason'),
    supersedeReason: text('supersede_reason'),
    noFollowUpReason: text('no_follow_up_reason'),
    /** The soft owner: who plans to execute it. Not a lock. */
    claimedBy: text('claimed_by'),
    claimedAt: at('claimed_at'),
    /** Optional occupancy. `leaseFence` only grows: each acquire takes the next value. */
    leaseHolder: text('lease_holder'),
    leaseFence: bigint('lease_fence', { mode: 'bigint' }).notNull().default(sql`0`),
    leaseExpiresAt: at('lease_expires_at'),
    createdAt: at('created_at').notNull().defaultNow(),
    createdByKind: actorKind('created_by_kind').notNull(),
    createdByAgent: text('created_by_agent'),
    updatedAt: at('updated_at').notNull().defaultNow(),
    updatedByKind: actorKind('updated_by_kind').notNull(),
    updatedByAgent: text('updated_by_agent'),
    /** When it reached a final status (DONE, SUPERSEDED, CLOSED_NO_FOLLOW_UP). */
    closedAt: at('closed_at'),
  },
  (t) => [
    index('todos_goal_status_idx').on(t.goalId, t.status),
    // An agent's open claimed todo (directory rows, wait pins): one index probe per agent.
    index('todos_open_claims_idx')
      .on(t.goalId, t.claimedBy, t.priority.desc(), t.claimedAt)
      .where(sql`${t.status} = 'OPEN'`),
  ],
);
export type TodoRow = typeof todosTable.$inferSelect;
export type NewTodoRow = typeof todosTable.$inferInsert;

/** Append-only: one row per todo transition, written in the transition's transaction. */
export const todoTransitionsTable = pgTable(
  'todo_transitions',
  {
    id: bigserial('id', { mode: 'bigint' }).primaryKey(),
    goalId: text('goal_id').notNull(),
    todoId: text('todo_id')
      .notNull()
      .references(() => todosTable.id),
    /** The goal's work sequence this transition moved it to. */
    seq: bigint('seq', { mode: 'bigint' }).notNull(),
    kind: text('kind', { enum: todoTransitionKinds }).notNull(),
    fromStatus: text('from_status', { enum: todoStatuses }),
    toStatus: text('to_status', { enum: todoStatuses }).notNull(),
    actorKind: actorKind('actor_kind').notNull(),
    actorAgent: text('actor_agent'),
    credentialId: text('credential_id'),
    at: at('at').notNull().defaultNow(),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [
    index('todo_transitions_todo_idx').on(t.goalId, t.todoId, t.id),
    // The todos changed since a work sequence (the frontier's catch-up, work/frontier.ts).
    index('todo_transitions_seq_idx').on(t.goalId, t.seq),
  ],
);
export type TodoTransitionRow = typeof todoTransitionsTable.$inferSelect;

export const gatesTable = pgTable(
  'gates',
  {
    id: text('id').primaryKey(),
    goalId: text('goal_id')
      .notNull()
      .references(() => goalsTable.id),
    kind: text('kind', { enum: gateKinds }).notNull(),
    granularity: text('granularity', { enum: gateGranularities }).notNull(),
    scopeKey: text('scope_key').notNull(),
    reason: text('reason').notNull(),
    expiresAt: at('expires_at'),
    /** null while the decision is pending. */
    decision: text('decision', { enum: gateDecisions }),
    decisionNote: text('decision_note'),
    openedAt: at('opened_at').notNull().defaultNow(),
    openedByKind: actorKind('opened_by_kind').notNull(),
    openedByAgent: text('opened_by_agent'),
    resolvedAt: at('resolved_at'),
    resolvedByKind: actorKind('resolved_by_kind'),
    resolvedByAgent: text('resolved_by_agent'),
  },
  (t) => [index('gates_goal_idx').on(t.goalId)],
);
export type GateRow = typeof gatesTable.$inferSelect;

/** Bounded per-agent routing state: one row per (goal, agent), replaced on each set. */
export const visionsTable = pgTable(
  'agent_visions',
  {
    goalId: text('goal_id')
      .notNull()
      .references(() => goalsTable.id),
    agentId: text('agent_id').notNull(),
    roleScope: text('role_scope').notNull(),
    visionSummary: text('vision_summary').notNull(),
    acceptanceSummary: text('acceptance_summary').notNull(),
    replanTriggerSummary: text('replan_trigger_summary').notNull(),
    updatedAt: at('updated_at').notNull().defaultNow(),
    updatedByKind: actorKind('updated_by_kind').notNull(),
    updatedByAgent: text('updated_by_agent'),
  },
  (t) => [primaryKey({ columns: [t.goalId, t.agentId] })],
);
export type Vision = typeof visionsTable.$inferSelect;

/** What an agent declares its host/runtime can do in a goal. A declaration, not authority. */
export const capabilitiesTable = pgTable(
  'agent_capabilities',
  {
    goalId: text('goal_id')
      .notNull()
      .references(() => goalsTable.id),
    agentId: text('agent_id').notNull(),
    capabilities: text('capabilities').array().notNull().default(sql`'{}'::text[]`),
    updatedAt: at('updated_at').notNull().defaultNow(),
    updatedByKind: actorKind('updated_by_kind').notNull(),
    updatedByAgent: text('updated_by_agent'),
  },
  (t) => [primaryKey({ columns: [t.goalId, t.agentId] })],
);
export type AgentCapabilities = typeof capabilitiesTable.$inferSelect;

/** External facts a resume condition can name. */
export const externalEventKinds = ['PR_MERGED'] as const;
export type ExternalEventKind = (typeof externalEventKinds)[number];

/**
 * External facts recorded in a goal (a pull request merged in a repository): what
 * `pr_merged:` conditions are satisfied by. One row per fact; recording it again changes
 * nothing.
 */
export const externalEventsTable = pgTable(
  'external_events',
  {
    id: text('id').primaryKey(),
    goalId: text('goal_id')
      .notNull()
      .references(() => goalsTable.id),
    kind: text('kind', { enum: externalEventKinds }).notNull(),
    /** Canonical repository identity (`git:host/owner/repo`). */
    repository: text('repository').notNull(),
    /** PR_MERGED: the pull request number, as decimal text. */
    ref: text('ref').notNull(),
    /** When the recorder saw it happen (its own clock). */
    observedAt: at('observed_at').notNull(),
    recordedAt: at('recorded_at').notNull().defaultNow(),
    recordedByKind: actorKind('recorded_by_kind').notNull(),
    recordedByAgent: text('recorded_by_agent'),
    credentialId: text('credential_id'),
  },
  (t) => [uniqueIndex('external_events_fact_idx').on(t.goalId, t.kind, t.repository, t.ref)],
);
export type ExternalEventRow = typeof externalEventsTable.$inferSelect;

/** Where an agent's checkout is: a linked worktree of its own, or the repository's canonical checkout. */
export const worktreeKinds = ['LINKED', 'CANONICAL'] as const;
export type WorktreeKind = (typeof worktreeKinds)[number];

/**
 * Where an agent declares it runs in a goal: one row per (goal, agent), replaced on each
 * declaration. A declaration checked by the WORKSPACE guard, like capabilities; Switchboard
 * cannot see the checkout and grants nothing for it.
 */
export const workspacesTable = pgTable(
  'agent_workspaces',
  {
    goalId: text('goal_id')
      .notNull()
      .references(() => goalsTable.id),
    agentId: text('agent_id').notNull(),
    /** Canonical repository identity (`git:host/owner/repo`) of the checkout's origin. */
    repository: text('repository').notNull(),
    worktree: text('worktree', { enum: worktreeKinds }).notNull(),
    /** The commit checked out when declared (lower-case hex). */
    revision: text('revision').notNull(),
    declaredAt: at('declared_at').notNull().defaultNow(),
    declaredByKind: actorKind('declared_by_kind').notNull(),
    declaredByAgent: text('declared_by_agent'),
  },
  (t) => [primaryKey({ columns: [t.goalId, t.agentId] })],
);
export type AgentWorkspace = typeof workspacesTable.$inferSelect;

/**
 * Bounded handoffs: one packet per handoffTodo, written once and never changed, from which
 * the receiver can reconstruct the work without a transcript. `toAgent` null: left unclaimed
 * for any qualified peer. The guards that apply are not stored: a read evaluates them for
 * the reader as they are then.
 */
export const handoffsTable = pgTable(
  'handoffs',
  {
    id: text('id').primaryKey(),
    goalId: text('goal_id')
      .notNull()
      .references(() => goalsTable.id),
    todoId: text('todo_id')
      .notNull()
      .references(() => todosTable.id),
    /** The agent that handed it off; null when an ADMIN or STEWARD acted as itself. */
    fromAgent: text('from_agent'),
    /** The named receiver; null: unclaimed for any qualified peer. */
    toAgent: text('to_agent'),
    nextAction: text('next_action').notNull(),
    validation: text('validation').notNull(),
    stopCondition: text('stop_condition').notNull(),
    /** What the packet leaves out or is private: to be re-acquired through a legal route. */
    omitted: text('omitted').array().notNull().default(sql`'{}'::text[]`),
    /** The sender's declared workspace when it handed off (null when it declared none). */
    repository: text('repository'),
    worktree: text('worktree', { enum: worktreeKinds }),
    revision: text('revision'),
    workspaceDeclaredAt: at('workspace_declared_at'),
    /** What the sender's frontier row said about the todo, and the evidence, at handoff. */
    packet: jsonb('packet').$type<Record<string, unknown>>().notNull(),
    /** The CONTEXT delivery to a named receiver; null for an unnamed handoff. */
    deliveryId: text('delivery_id'),
    /** The goal's work sequence the handoff moved it to. */
    workSeq: bigint('work_seq', { mode: 'bigint' }).notNull(),
    /** The HANDOFF ledger row. */
    ledgerSeq: bigint('ledger_seq', { mode: 'bigint' }).notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    createdByKind: actorKind('created_by_kind').notNull(),
    credentialId: text('credential_id'),
  },
  (t) => [
    index('handoffs_todo_idx').on(t.goalId, t.todoId, t.createdAt),
    index('handoffs_to_idx').on(t.goalId, t.toAgent, t.createdAt),
  ],
);
export type HandoffRow = typeof handoffsTable.$inferSelect;

/**
 * A goal's closure: at most one row per goal, written by closeGoal once goalClosure finds no
 * reason against it, with its GOAL_CLOSED ledger row. Completing every todo writes none.
 */
export const goalClosuresTable = pgTable('goal_closures', {
  goalId: text('goal_id')
    .primaryKey()
    .references(() => goalsTable.id),
  reason: text('reason').notNull(),
  /** Relative refs to the acceptance evidence the closure cites. */
  acceptanceRefs: text('acceptance_refs').array().notNull(),
  closedAt: at('closed_at').notNull().defaultNow(),
  closedByKind: actorKind('closed_by_kind').notNull(),
  closedByAgent: text('closed_by_agent'),
  credentialId: text('credential_id'),
  /** The goal's work sequence the closure moved it to, and its GOAL_CLOSED ledger row. */
  workSeq: bigint('work_seq', { mode: 'bigint' }).notNull(),
  ledgerSeq: bigint('ledger_seq', { mode: 'bigint' }).notNull(),
});
export type GoalClosureRow = typeof goalClosuresTable.$inferSelect;
