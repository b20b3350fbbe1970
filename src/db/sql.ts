import { type Column, type SQL, sql } from 'drizzle-orm';

/** A text[] parameter that both drivers bind the same way. */
export function textArray(values: readonly string[]): SQL {
  return sql`${`{${values.map((v) => `"${v.replace(/["\\]/g, '\\$&')}"`).join(',')}}`}::text[]`;
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
