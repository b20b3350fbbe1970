import { sql } from 'drizzle-orm';
import {
  bigint,
  foreignKey,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { livenessValues } from '../presence/tables.ts';
import { agentsTable, goalsTable } from '../registry/tables.ts';

export const deliveryKinds = ['REQUEST', 'CONTEXT'] as const;
export type DeliveryKind = (typeof deliveryKinds)[number];

/** The caller kinds that may send: providers never deliver. */
export const senderKinds = ['ADMIN', 'STEWARD', 'PEER'] as const;
export type SenderKind = (typeof senderKinds)[number];

export const outcomes = [
  'SUBMITTED',
  'ACTIVITY_OBSERVED',
  'STALLED',
  'EXPIRED',
  'UNREACHABLE',
] as const;
export type Outcome = (typeof outcomes)[number];
/** Outcomes after which nothing changes. SUBMITTED and STALLED can still move. */
export const terminalOutcomes: readonly Outcome[] = ['ACTIVITY_OBSERVED', 'EXPIRED', 'UNREACHABLE'];

export const outcomeReasons = [
  'PINNED_OCCUPANT_REPLACED',
  'PRESENCE_ENDED',
  'LIVENESS_UNREACHABLE',
  'COVERAGE_LOST',
] as const;
export type OutcomeReason = (typeof outcomeReasons)[number];

/** Whether activity after submission can be observed, decided once at submission. */
export const pinStates = [
  'PINNED',
  'NO_PROVIDER',
  'NO_PRESENCE_AT_SUBMISSION',
  'PROVIDER_WITHOUT_PINNED_WAITS',
  'COVERAGE_LOST',
] as const;
export type PinState = (typeof pinStates)[number];

/**
 * One delivery: a bounded request or context from one caller to one registered agent, and
 * the recipient's receipts. `seq` numbers the goal's inbox stream gap-free (stream head
 * `inbox`, locked to commit). The sender is identified by `senderKey` (an agent for a PEER, a
 * credential for a STEWARD or ADMIN, `operator` for the environment token); an idempotency
 * key is unique per (goal, sender). The outcome is a function of the presence change log
 * after `baselineSeq` and of the two instants `windowEndsAt` and `deadline`; `outcomeVersion`
 * is its compare-and-set guard and counts the rows in `delivery_outcomes`.
 */
export const deliveriesTable = pgTable(
  'deliveries',
  {
    id: text('id').primaryKey(),
    goalId: text('goal_id')
      .notNull()
      .references(() => goalsTable.id),
    seq: bigint('seq', { mode: 'bigint' }).notNull(),
    senderKey: text('sender_key').notNull(),
    senderKind: text('sender_kind', { enum: senderKinds }).notNull(),
    /** PEER senders: the goal the agent is registered to (it may deliver in a delegated goal). */
    senderGoalId: text('sender_goal_id'),
    senderAgentId: text('sender_agent_id'),
    /** null for a PEER and for the operator token. */
    senderCredentialId: text('sender_credential_id'),
    toAgentId: text('to_agent_id').notNull(),
    /** `to` as the sender passed it; null when it came from the sender's roster. */
    requestedTo: text('requested_to'),
    kind: text('kind', { enum: deliveryKinds }).notNull(),
    todoId: text('todo_id'),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    bodyPreview: text('body_preview').notNull(),
    threadId: text('thread_id').notNull(),
    /** `threadId` as the sender passed it (the stored one may be derived). */
    requestedThreadId: text('requested_thread_id'),
    replyTo: text('reply_to'),
    idempotencyKey: text('idempotency_key').notNull(),
    activityWindowMs: integer('activity_window_ms').notNull(),
    timeoutMs: integer('timeout_ms').notNull(),
    submittedAt: timestamp('submitted_at', { withTimezone: true }).notNull(),
    windowEndsAt: timestamp('window_ends_at', { withTimezone: true }).notNull(),
    deadline: timestamp('deadline', { withTimezone: true }).notNull(),
    pinState: text('pin_state', { enum: pinStates }).notNull(),
    pinProvider: text('pin_provider'),
    pinSessionRef: text('pin_session_ref'),
    pinOccupantRef: text('pin_occupant_ref'),
    baselineSeq: bigint('baseline_seq', { mode: 'bigint' }).notNull(),
    outcome: text('outcome', { enum: outcomes }).notNull().default('SUBMITTED'),
    outcomeVersion: integer('outcome_version').notNull().default(0),
    // Receipts, written by the recipient; each visible to the sender.
    readAt: timestamp('read_at', { withTimezone: true }),
    processedAt: timestamp('processed_at', { withTimezone: true }),
    /** Last time takeNextMessage handed it out, and how often it did. */
    takenAt: timestamp('taken_at', { withTimezone: true }),
    takeCount: integer('take_count').notNull().default(0),
    /** First time the recipient's MCP server pushed it into a live session, and how often it did. */
    pushedAt: timestamp('pushed_at', { withTimezone: true }),
    pushCount: integer('push_count').notNull().default(0),
  },
  (t) => [
    uniqueIndex('deliveries_goal_seq_idx').on(t.goalId, t.seq),
    uniqueIndex('deliveries_idempotency_idx').on(t.goalId, t.senderKey, t.idempotencyKey),
    index('deliveries_inbox_idx').on(t.goalId, t.toAgentId, t.seq),
    index('deliveries_open_idx')
      .on(t.goalId, t.outcome)
      .where(sql`${t.outcome} in ('SUBMITTED', 'STALLED')`),
    foreignKey({
      columns: [t.goalId, t.toAgentId],
      foreignColumns: [agentsTable.goalId, agentsTable.agentId],
    }),
  ],
);
export type DeliveryRow = typeof deliveriesTable.$inferSelect;
export type NewDeliveryRow = typeof deliveriesTable.$inferInsert;

/**
 * Each change of a delivery's outcome after SUBMITTED (which is version 0, the delivery row
 * itself). `effectiveAt` is when it became true by the rules (the window end for STALLED,
 * the deadline for EXPIRED, the presence change's time otherwise), so every instance records
 * the same history; `recordedAt` is when some instance wrote it.
 */
export const deliveryOutcomesTable = pgTable(
  'delivery_outcomes',
  {
    deliveryId: text('delivery_id')
      .notNull()
      .references(() => deliveriesTable.id),
    version: integer('version').notNull(),
    outcome: text('outcome', { enum: outcomes }).notNull(),
    reason: text('reason', { enum: outcomeReasons }),
    /** The presence change that decided it; null for STALLED and EXPIRED. */
    seq: bigint('seq', { mode: 'bigint' }),
    liveness: text('liveness', { enum: livenessValues }),
    effectiveAt: timestamp('effective_at', { withTimezone: true }).notNull(),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.deliveryId, t.version] })],
);
export type DeliveryOutcomeRow = typeof deliveryOutcomesTable.$inferSelect;

export const noticeVias = ['LIFECYCLE_HOOK', 'TERMINAL_NOTICE', 'TERMINAL_SIGNAL'] as const;
export type NoticeVia = (typeof noticeVias)[number];

/**
 * A safe-point notice: a provider (or an agent's lifecycle hook, through its provider) told
 * the recipient about a delivery at a lifecycle safe point — a Stop hook handing the message
 * over, or a one-line notice typed at an idle prompt with an empty input line — or, where typing
 * was not safe, showed the person a message without touching the pane's input (a signal: the
 * agent was not told). A receipt of the hand-off, not of reading: nothing here says the agent looked at it. `seq` is its place
 * in the goal's inbox stream (the head moves and rings as for a delivery); the location and
 * occupant are the provider's presence row at the time.
 */
export const deliveryNoticesTable = pgTable(
  'delivery_notices',
  {
    goalId: text('goal_id').notNull(),
    seq: bigint('seq', { mode: 'bigint' }).notNull(),
    deliveryId: text('delivery_id')
      .notNull()
      .references(() => deliveriesTable.id),
    via: text('via', { enum: noticeVias }).notNull(),
    providerId: text('provider_id').notNull(),
    providerSessionRef: text('provider_session_ref').notNull(),
    occupantRef: text('occupant_ref').notNull(),
    /** What was shown, screened like any text another caller reads; null when not given. */
    text: text('text'),
    /** The provider's clock: when it typed the notice or the hook handed the message over. */
    observedAt: timestamp('observed_at', { withTimezone: true }).notNull(),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.goalId, t.seq] }),
    index('delivery_notices_delivery_idx').on(t.deliveryId),
  ],
);
export type DeliveryNoticeRow = typeof deliveryNoticesTable.$inferSelect;

/** Per recipient: the one message takeNextMessage has handed out and not seen resolved or released. */
export const inboxesTable = pgTable(
  'inboxes',
  {
    goalId: text('goal_id').notNull(),
    agentId: text('agent_id').notNull(),
    activeId: text('active_id').references(() => deliveriesTable.id),
  },
  (t) => [
    primaryKey({ columns: [t.goalId, t.agentId] }),
    foreignKey({
      columns: [t.goalId, t.agentId],
      foreignColumns: [agentsTable.goalId, agentsTable.agentId],
    }),
  ],
);

export const rosterSources = ['ADD_PEER', 'SET_PRIMARY_PEER'] as const;
export type RosterSource = (typeof rosterSources)[number];

/** A caller's roster in a goal (owner = the sender key): its primary peer, if one is set. */
export const rostersTable = pgTable(
  'rosters',
  {
    goalId: text('goal_id')
      .notNull()
      .references(() => goalsTable.id),
    ownerKey: text('owner_key').notNull(),
    primaryPeer: text('primary_peer'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.goalId, t.ownerKey] })],
);

/** The peers a caller connected, explicitly: discovery never adds a row here. */
export const rosterPeersTable = pgTable(
  'roster_peers',
  {
    goalId: text('goal_id').notNull(),
    ownerKey: text('owner_key').notNull(),
    agentId: text('agent_id').notNull(),
    source: text('source', { enum: rosterSources }).notNull(),
    attachedAt: timestamp('attached_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.goalId, t.ownerKey, t.agentId] }),
    foreignKey({
      columns: [t.goalId, t.agentId],
      foreignColumns: [agentsTable.goalId, agentsTable.agentId],
    }),
  ],
);
