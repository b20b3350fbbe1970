import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { goalsTable } from '../registry/tables.ts';

/**
 * What an event records. Agents and hosts record most kinds with recordEvent; GATE rows are
 * also written by openGate/resolveGate, TODO_UPDATE rows by every work-graph transition,
 * REPLAN rows only by a digest-checked recordReplanCheckpoint, DELIVERY rows only by
 * deliveries, EXTERNAL_EVENT rows only by recordExternalEvent, GOAL_CLOSED rows only by closeGoal.
 */
export const ledgerEventKinds = [
  'TODO_UPDATE',
  'VALIDATION',
  'QUOTA_SHOULD_RUN',
  'HANDOFF',
  'GATE',
  'BLOCKER',
  'PROJECTION',
  'REPLAN',
  'DELIVERY',
  'EXTERNAL_EVENT',
  'GOAL_CLOSED',
] as const;
export type LedgerEventKind = (typeof ledgerEventKinds)[number];

/** Kinds only the gateway itself writes (recordEvent refuses them), and the write that does. */
export const systemOnlyKinds: Partial<Record<LedgerEventKind, string>> = {
  REPLAN: 'recordReplanCheckpoint',
  DELIVERY: 'deliver',
  EXTERNAL_EVENT: 'recordExternalEvent',
  GOAL_CLOSED: 'closeGoal',
};

/** Where a row came from. */
export const ledgerSources = ['RECORDED', 'WORK_GRAPH', 'REPLAN_CHECKPOINT', 'DELIVERY'] as const;
export type LedgerSource = (typeof ledgerSources)[number];

/**
 * Why a row is goal-level: shown in every agent's ledger of the goal. Marked at write and
 * never inferred at read.
 */
export const goalChanges = [
  'ROUTE',
  'ACCEPTANCE',
  'GLOBAL_GATE',
  'NEXT_ACTION',
  'REPLAN_OBLIGATION',
] as const;
export type GoalChange = (typeof goalChanges)[number];

const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * The evidence ledger: append-only (a trigger in the migration refuses UPDATE and DELETE).
 * `seq` is the goal's ledger sequence, allocated under the `ledger` stream head lock held to
 * commit, so rows commit in `seq` order with no gaps (docs/architecture.md, "Writes, sequences and streams").
 *
 * Every free-text column passed the privacy screen (ledger/privacy.ts) before it was
 * written; the boundary columns record what the row declares it does not hold.
 */
export const ledgerEventsTable = pgTable(
  'ledger_events',
  {
    goalId: text('goal_id')
      .notNull()
      .references(() => goalsTable.id),
    seq: bigint('seq', { mode: 'bigint' }).notNull(),
    /**
     * clock_timestamp() after the head lock, so it grows with `seq` (barring clock steps);
     * kept to milliseconds, the precision the API shows, so `since` compares what clients see.
     */
    recordedAt: at('recorded_at')
      .notNull()
      .default(sql`date_trunc('milliseconds', clock_timestamp())`),
    source: text('source', { enum: ledgerSources }).notNull(),
    eventKind: text('event_kind', { enum: ledgerEventKinds }).notNull(),
    /** The agent the row is about (the one that acted or recorded); null for a host's own row. */
    agentId: text('agent_id'),
    todoId: text('todo_id'),
    gateId: text('gate_id'),
    /** The counterpart: the agent a handoff goes to, or an agent a blocker waits on. */
    relatedAgentId: text('related_agent_id'),
    classification: text('classification'),
    status: text('status'),
    summary: text('summary').notNull(),
    evidenceRefs: text('evidence_refs').array().notNull().default(sql`'{}'::text[]`),
    /** Changes what someone does next (status changes, gates, blockers, validations, handoffs, replans). */
    material: boolean('material').notNull(),
    /** Set on goal-level rows only: why every agent of the goal sees it. */
    goalChange: text('goal_change', { enum: goalChanges }),
    /** REPLAN rows: the ledger digest the checkpoint cited (verified at write). */
    citedDigest: text('cited_digest'),
    rawLogsRecorded: boolean('raw_logs_recorded').notNull().default(false),
    rawTrajectoryRecorded: boolean('raw_trajectory_recorded').notNull().default(false),
    credentialValuesRecorded: boolean('credential_values_recorded').notNull().default(false),
    absolutePathsRecorded: boolean('absolute_paths_recorded').notNull().default(false),
    redactionCount: integer('redaction_count').notNull().default(0),
    recordedByKind: text('recorded_by_kind', {
      enum: ['ADMIN', 'STEWARD', 'PEER', 'PROVIDER'],
    }).notNull(),
    recordedByAgent: text('recorded_by_agent'),
    credentialId: text('credential_id'),
  },
  (t) => [
    primaryKey({ columns: [t.goalId, t.seq] }),
    // One index per scoping rule, each ending in seq, so every rule can be read newest first.
    index('ledger_events_agent_idx').on(t.goalId, t.agentId, t.seq),
    index('ledger_events_todo_idx')
      .on(t.goalId, t.todoId, t.seq)
      .where(sql`${t.todoId} is not null`),
    index('ledger_events_gate_idx')
      .on(t.goalId, t.gateId, t.seq)
      .where(sql`${t.gateId} is not null`),
    index('ledger_events_related_idx')
      .on(t.goalId, t.relatedAgentId, t.seq)
      .where(sql`${t.relatedAgentId} is not null`),
    index('ledger_events_goal_level_idx')
      .on(t.goalId, t.seq)
      .where(sql`${t.goalChange} is not null`),
    // The other-agent frontier: each agent's latest material row (the latest handoff naming
    // an agent comes from ledger_events_related_idx).
    index('ledger_events_material_idx').on(t.goalId, t.agentId, t.seq).where(sql`${t.material}`),
    index('ledger_events_time_idx').on(t.goalId, t.recordedAt),
    // Each agent's latest replan checkpoint (replan obligations, VISION_CHECKPOINT_MISSING).
    index('ledger_events_replan_idx')
      .on(t.goalId, t.agentId, t.seq)
      .where(sql`${t.eventKind} = 'REPLAN'`),
  ],
);
export type LedgerEventRow = typeof ledgerEventsTable.$inferSelect;
export type NewLedgerEventRow = typeof ledgerEventsTable.$inferInsert;
