/**
 * The write of a delivery: one statement numbers it on the goal's inbox stream, inserts it and
 * rings the doorbell; and the lookup by idempotency key that answers a retried key with its
 * original. What to write, and whether to write at all, is decided by `deliver`.
 */

import { and, type Column, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Db, Queryable } from '../db/database.ts';
import { bare, placeholder, prepared, preparedSql } from '../db/sql.ts';
import { appendAtNextSeqSql } from '../events/sequence.ts';
import { type DeliveryRow, deliveriesTable } from './tables.ts';

/** What the sender decides; the database adds the sequence number, the times and the state. */
export type NewDelivery = Omit<
  DeliveryRow,
  | 'seq'
  | 'submittedAt'
  | 'windowEndsAt'
  | 'deadline'
  | 'outcome'
  | 'outcomeVersion'
  | 'readAt'
  | 'processedAt'
  | 'takenAt'
  | 'takeCount'
  | 'pushedAt'
  | 'pushCount'
>;

type AppendedRow = { seq: string; submitted_at: number; window_ends_at: number; deadline: number };
const appendStatements = new Map<string, ReturnType<typeof appendStatement>>();

/** The statement of appendDelivery for deliveries that give `keys`, with a placeholder each. */
function appendStatement(keys: (keyof NewDelivery)[]) {
  const columns = getTableColumns(deliveriesTable);
  const given = keys.map((key) => ({
    name: sql.identifier(columns[key].name),
    value: sql`${sql.placeholder(key)}::${sql.raw(columns[key].getSQLType())}`,
  }));
  const epochMs = (column: Column) =>
    sql`floor(extract(epoch from ${bare(column)}) * 1000)::float8 as ${bare(column)}`;
  const t = deliveriesTable;
  return preparedSql<AppendedRow>('append_delivery', () =>
    appendAtNextSeqSql(
      placeholder('goalId'),
      'inbox',
      (seq) => sql`insert into ${t} (${sql.join(
        given.map((g) => g.name),
        sql`, `,
      )}, ${bare(t.seq)}, ${bare(t.submittedAt)}, ${bare(t.windowEndsAt)}, ${bare(t.deadline)})
      select ${sql.join(
        given.map((g) => g.value),
        sql`, `,
      )}, ${seq}, now(), now() + ${sql.placeholder('activityWindow')}::interval,
        now() + ${sql.placeholder('timeout')}::interval
      returning ${bare(t.seq)}::text as seq, ${epochMs(t.submittedAt)}, ${epochMs(t.windowEndsAt)},
        ${epochMs(t.deadline)}`,
    ),
  );
}

/**
 * The write: one statement that numbers the delivery on the goal's inbox stream, inserts it
 * and rings (appendAtNextSeq), so the head lock is held for no client round trip. Times come
 * from the database clock. A taken idempotency key fails the statement as a whole. Built
 * once per shape of `values` (every delivery has the same) and then only executed.
 */
export async function appendDelivery(db: Db, values: NewDelivery): Promise<DeliveryRow> {
  const keys = Object.keys(values) as (keyof NewDelivery)[];
  const shape = keys.join();
  let statement = appendStatements.get(shape);
  if (!statement) {
    statement = appendStatement(keys);
    appendStatements.set(shape, statement);
  }
  const given = Object.fromEntries(
    keys.map((key) => [key, typeof values[key] === 'bigint' ? String(values[key]) : values[key]]),
  );
  const [row] = await statement(db, {
    ...given,
    activityWindow: `${values.activityWindowMs} milliseconds`,
    timeout: `${values.timeoutMs} milliseconds`,
  });
  if (!row) throw new Error('inbox item was written but cannot be read');
  return {
    ...values,
    seq: BigInt(row.seq),
    submittedAt: new Date(Number(row.submitted_at)),
    windowEndsAt: new Date(Number(row.window_ends_at)),
    deadline: new Date(Number(row.deadline)),
    outcome: 'SUBMITTED',
    outcomeVersion: 0,
    readAt: null,
    processedAt: null,
    takenAt: null,
    takeCount: 0,
    pushedAt: null,
    pushCount: 0,
  };
}

/** Whether `error` (or what drizzle wrapped) is a unique violation of `constraint`. */
export function violates(error: unknown, constraint: string): boolean {
  for (let e = error as { code?: string; cause?: unknown } | undefined; e; e = e.cause as never) {
    if (e.code === '23505') {
      const detail = e as { constraint_name?: string; constraint?: string; message?: string };
      return (detail.constraint_name ?? detail.constraint ?? detail.message ?? '').includes(
        constraint,
      );
    }
  }
  return false;
}

const deliveryByKey = prepared('delivery_by_key', (db) =>
  db
    .select()
    .from(deliveriesTable)
    .where(
      and(
        eq(deliveriesTable.goalId, sql.placeholder('goalId')),
        eq(deliveriesTable.senderKey, sql.placeholder('senderKey')),
        eq(deliveriesTable.idempotencyKey, sql.placeholder('key')),
      ),
    ),
);

export function findByKey(
  db: Queryable,
  goalId: string,
  senderKey: string,
  key: string,
): Promise<DeliveryRow | undefined> {
  return deliveryByKey(db)
    .execute({ goalId, senderKey, key })
    .then((rows) => rows[0]);
}
