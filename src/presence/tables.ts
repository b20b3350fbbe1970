import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { goalsTable } from '../registry/tables.ts';

export const livenessValues = [
  'WORKING',
  'BLOCKED',
  'IDLE',
  'DONE',
  'UNREACHABLE',
  'UNKNOWN',
] as const;
export type Liveness = (typeof livenessValues)[number];

export const presenceBases = [
  'PROVIDER_DETECTION',
  'LIFECYCLE_HOOK',
  'PROGRAM_STATUS',
  'SELF_REPORT',
] as const;
export type PresenceBasis = (typeof presenceBases)[number];

/** What a BLOCKED agent waits for; reported only with BLOCKED. */
export const blockedKinds = ['PERMISSION', 'QUESTION', 'AUTH'] as const;
export type BlockedKind = (typeof blockedKinds)[number];

/**
 * How a presence lapses (docs/api.md, "Expiry is an event"): no report within the provider's
 * TTL, the provider re-registered with a new instance, or no credential of the provider covers
 * the goal any more. Each lapse is one change on the goal's presence stream.
 */
export const lapseGaps = [
  'PRESENCE_TTL_EXPIRED',
  'PROVIDER_RESTARTED',
  'PROVIDER_REVOKED',
] as const;
export type LapseGap = (typeof lapseGaps)[number];

/** Most characters of a report's `explain`. */
export const MAX_EXPLAIN_LENGTH = 160;

export const observationSources = [
  'VIEWPORT',
  'RECENT',
  'RECENT_UNWRAPPED',
  'DETECTION_SNAPSHOT',
] as const;
export type ObservationSource = (typeof observationSources)[number];

export const observationLimits = [
  'ALTERNATE_SCREEN_NOT_IN_SCROLLBACK',
  'VIEWPORT_CLEARED',
  'PROVIDER_RESTARTED',
  'DISCONNECTED',
] as const;
export type ObservationLimit = (typeof observationLimits)[number];

export interface DeclaredSource {
  readonly source: ObservationSource;
  readonly maxLines: number;
  /** What this source cannot recover. */
  readonly limits: readonly ObservationLimit[];
}

/** A provider's declaration (docs/api.md, "Directory, presence and attention"). A capability not declared here is a typed gap. */
export const providersTable = pgTable('providers', {
  providerId: text('provider_id').primaryKey(),
  /** The provider process; a new one marks presence reported by earlier ones stale. */
  instanceId: text('instance_id').notNull(),
  /** The goals it reports for: its credential's goals when it registered. */
  goalIds: text('goal_ids').array().notNull(),
  membershipProof: text('membership_proof').notNull(),
  identifierRules: text('identifier_rules').notNull(),
  /** Provider state name -> Liveness. */
  livenessMapping: jsonb('liveness_mapping').$type<Record<string, Liveness>>().notNull(),
  presenceTtlMs: integer('presence_ttl_ms').notNull(),
  observationSources: jsonb('observation_sources').$type<DeclaredSource[]>().notNull(),
  supportsPinnedWaits: boolean('supports_pinned_waits').notNull(),
  persistence: text('persistence').notNull(),
  /** The rollup it publishes; null means it declared none. */
  rollup: text('rollup'),
  /** The machine it runs on, as it declared it: part of its presences' location. */
  host: text('host'),
  registeredAt: timestamp('registered_at', { withTimezone: true }).notNull().defaultNow(),
});
export type Provider = typeof providersTable.$inferSelect;

/**
 * One row per (goal, agent, provider location). `stateChangeSeq` is the goal's presence
 * sequence at the last change of liveness, blocked kind, occupant, end or lapse: heartbeats
 * leave it alone.
 */
export const presenceTable = pgTable(
  'presence',
  {
    goalId: text('goal_id')
      .notNull()
      .references(() => goalsTable.id),
    agentId: text('agent_id').notNull(),
    providerId: text('provider_id')
      .notNull()
      .references(() => providersTable.providerId),
    providerSessionRef: text('provider_session_ref').notNull(),
    /** The provider's host when it reported (part of the location, never of the identity). */
    host: text('host'),
    instanceId: text('instance_id').notNull(),
    occupantRef: text('occupant_ref').notNull(),
    liveness: text('liveness', { enum: livenessValues }).notNull(),
    basis: text('basis', { enum: presenceBases }).notNull(),
    /** Which source decided and why, in the provider's words (screened); null when not said. */
    explain: text('explain'),
    /** What a BLOCKED occupant waits for; null otherwise or when not said. */
    blockedKind: text('blocked_kind', { enum: blockedKinds }),
    observedAt: timestamp('observed_at', { withTimezone: true }).notNull(),
    /** The provider's own report sequence; older reports are ignored. */
    reportSeq: bigint('report_seq', { mode: 'bigint' }).notNull(),
    stateChangeSeq: bigint('state_change_seq', { mode: 'bigint' }).notNull(),
    /** Set by endPresence: the occupant is gone from this location. */
    endedAt: timestamp('ended_at', { withTimezone: true }),
    /** When it lapses without another report: the database clock at the last report + the TTL. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Set when it lapsed (presence/lapse.ts), with the change that recorded it; a report clears it. */
    lapse: text('lapse', { enum: lapseGaps }),
  },
  (t) => [
    primaryKey({ columns: [t.goalId, t.agentId, t.providerId, t.providerSessionRef] }),
    index('presence_provider_idx').on(t.providerId),
    // The sweeper's only read: the live rows by expiry.
    index('presence_expiry_idx')
      .on(t.expiresAt)
      .where(sql`${t.endedAt} is null and ${t.lapse} is null`),
  ],
);
export type PresenceRow = typeof presenceTable.$inferSelect;

/**
 * The goal's presence stream: one row per change of liveness, blocked kind or occupant, end or
 * lapse, numbered gap-free per goal. Subscribers resume from a `seq`. `liveness` is what the
 * provider last reported; on a lapse it is the reported liveness the lapse covers.
 */
export const presenceChangesTable = pgTable(
  'presence_changes',
  {
    goalId: text('goal_id').notNull(),
    seq: bigint('seq', { mode: 'bigint' }).notNull(),
    agentId: text('agent_id').notNull(),
    providerId: text('provider_id').notNull(),
    providerSessionRef: text('provider_session_ref').notNull(),
    host: text('host'),
    occupantRef: text('occupant_ref').notNull(),
    liveness: text('liveness', { enum: livenessValues }).notNull(),
    previousLiveness: text('previous_liveness', { enum: livenessValues }),
    basis: text('basis', { enum: presenceBases }).notNull(),
    explain: text('explain'),
    blockedKind: text('blocked_kind', { enum: blockedKinds }),
    observedAt: timestamp('observed_at', { withTimezone: true }).notNull(),
    ended: boolean('ended').notNull().default(false),
    /** Set on the change that records a lapse: liveness then reads UNKNOWN, with this gap. */
    lapse: text('lapse', { enum: lapseGaps }),
    /**
     * The clock when the row was inserted, which is after the goal's head lock was taken (not
     * the transaction start): so recorded times follow `seq`, and whoever holds the head lock
     * at instant T knows no change recorded at or before T is still to come. Deliveries rely
     * on that to decide "no activity before the window ended" once, for every instance.
     */
    recordedAt: timestamp('recorded_at', { withTimezone: true })
      .notNull()
      .default(sql`clock_timestamp()`),
  },
  (t) => [primaryKey({ columns: [t.goalId, t.seq] })],
);
export type PresenceChangeRow = typeof presenceChangesTable.$inferSelect;

/** Latest bounded excerpt per (goal, agent, provider, source). Never copied elsewhere. */
export const observationsTable = pgTable(
  'observations',
  {
    goalId: text('goal_id').notNull(),
    agentId: text('agent_id').notNull(),
    providerId: text('provider_id').notNull(),
    source: text('source', { enum: observationSources }).notNull(),
    lines: text('lines').array().notNull(),
    limits: text('limits', { enum: observationLimits })
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    capturedAt: timestamp('captured_at', { withTimezone: true }).notNull(),
    /** Credentials and local paths the privacy screen replaced in `lines` on the way in. */
    redactionCount: integer('redaction_count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.goalId, t.agentId, t.providerId, t.source] })],
);
export type ObservationRow = typeof observationsTable.$inferSelect;
