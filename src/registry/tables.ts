import { sql } from 'drizzle-orm';
import { foreignKey, index, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

export const goalsTable = pgTable('goals', {
  id: text('id').primaryKey(),
  title: text('title').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
export type Goal = typeof goalsTable.$inferSelect;

export const agentsTable = pgTable(
  'agents',
  {
    goalId: text('goal_id')
      .notNull()
      .references(() => goalsTable.id),
    agentId: text('agent_id').notNull(),
    agentModel: text('agent_model').notNull(),
    hostSurface: text('host_surface').notNull(),
    registeredAt: timestamp('registered_at', { withTimezone: true }).notNull().defaultNow(),
    retiredAt: timestamp('retired_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.goalId, t.agentId] })],
);
export type Agent = typeof agentsTable.$inferSelect;
export type NewAgent = typeof agentsTable.$inferInsert;

/** `goalId` is delegated to the agent (`agentGoalId`, `agentId`), widening that peer's scope. */
export const delegationsTable = pgTable(
  'delegations',
  {
    goalId: text('goal_id')
      .notNull()
      .references(() => goalsTable.id),
    agentGoalId: text('agent_goal_id').notNull(),
    agentId: text('agent_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.goalId, t.agentGoalId, t.agentId] }),
    foreignKey({
      columns: [t.agentGoalId, t.agentId],
      foreignColumns: [agentsTable.goalId, agentsTable.agentId],
    }),
    index('delegations_agent_idx').on(t.agentGoalId, t.agentId),
  ],
);
export type Delegation = typeof delegationsTable.$inferSelect;

export const credentialsTable = pgTable(
  'credentials',
  {
    id: text('id').primaryKey(),
    kind: text('kind', { enum: ['ADMIN', 'STEWARD', 'PEER', 'PROVIDER'] }).notNull(),
    /** sha256 of the token, hex; the token itself is never stored. */
    tokenHash: text('token_hash').notNull().unique(),
    label: text('label').notNull(),
    goalId: text('goal_id'),
    agentId: text('agent_id'),
    providerId: text('provider_id'),
    goalIds: text('goal_ids').array().notNull().default(sql`'{}'::text[]`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** From this instant on it is refused, as a revoked one is; null: it does not expire. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    /**
     * When a request last arrived with it, as recorded by some gateway instance: each
     * instance writes it at most once per LAST_USED_INTERVAL_MS per credential
     * (registry/credentials.ts), so it lags the truth by up to that interval.
     */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
  },
  (t) => [index('credentials_agent_idx').on(t.goalId, t.agentId)],
);
export type Credential = typeof credentialsTable.$inferSelect;
