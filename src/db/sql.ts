import { type SQL, sql } from 'drizzle-orm';

/** A text[] parameter that both drivers bind the same way. */
export function textArray(values: readonly string[]): SQL {
  return sql`${`{${values.map((v) => `"${v.replace(/["\\]/g, '\\$&')}"`).join(',')}}`}::text[]`;
}

/** `db.execute` returns an array on postgres.js and `{ rows }` on PGlite. */
export function rowsOf<T>(result: unknown): T[] {
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}
