import { sql } from 'drizzle-orm';
import { bigint, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

/**
 * Per-goal stream heads. Advancing a head takes a row lock held to commit, so a goal's
 * sequence numbers commit in order with no gaps (docs/architecture.md, "Writes, sequences and streams"): a reader that resumes
 * after N never misses a committed item above N.
 */
export const streamHeadsTable = pgTable(
  'stream_heads',
  {
    goalId: text('goal_id').notNull(),
    stream: text('stream').notNull(),
    seq: bigint('seq', { mode: 'bigint' }).notNull().default(sql`0`),
    /**
     * The highest number of this stream whose item retention removed (0: none): a reader
     * resuming after a lower one would miss items, and gets a RetentionGap instead.
     */
    prunedThrough: bigint('pruned_through', { mode: 'bigint' }).notNull().default(sql`0`),
  },
  (t) => [primaryKey({ columns: [t.goalId, t.stream] })],
);
