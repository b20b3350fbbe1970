/**
 * Importing this gives a test file its own database (the migrated template restored on
 * PGlite, the run's database on Postgres) and one real gateway over it, started before the
 * file's tests and stopped after them. `database` and `t` are live bindings: use them inside
 * tests and hooks, never at import time.
 */
import { afterAll, beforeAll } from 'vitest';
import type { Database } from '../../src/db/database.ts';
import { openTestDatabase, startTestGateway, type TestGateway } from './harness.ts';

export let database: Database;
export let t: TestGateway;

beforeAll(async () => {
  database = await openTestDatabase();
  t = await startTestGateway(database);
});
afterAll(async () => {
  await t?.stop();
  await database?.close();
});
