import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { ConfigError, type DatabaseSource } from '../config.ts';
import { ROOT } from '../root.ts';
import { DataFolderFS, ensureDataFolder, isPrivate } from './data-folder.ts';

/** The one Drizzle type every service receives, whichever driver is underneath. */
export type Db = PgDatabase<PgQueryResultHKT>;
/** A transaction handle; services that write take one so callers can compose writes. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Either the database or a transaction on it: what a read or a single write needs. */
export type Queryable = Db | Tx;

/**
 * How a commit's rings leave it (events/doorbell.ts `ringSql`): `notify`, by `pg_notify` in the
 * transaction, which Postgres delivers when it commits; `returned`, in the column RING_COLUMN of
 * the statement that writes them, handed to `onCommit` handlers once the transaction committed
 * (the doorbell on NATS), with no NOTIFY sent.
 */
export type Rings = 'notify' | 'returned';

/** The column of a statement's result that carries its ring (null when it was sent by NOTIFY). */
export const RING_COLUMN = 'switchboard_ring';
/** The setting that tells `ringSql` in the database how rings leave (`returned` or unset). */
export const RINGS_SETTING = 'switchboard.rings';

/**
 * An open database: Drizzle for queries plus the things Drizzle does not cover — LISTEN (the
 * doorbell between instances), rings handed over after commit, and a liveness ping.
 */
export interface Database {
  readonly driver: DatabaseSource['driver'];
  readonly db: Db;
  readonly rings: Rings;
  /**
   * With `rings: 'returned'`, calls `handler` with the rings of each commit, after it: a
   * transaction's once it committed, a single statement's once it returned. A rolled-back
   * transaction hands over nothing.
   */
  onCommit(handler: (rings: readonly string[]) => void): () => void;
  /**
   * Opens a listening connection of its own for `channel` and resolves once its LISTEN is in
   * place; `onNotify` gets each payload. On Postgres the connection is never reconnected
   * behind the caller's back (postgres.js' own re-LISTEN swallows failures): `onClose` says
   * it is gone, at once, and the doorbell opens a new one (events/doorbell.ts).
   */
  listen(
    channel: string,
    name: string,
    onNotify: (payload: string) => void,
    onClose: () => void,
  ): Promise<Listener>;
  /** Sends a NOTIFY outside any transaction (the doorbell's probes). */
  notify(channel: string, payload: string): Promise<void>;
  ping(): Promise<void>;
  /** The query pool of this instance: its size, and its connections open and busy now. */
  pool(): Promise<PoolFigures>;
  close(): Promise<void>;
}

export interface PoolFigures {
  readonly max: number;
  readonly open: number;
  readonly busy: number;
}

/** A listening connection, named by its `application_name` on Postgres. */
export interface Listener {
  readonly name: string;
  close(): Promise<void>;
}

export const migrationsFolder = path.join(ROOT, 'drizzle');

/**
 * The pre-migrated embedded database that `npm install` (scripts/build-gateway.mjs) makes: a
 * first start copies it instead of creating a database, which costs seconds.
 */
export const pgliteTemplate = path.join(ROOT, 'dist', 'pglite-template');

/** Session-level advisory lock key that serializes migrations across gateway instances. */
const MIGRATION_LOCK = 7_340_021;

export interface OpenOptions {
  /** A PGlite data directory dump to start from (tests restore a migrated template). */
  readonly loadDataDir?: Blob;
  /** The migrations to apply; the repository's drizzle/ folder unless told (tests). */
  readonly migrationsFolder?: string;
  /**
   * A template made by writePgliteTemplate for a first start on disk (`pgliteTemplate`
   * unless told; null: none). Used only when its migrations are the first of ours.
   */
  readonly template?: string | null;
  /** Says which way the embedded database was opened (fresh, template, resumed). */
  readonly onOpen?: (how: PgliteOpening) => void;
  /** How commits ring (default `notify`); `returned` needs Postgres. */
  readonly rings?: Rings;
}

/** How openDatabase found the embedded database, for the start-up log. */
export type PgliteOpening =
  | { readonly from: 'existing' | 'memory' | 'dump' }
  | { readonly from: 'template'; readonly pendingMigrations: number }
  | { readonly from: 'created'; readonly why: string };

/** Opens the database named by `source` and applies pending migrations. */
export async function openDatabase(
  source: DatabaseSource,
  options: OpenOptions = {},
): Promise<Database> {
  const rings = options.rings ?? 'notify';
  if (source.driver === 'postgres')
    return openPostgres(source.url, options.migrationsFolder ?? migrationsFolder, rings);
  if (rings !== 'notify') {
    throw new ConfigError(
      'SWITCHBOARD_DOORBELL: a doorbell other than postgres needs DATABASE_URL (a Postgres several instances share); the embedded database has one instance, whose own LISTEN is its doorbell',
    );
  }
  return openPglite(source.dataDir, options);
}

/**
 * Seconds before postgres.js tries a dropped connection again: 50 ms doubling to at most
 * 250 ms. Its default grows as 3^retries / 100 up to 20 s, counted over the whole pool, so
 * after a restart of a few seconds the gateway stayed unable to write (and its streams
 * silent) for 10–15 s after the database accepted writes again.
 */
export const reconnectBackoff = (retries: number): number =>
  Math.min(0.05 * 2 ** Math.max(0, retries - 1), 0.25);

async function openPostgres(url: string, folder: string, rings: Rings): Promise<Database> {
  await migrateWithLock(url, folder);
  const max = 10;
  // Named, so that pg_stat_activity tells this instance's pool apart (pool()).
  const name = `switchboard-pool-${randomUUID().slice(0, 8)}`;
  const client = postgres(url, {
    max,
    onnotice: () => {},
    connect_timeout: 10,
    connection: {
      application_name: name,
      ...(rings === 'returned' ? { [RINGS_SETTING]: 'returned' } : {}),
    },
    backoff: reconnectBackoff,
  });
  const handlers = new Set<(rings: readonly string[]) => void>();
  const committed = (rings: readonly string[]) => {
    for (const handler of handlers) handler(rings);
  };
  const db = drizzlePostgres(
    preparing(client, rings === 'returned' ? committed : null),
  ) as unknown as Db;
  return {
    driver: 'postgres',
    db,
    rings,
    onCommit(handler) {
      handlers.add(handler);
      return () => handlers.delete(handler);
    },
    async listen(channel, name, onNotify, onClose) {
      // One connection, LISTEN sent as a plain query rather than through sql.listen(), so that
      // its close reaches onClose instead of a silent reconnect; no lifetime limits, so it
      // closes only when something is wrong.
      // onnotify is a postgres.js option its type declarations leave out.
      const notifications = {
        onnotify: (from: string, payload: string) => {
          if (from === channel) onNotify(payload);
        },
      };
      const listener = postgres(url, {
        max: 1,
        max_lifetime: null,
        fetch_types: false,
        onnotice: () => {},
        connect_timeout: 5,
        connection: { application_name: name },
        onclose: onClose,
        ...notifications,
      });
      try {
        await listener.unsafe(`listen "${channel.replaceAll('"', '""')}"`);
      } catch (error) {
        await listener.end({ timeout: 0 });
        throw error;
      }
      return { name, close: () => listener.end({ timeout: 0 }) };
    },
    async notify(channel, payload) {
      await client`select pg_notify(${channel}, ${payload})`;
    },
    async ping() {
      await client`select 1`;
    },
    async pool() {
      // The connection asking is busy only with this question: it counts as idle.
      const [row] = await client<{ open: number; busy: number }[]>`
        select count(*)::int as open,
          count(*) filter (where state <> 'idle' and pid <> pg_backend_pid())::int as busy
        from pg_stat_activity where application_name = ${name}`;
      return { max, open: row?.open ?? 0, busy: row?.busy ?? 0 };
    },
    async close() {
      await client.end({ timeout: 5 });
    },
  };
}

type Sql = postgres.Sql | postgres.TransactionSql;
/** Where the rings a statement returned go: straight out, or held until its transaction ends. */
type RingSink = (rings: readonly string[]) => void;

/**
 * The client as Drizzle should see it: every statement it sends is a named prepared statement
 * of its connection. Drizzle prepares only queries given a name, and postgres.js sends an
 * unprepared statement with parameters in two round trips (parse and describe, then bind and
 * execute), so this halves the round trips of nearly every query once a connection has seen
 * it (Drizzle asks for `prepare: false` on every unnamed query: that is overridden).
 * Transactions and savepoints hand their callbacks a client that prepares too.
 *
 * With a `sink` (rings returned), the rings of a statement that carries RING_COLUMN go to it:
 * outside a transaction once the statement returned (it committed), inside one once the
 * transaction committed (a savepoint's join its transaction's when it is released).
 */
function preparing<T extends Sql>(sql: T, sink: RingSink | null): T {
  return new Proxy(sql, {
    get(target, property) {
      if (property === 'unsafe') {
        return (query: string, parameters?: postgres.ParameterOrJSON<never>[], options = {}) => {
          const pending = target.unsafe(query, parameters, { ...options, prepare: true });
          return sink && query.includes(RING_COLUMN) ? collectingRings(pending, sink) : pending;
        };
      }
      if (property === 'begin' || property === 'savepoint') {
        return (...args: unknown[]) => {
          const callback = args.pop() as (tx: postgres.TransactionSql) => unknown;
          const held: string[] = [];
          const run = (Reflect.get(target, property) as (...a: unknown[]) => Promise<unknown>)(
            ...args,
            (tx: postgres.TransactionSql) =>
              callback(preparing(tx, sink && ((rings) => held.push(...rings)))),
          );
          if (!sink) return run;
          return run.then((result) => {
            if (held.length > 0) sink(held);
            return result;
          });
        };
      }
      return Reflect.get(target, property);
    },
  });
}

/**
 * A pending postgres.js query whose result's rings go to `sink` before its caller sees it.
 * `values()` and `raw()` switch the query's row format and return it: they return this proxy.
 */
function collectingRings<Q extends Promise<unknown>>(query: Q, sink: RingSink): Q {
  const proxy: Q = new Proxy(query, {
    get(target, property) {
      if (property === 'values' || property === 'raw') {
        return () => {
          (Reflect.get(target, property) as () => unknown).call(target);
          return proxy;
        };
      }
      if (property === 'then') {
        return (resolve: (value: unknown) => unknown, reject: (error: unknown) => unknown) =>
          target
            .then((result) => {
              sink(ringsOf(result as postgres.RowList<postgres.Row[]>));
              return result;
            })
            .then(resolve, reject);
      }
      const value = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return proxy;
}

/** The rings in a result: its RING_COLUMN's values, rows as objects or as arrays. */
function ringsOf(result: postgres.RowList<postgres.Row[]>): string[] {
  const column = result.columns?.findIndex((c) => c.name === RING_COLUMN) ?? -1;
  if (column < 0) return [];
  const rings: string[] = [];
  for (const row of result as unknown as (postgres.Row | unknown[])[]) {
    const ring = Array.isArray(row) ? row[column] : (row as postgres.Row)[RING_COLUMN];
    if (typeof ring === 'string') rings.push(ring);
  }
  return rings;
}

/** Runs migrations on one dedicated connection holding an advisory lock, so instances starting together do not race. */
async function migrateWithLock(url: string, folder: string): Promise<void> {
  const client = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 10 });
  try {
    await client`select 1`.catch((error: unknown) => {
      throw new ConfigError(
        `DATABASE_URL: cannot use the database (${describeConnectError(error)})`,
      );
    });
    await client`select pg_advisory_lock(${MIGRATION_LOCK})`;
    await migratePostgres(drizzlePostgres(client), { migrationsFolder: folder });
    await client`select pg_advisory_unlock(${MIGRATION_LOCK})`;
  } finally {
    await client.end({ timeout: 5 });
  }
}

function describeConnectError(error: unknown): string {
  if (error && typeof error === 'object') {
    const { code, message } = error as { code?: string; message?: string };
    if (code === 'ECONNREFUSED')
      return 'connection refused: is Postgres running at that host and port?';
    if (code === 'ENOTFOUND') return 'host not found';
    if (code === '3D000') return message ?? 'database does not exist';
    if (code === '28P01' || code === '28000') return 'authentication failed';
    if (message) return message;
  }
  return String(error);
}

async function openPglite(dataDir: string | null, options: OpenOptions): Promise<Database> {
  const folder = options.migrationsFolder ?? migrationsFolder;
  let unlock = () => {};
  if (dataDir !== null) {
    ensureDataFolder(dataDir);
    unlock = lockDataDir(dataDir);
  }
  let client: PGlite;
  try {
    let opening: PgliteOpening;
    if (options.loadDataDir) opening = { from: 'dump' };
    else if (dataDir === null) opening = { from: 'memory' };
    else if (fs.existsSync(path.join(dataDir, 'PG_VERSION'))) opening = { from: 'existing' };
    else opening = restoreTemplate(options.template ?? pgliteTemplate, dataDir, folder);
    client = await createMigratedPglite(dataDir, options.loadDataDir, folder);
    options.onOpen?.(opening);
  } catch (error) {
    unlock();
    throw error;
  }
  const db = drizzlePglite(client) as unknown as Db;
  return {
    driver: 'pglite',
    db,
    rings: 'notify',
    onCommit: () => () => {},
    async listen(channel, name, onNotify) {
      const unlisten = await client.listen(channel, onNotify);
      return { name, close: () => unlisten() };
    },
    async notify(channel, payload) {
      await client.query('select pg_notify($1, $2)', [channel, payload]);
    },
    async ping() {
      await client.query('select 1');
    },
    async pool() {
      return { max: 1, open: 1, busy: 0 }; // one in-process connection, queries take turns
    },
    async close() {
      if (!client.closed) await client.close();
      unlock();
    },
  };
}

/**
 * The embedded database has one writer: a lock file in its folder names the process that
 * holds it. A second gateway on the same folder (even in the same process) refuses to start;
 * a lock left by a process that is gone (kill -9) is taken over. Returns the release.
 */
function lockDataDir(dataDir: string): () => void {
  const file = path.join(dataDir, 'switchboard.lock');
  for (;;) {
    try {
      fs.writeFileSync(file, `${process.pid}\n`, { flag: 'wx', mode: 0o600 });
      return () => fs.rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number.parseInt(fs.readFileSync(file, 'utf8'), 10);
    if (Number.isInteger(holder) && isAlive(holder)) {
      throw new ConfigError(
        `SWITCHBOARD_DATA_DIR: the embedded database in "${dataDir}" is in use by process ${holder}; stop that gateway, or give this one another SWITCHBOARD_DATA_DIR or a DATABASE_URL`,
      );
    }
    fs.rmSync(file, { force: true }); // its process is gone
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * The embedded database's buffer pool. Postgres's default (128MB) is set up inside
 * WebAssembly on every open: opening an existing data folder took 910 ms with it and 592 ms
 * with 32MB (medians of 5 on a 2-core machine), and the process held 290 MB resident against
 * 194 MB. A miss reads the data folder's file through the OS cache; an embedded goal's
 * working set fits in 32MB.
 */
const PGLITE_SHARED_BUFFERS = '32MB';

/**
 * How PGlite starts Postgres on disk: its own parameters without `-F` (fsync=off), so a commit
 * returns once its WAL record is flushed, as Postgres promises; `wal_sync_method=fsync`
 * because Emscripten's fdatasync does nothing (DataFolderFS gives its fsync a real flush).
 * In memory nothing outlives the process, so PGlite's parameters stay as they are.
 */
const DURABLE_START_PARAMS = [
  ...PGlite.defaultStartParams.filter((param) => param !== '-F'),
  '-c',
  'wal_sync_method=fsync',
];

/**
 * PGlite on disk, private and durable (or in memory when `dataDir` is null), with every
 * migration applied. Drizzle applies those newer than the last one the database recorded, so a
 * data folder (or a restored template) from an older migration set is brought up to date here.
 */
export async function createMigratedPglite(
  dataDir: string | null,
  loadDataDir?: Blob,
  folder = migrationsFolder,
): Promise<PGlite> {
  const client = await PGlite.create({
    ...(dataDir === null ? {} : { fs: new DataFolderFS(dataDir) }),
    loadDataDir,
    startParams: [
      ...(dataDir === null ? PGlite.defaultStartParams : DURABLE_START_PARAMS),
      '-c',
      `shared_buffers=${PGLITE_SHARED_BUFFERS}`,
    ],
  });
  await migratePglite(drizzlePglite(client), { migrationsFolder: folder });
  return client;
}

/** A migration set as drizzle reads it: each migration's time and the hash of its SQL. */
function migrationSet(folder: string): string[] {
  return readMigrationFiles({ migrationsFolder: folder }).map(
    (migration) => `${migration.folderMillis}:${migration.hash}`,
  );
}

const TEMPLATE_DATA = 'pgdata';
const TEMPLATE_STAMP = 'migrations.json';

/**
 * Makes a template for first starts: a fresh PGlite with every migration in `folder` applied,
 * at `template`/pgdata, and the migration set it holds in `template`/migrations.json. Written
 * beside and renamed into place, so a reader never sees half a template.
 */
export async function writePgliteTemplate(
  template: string,
  folder = migrationsFolder,
): Promise<void> {
  const partial = `${template}.partial-${process.pid}`;
  fs.rmSync(partial, { recursive: true, force: true });
  fs.mkdirSync(partial, { recursive: true, mode: 0o700 });
  const client = await createMigratedPglite(path.join(partial, TEMPLATE_DATA), undefined, folder);
  await client.close();
  fs.writeFileSync(
    path.join(partial, TEMPLATE_STAMP),
    `${JSON.stringify(migrationSet(folder))}\n`,
    { mode: 0o600 },
  );
  const old = `${template}.old-${process.pid}`;
  if (fs.existsSync(template)) fs.renameSync(template, old);
  fs.renameSync(partial, template);
  fs.rmSync(old, { recursive: true, force: true });
}

/** Whether the template at `template` holds exactly the migrations of `folder`, privately. */
export function pgliteTemplateIsCurrent(template: string, folder = migrationsFolder): boolean {
  const held = readTemplateStamp(template);
  const current = migrationSet(folder);
  return (
    held !== null &&
    held.length === current.length &&
    isPrefix(held, current) &&
    isPrivate(path.join(template, TEMPLATE_DATA))
  );
}

function readTemplateStamp(template: string): string[] | null {
  try {
    const held = JSON.parse(fs.readFileSync(path.join(template, TEMPLATE_STAMP), 'utf8'));
    if (!fs.existsSync(path.join(template, TEMPLATE_DATA, 'PG_VERSION'))) return null;
    return Array.isArray(held) ? (held as string[]) : null;
  } catch {
    return null;
  }
}

const isPrefix = (held: string[], current: string[]) =>
  held.length <= current.length && held.every((migration, i) => migration === current[i]);

/**
 * A first start on disk: copies the template into `dataDir` when its migrations are the first
 * of `folder`'s (the ones it lacks are applied after) and its files are private (the copy keeps
 * their modes: 0700 and 0600); otherwise leaves the folder for PGlite to create. PG_VERSION,
 * which marks a data directory as complete, is copied last through a rename, so a copy cut
 * short is redone on the next start rather than opened.
 */
function restoreTemplate(template: string, dataDir: string, folder: string): PgliteOpening {
  const held = readTemplateStamp(template);
  if (held === null) return { from: 'created', why: `no template at ${template}` };
  const current = migrationSet(folder);
  if (!isPrefix(held, current))
    return { from: 'created', why: 'the template was made from other migrations' };
  const source = path.join(template, TEMPLATE_DATA);
  if (!isPrivate(source))
    return { from: 'created', why: 'the template is open to group or others' };
  for (const entry of fs.readdirSync(source)) {
    if (entry === 'PG_VERSION') continue;
    fs.cpSync(path.join(source, entry), path.join(dataDir, entry), { recursive: true });
  }
  const marker = path.join(dataDir, `PG_VERSION.partial-${process.pid}`);
  fs.copyFileSync(path.join(source, 'PG_VERSION'), marker);
  fs.renameSync(marker, path.join(dataDir, 'PG_VERSION'));
  return { from: 'template', pendingMigrations: current.length - held.length };
}
