import * as drizzle from 'drizzle-orm';
import { type Column, getTableColumns, type SQL, sql } from 'drizzle-orm';
import { PgDialect, type PgTable } from 'drizzle-orm/pg-core';
import type { Queryable } from './database.ts';

/** A text[] parameter that both drivers bind the same way. */
export function textArray(values: readonly string[]): SQL {
  return sql`${textArrayLiteral(values)}::text[]`;
}

/** The text of a text[] literal, for a placeholder cast to text[]. */
export function textArrayLiteral(values: readonly string[]): string {
  return `{${values.map((v) => `"${v.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
}

/** `db.execute` returns an array on postgres.js and `{ rows }` on PGlite. */
export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}

/**
 * A column's bare name, for the places SQL allows no table qualifier (an INSERT's column
 * list, UPDATE … SET, a CTE's output); `${table.column}` elsewhere.
 */
export const bare = (column: Column): SQL => sql`${sql.identifier(column.name)}`;

/** Drizzle's own order of a select's fields, as its row mapper reads them (exported, not declared). */
const { orderSelectedFields } = drizzle as unknown as {
  orderSelectedFields(fields: Record<string, unknown>): unknown;
};

/** What `prepared` needs of a select builder: its SQL, its fields and how it prepares. */
interface SelectBuilder {
  getSQL(): SQL;
  readonly _: { readonly selectedFields: unknown };
  prepare(name: string): unknown;
}

/**
 * A select Drizzle turns into SQL once per process and afterwards only executes with the
 * values of its `sql.placeholder`s, on whichever handle it is given: a transaction's too.
 * For hot paths: building a query is most of the gateway's CPU for a short statement (the
 * query builder walks every column and chunk on each call), and a builder bound to one
 * handle would be built again for every transaction.
 */
export function prepared<B extends SelectBuilder>(
  name: string,
  build: (db: Queryable) => B,
): (db: Queryable) => ReturnType<B['prepare']> {
  let compiled:
    | { query: ReturnType<PgDialect['sqlToQuery']>; fields: unknown; joins: unknown }
    | undefined;
  return (db) => {
    if (compiled === undefined) {
      const builder = build(db);
      compiled = {
        query: dialect.sqlToQuery(builder.getSQL()),
        fields: orderSelectedFields(builder._.selectedFields as Record<string, unknown>),
        // Which joined tables may be null: how a row of a join is mapped (internal to Drizzle).
        joins: (builder as unknown as { joinsNotNullableMap: unknown }).joinsNotNullableMap,
      };
    }
    const query = db._.session.prepareQuery(
      compiled.query,
      compiled.fields as never,
      name,
      true,
    ) as unknown as { joinsNotNullableMap: unknown };
    query.joinsNotNullableMap = compiled.joins;
    return query as ReturnType<B['prepare']>;
  };
}

const dialect = new PgDialect();

/**
 * The same for a statement written as SQL: turned into text once, then executed with the
 * values of its placeholders; resolves to its rows.
 */
export function preparedSql<T>(
  name: string,
  build: () => SQL,
): (db: Queryable, values: Record<string, unknown>) => Promise<T[]> {
  let query: ReturnType<PgDialect['sqlToQuery']> | undefined;
  return async (db, values) => {
    query ??= dialect.sqlToQuery(build());
    const statement = db._.session.prepareQuery(query, undefined, name, false);
    return rowsOf<T>(await statement.execute(values));
  };
}

/** A placeholder as an SQL expression, where a helper takes `SQL | string`. */
export const placeholder = (name: string): SQL => sql`${sql.placeholder(name)}`;

/**
 * Rows for `insert into <table> (<columns>) select <columns> from <source>`, passed as one
 * JSON parameter read back with the table's own row type (`json_populate_recordset`). A
 * multi-row VALUES binds one parameter per cell, each built by Drizzle and bound by the
 * driver: for a batch of hundreds of rows that is most of the write's cost. Every row gives
 * the first row's keys; bigints travel as text.
 */
export function jsonRows<T extends PgTable>(
  table: T,
  rows: readonly T['$inferInsert'][],
): { columns: SQL; source: SQL } {
  const all = getTableColumns(table) as Record<string, Column>;
  const keys = Object.keys(rows[0] ?? {});
  const names = keys.map((key) => (all[key] as Column).name);
  // Built as plain objects: a replacer function would be called for every value.
  const json = JSON.stringify(
    rows.map((row) => {
      const out: Record<string, unknown> = {};
      for (let i = 0; i < keys.length; i++) {
        const value = (row as Record<string, unknown>)[keys[i] as string];
        out[names[i] as string] = typeof value === 'bigint' ? value.toString() : value;
      }
      return out;
    }),
  );
  return {
    columns: sql.join(
      names.map((name) => sql.identifier(name)),
      sql`, `,
    ),
    source: sql`json_populate_recordset(null::${table}, ${json}::json)`,
  };
}
