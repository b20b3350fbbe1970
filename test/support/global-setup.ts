import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { createMigratedPglite, openDatabase } from '../../src/db/database.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated PGlite data directory, dumped once; each test file restores it. */
    pgliteDump: string | null;
  }
}

/**
 * Migrates once per run: PGlite into a dump every test file restores (creating and
 * migrating PGlite takes seconds), or the real Postgres at TEST_DATABASE_URL.
 */
export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    await (await openDatabase({ driver: 'postgres', url })).close();
    project.provide('pgliteDump', null);
    return;
  }
  const client = await createMigratedPglite(null);
  const dump = await client.dumpDataDir('none');
  await client.close();
  const folder = mkdtempSync(path.join(tmpdir(), 'switchboard-test-'));
  const file = path.join(folder, 'pglite.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteDump', file);
  return () => rmSync(folder, { recursive: true, force: true });
}
