import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { driver, eventually, openTestDatabase } from './support/harness.ts';

let database: Database;
/** The rows of `execute` on either driver (postgres.js: an array; PGlite: `{ rows }`). */
const rows = (result: unknown) =>
  (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as Record<string, any>[];

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

describe(`database: a transaction whose connection dies (${driver})`, () => {
  // Found by `npm run faults` (a Postgres restart): postgres.js 3.4.9 sent the ROLLBACK of a
  // transaction whose backend had gone on the closed connection, and its deferred write threw
  // an uncaught TypeError that ended the gateway process. patches/postgres+3.4.9.patch.
  it('rejects, writes nothing, and the next transaction commits (the process lives on)', async () => {
    await database.db.execute(
      sql`create table if not exists test_dying_tx (id text primary key, at timestamptz not null)`,
    );
    const id = `dying-${process.pid}-${Date.now()}`;
    const failed = database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into test_dying_tx values (${id}, now())`);
      if (driver === 'postgres') {
        const [row] = rows(await tx.execute(sql`select pg_backend_pid() as pid`));
        // Another connection of the pool ends this transaction's backend, as a restart does.
        await database.db.execute(sql`select pg_terminate_backend(${row?.pid})`);
        // Until the backend is gone, then one more round trip on the pool: by then this
        // connection has read its end, and the next statement meets a closed connection.
        await eventually(async () => {
          const left = await database.db.execute(
            sql`select 1 from pg_stat_activity where pid = ${row?.pid}`,
          );
          return rows(left).length === 0 ? true : undefined;
        }, 'the terminated backend to be gone');
        await database.db.execute(sql`select 1`);
      } else {
        // PGlite has no connection to lose: the transaction fails by throwing instead.
        throw new Error('the connection died');
      }
      await tx.execute(sql`select 1`);
    });
    await expect(failed).rejects.toThrow(driver === 'postgres' ? /CONNECTION_|terminat/ : /died/);
    // An uncaught error of the driver would have ended this process before this line runs
    // (vitest reports it as an unhandled error and fails the run).
    await new Promise((resolve) => setImmediate(resolve));
    const written = await database.db.execute(sql`select id from test_dying_tx where id = ${id}`);
    expect(rows(written)).toHaveLength(0);
    const later = `${id}-later`;
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into test_dying_tx values (${later}, now())`);
    });
    const after = await database.db.execute(sql`select id from test_dying_tx where id = ${later}`);
    expect(rows(after)).toHaveLength(1);
  });
});
