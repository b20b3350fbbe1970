import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { livenessValues } from '../presence/tables.ts';
import { goalsTable } from '../registry/tables.ts';

export const waitStatuses = [
  'PENDING',
  'SATISFIED',
  'NOT_RUNNING',
  'UNREACHABLE',
  'TIMED_OUT',
  'UNOBSERVABLE',
] as const;
export type WaitStatus = (typeof waitStatuses)[number];

export const waitReasons = [
  'PINNED_OCCUPANT_REPLACED',
  'PRESENCE_ENDED',
  'NO_PRESENCE_AT_START',
  'PROVIDER_WITHOUT_PINNED_WAITS',
  'COVERAGE_LOST',
  'DEADLINE_PASSED',
] as const;
export type WaitReason = (typeof waitReasons)[number];

/**
 * A durable identity-pinned wait. The outcome is a function of the goal's presence change
 * log after each target's baseline and of the deadline, so any instance, at any time,
 * computes the same one; the `status = 'PENDING'` guard on the update records it once.
 */
export const waitsTable = pgTable(
  'waits',
  {
    id: text('id').primaryKey(),
    goalId: text('goal_id')
      .notNull()
      .references(() => goalsTable.id),
    accept: text('accept', { enum: livenessValues }).array().notNull(),
    timeoutMs: integer('timeout_ms').notNull(),
    deadline: timestamp('deadline', { withTimezone: true }).notNull(),
    status: text('status', { enum: waitStatuses }).notNull().default('PENDING'),
    reason: text('reason', { enum: waitReasons }),
    /** The target that settled it (SATISFIED) or whose failure ended it. */
    resolvedAgentId: text('resolved_agent_id'),
    /** The presence change that settled it. */
    resolvedSeq: bigint('resolved_seq', { mode: 'bigint' }),
    resolvedLiveness: text('resolved_liveness', { enum: livenessValues }),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }),
    createdByKind: text('created_by_kind').notNull(),
    createdByAgent: text('created_by_agent'),
    /** The credential that started it (null for the operator token): its pending waits are limited. */
    createdByCredential: text('created_by_credential'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('waits_pending_idx').on(t.goalId, t.status),
    index('waits_pending_by_credential_idx')
      .on(t.createdByCredential)
      .where(sql`${t.status} = 'PENDING'`),
  ],
);
export type WaitRow = typeof waitsTable.$inferSelect;

export const pinStates = [
  'PINNED',
  'NO_PRESENCE_AT_START',
  'PROVIDER_WITHOUT_PINNED_WAITS',
  'COVERAGE_LOST',
] as const;
export type PinState = (typeof pinStates)[number];

/** One pinned target of a wait: resolved once at start and never re-resolved. */
export const waitTargetsTable = pgTable(
  'wait_targets',
  {
    waitId: text('wait_id')
      .notNull()
      .references(() => waitsTable.id),
    position: integer('position').notNull(),
    goalId: text('goal_id').notNull(),
    agentId: text('agent_id').notNull(),
    todoId: text('todo_id'),
    state: text('state', { enum: pinStates }).notNull(),
    provider: text('provider'),
    providerSessionRef: text('provider_session_ref'),
    occupantRef: text('occupant_ref'),
    baselineSeq: bigint('baseline_seq', { mode: 'bigint' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.waitId, t.position] })],
);
export type WaitTargetRow = typeof waitTargetsTable.$inferSelect;
