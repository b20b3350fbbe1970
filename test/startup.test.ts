import { type ChildProcess, spawn } from 'node:child_process';
import {
  appendFileSync,
  chmodSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Database,
  migrationsFolder,
  openDatabase,
  type PgliteOpening,
  pgliteTemplateIsCurrent,
  writePgliteTemplate,
} from '../src/db/database.ts';
import { driver } from './support/harness.ts';
import { openToOthers } from './support/modes.ts';

// The embedded database's start-up paths. PGlite only: a data folder and its template are
// PGlite's, and a synthetic migration must never reach the shared test Postgres.
const pgliteOnly = describe.skipIf(driver === 'postgres');
const root = path.resolve(import.meta.dirname, '..');
const scratch = mkdtempSync(path.join(tmpdir(), 'sb-startup-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A copy of drizzle/ with one more migration, later than every real one, creating a table. */
function migrationsWithSyntheticNewer(): string {
  const folder = mkdtempSync(path.join(scratch, 'migrations-'));
  cpSync(migrationsFolder, folder, { recursive: true });
  const journalFile = path.join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8'));
  const last = journal.entries.at(-1);
  journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1000, tag: '9999_probe' });
  writeFileSync(journalFile, JSON.stringify(journal));
  writeFileSync(
    path.join(folder, '9999_probe.sql'),
    'CREATE TABLE "startup_probe" ("id" integer);',
  );
  return folder;
}

async function open(
  dataDir: string,
  options: { template: string | null; migrationsFolder?: string },
): Promise<{ database: Database; opening: PgliteOpening }> {
  let opening: PgliteOpening | undefined;
  const database = await openDatabase(
    { driver: 'pglite', dataDir },
    { ...options, onOpen: (how) => (opening = how) },
  );
  return { database, opening: opening as PgliteOpening };
}

const tables = async (database: Database) =>
  (
    (await database.db.execute(
      `select table_name from information_schema.tables where table_schema = 'public'`,
    )) as unknown as { rows: { table_name: string }[] }
  ).rows.map((row) => row.table_name);

const appliedMigrations = async (database: Database) =>
  Number(
    (
      (await database.db.execute(
        'select count(*)::int as n from drizzle.__drizzle_migrations',
      )) as unknown as { rows: { n: number }[] }
    ).rows[0]?.n,
  );

const journalLength = (folder: string) =>
  JSON.parse(readFileSync(path.join(folder, 'meta', '_journal.json'), 'utf8')).entries.length;

pgliteOnly('a first start copies a pre-migrated template, never a stale one', () => {
  // Made from the repository's migrations: one database creation for the whole file.
  const template = path.join(scratch, 'template');
  beforeAll(() => writePgliteTemplate(template), 120_000);

  it('is copied when it holds our migrations, and says so; it and its copy are private', async () => {
    expect(pgliteTemplateIsCurrent(template)).toBe(true);
    expect(openToOthers(template)).toEqual([]);
    const dataDir = mkdtempSync(path.join(scratch, 'data-'));
    const { database, opening } = await open(dataDir, { template });
    expect(opening).toEqual({ from: 'template', pendingMigrations: 0 });
    expect(await appliedMigrations(database)).toBe(journalLength(migrationsFolder));
    expect(await tables(database)).toContain('goals');
    await database.close();
    expect(statSync(path.join(dataDir, 'PG_VERSION')).mode & 0o777).toBe(0o600);
    expect(statSync(path.join(dataDir, 'base')).mode & 0o777).toBe(0o700);
    expect(openToOthers(dataDir)).toEqual([]);
  }, 60_000);

  it('a template open to group or others is not current (the install makes it again)', () => {
    const shared = mkdtempSync(path.join(scratch, 'shared-template-'));
    cpSync(template, shared, { recursive: true });
    expect(pgliteTemplateIsCurrent(shared)).toBe(true);
    chmodSync(path.join(shared, 'pgdata'), 0o755);
    expect(pgliteTemplateIsCurrent(shared)).toBe(false);
  });

  it('a template made from fewer migrations is copied and then migrated, not used stale', async () => {
    const newer = migrationsWithSyntheticNewer();
    expect(pgliteTemplateIsCurrent(template, newer)).toBe(false);
    const { database, opening } = await open(mkdtempSync(path.join(scratch, 'data-')), {
      template,
      migrationsFolder: newer,
    });
    expect(opening).toEqual({ from: 'template', pendingMigrations: 1 });
    expect(await tables(database)).toContain('startup_probe');
    expect(await appliedMigrations(database)).toBe(journalLength(newer));
    await database.close();
  }, 60_000);

  it('a data folder from an older migration set is migrated when it is opened again', async () => {
    const dataDir = mkdtempSync(path.join(scratch, 'data-'));
    const older = await open(dataDir, { template });
    expect(await tables(older.database)).not.toContain('startup_probe');
    await older.database.close();
    const newer = migrationsWithSyntheticNewer();
    const { database, opening } = await open(dataDir, { template, migrationsFolder: newer });
    expect(opening).toEqual({ from: 'existing' });
    expect(await tables(database)).toContain('startup_probe');
    expect(await appliedMigrations(database)).toBe(journalLength(newer));
    await database.close();
  }, 60_000);

  it('a template made from other migrations (an edited one) is not used: the database is created', async () => {
    const edited = mkdtempSync(path.join(scratch, 'migrations-'));
    cpSync(migrationsFolder, edited, { recursive: true });
    const journal = JSON.parse(readFileSync(path.join(edited, 'meta', '_journal.json'), 'utf8'));
    appendFileSync(
      path.join(edited, `${journal.entries.at(-1).tag}.sql`),
      '\n--> statement-breakpoint\nCREATE TABLE "edited_probe" ("id" integer);',
    );
    const dataDir = mkdtempSync(path.join(scratch, 'data-'));
    const { database, opening } = await open(dataDir, { template, migrationsFolder: edited });
    expect(opening).toEqual({
      from: 'created',
      why: 'the template was made from other migrations',
    });
    expect(await tables(database)).toContain('edited_probe');
    await database.close();
  }, 120_000);

  it('a missing template means the database is created', async () => {
    const dataDir = mkdtempSync(path.join(scratch, 'data-'));
    const missing = path.join(scratch, 'no-template');
    const { database, opening } = await open(dataDir, { template: missing });
    expect(opening).toEqual({ from: 'created', why: `no template at ${missing}` });
    expect(await appliedMigrations(database)).toBe(journalLength(migrationsFolder));
    await database.close();
  }, 120_000);
});

/** The `from` of the "embedded database opened" log line (JSON lines, any key order). */
function openedFrom(output: string): string | undefined {
  for (const line of output.split('\n')) {
    try {
      const entry = JSON.parse(line) as { msg?: string; from?: string };
      if (entry.msg === 'embedded database opened') return entry.from;
    } catch {} // not a log line
  }
  return undefined;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * `npm start` on `dataDir` until /readyz answers 200 (deadline 90 s). `stop()` sends SIGTERM to
 * its process group (npm, its shell, the gateway) and waits until all have exited.
 */
async function npmStart(dataDir: string) {
  const port = await freePort();
  const child: ChildProcess = spawn('npm', ['start', '--silent'], {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: '',
      SWITCHBOARD_ADMIN_TOKEN: '',
      SWITCHBOARD_DATA_DIR: dataDir,
      HOST: '127.0.0.1',
      PORT: String(port),
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout?.on('data', (chunk) => (output += chunk));
  child.stderr?.on('data', (chunk) => (output += chunk));
  // 'close': every process of the group that held its output has exited, the gateway included.
  const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
  let code: number | null | undefined;
  void exited.then((c) => (code = c));
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (code !== undefined) throw new Error(`npm start exited (${code}): ${output}`);
    if (Date.now() > deadline) {
      process.kill(-(child.pid as number), 'SIGTERM');
      throw new Error(`npm start not ready within 90 s: ${output}`);
    }
    const response = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null);
    if (response?.status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return {
    output: () => output,
    async stop() {
      process.kill(-(child.pid as number), 'SIGTERM');
      return exited;
    },
  };
}

pgliteOnly('npm start', () => {
  const bundle = path.join(root, 'dist', 'gateway.js');

  it('rebuilds a bundle older than src/ and says so, reaches /readyz on a fresh data folder, then starts again on it', async () => {
    // Older than every source file: `npm start` must rebuild it before running it.
    utimesSync(bundle, new Date(0), new Date(0));
    const dataDir = mkdtempSync(path.join(scratch, 'npm-start-'));
    const first = await npmStart(dataDir);
    try {
      expect(first.output()).toContain(
        'src/ changed since dist/gateway.js was built: rebuilding it',
      );
      expect(statSync(bundle).mtimeMs).toBeGreaterThan(0);
      // The template that `npm install` made (prepare: scripts/build-gateway.mjs).
      expect(openedFrom(first.output())).toBe('template');
      expect(existsSync(path.join(dataDir, 'admin-token'))).toBe(true);
      expect(openToOthers(dataDir)).toEqual([]);
    } finally {
      await first.stop();
    }
    expect(first.output()).toContain('switchboard stopped');

    const later = await npmStart(dataDir);
    try {
      expect(later.output()).not.toContain('rebuilding');
      expect(openedFrom(later.output())).toBe('existing');
    } finally {
      await later.stop();
    }
    expect(later.output()).toContain('switchboard stopped');
  }, 180_000);
});

describe('npm run demo', () => {
  it('says in one line that its port is taken, and exits 1', async () => {
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as { port: number };
    try {
      const child = spawn('npm', ['run', '--silent', 'demo'], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: '', HOST: '127.0.0.1', PORT: String(port) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk) => (stdout += chunk));
      child.stderr.on('data', (chunk) => (stderr += chunk));
      const code = await new Promise((resolve) => child.once('close', resolve));
      expect(code).toBe(1);
      expect(stdout).toBe('');
      expect(stderr).toBe(
        `switchboard demo: PORT: 127.0.0.1:${port} is already in use; stop the other process or choose another PORT\n`,
      );
    } finally {
      taken.close();
    }
  }, 120_000);
});
