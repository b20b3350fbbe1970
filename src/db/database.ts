import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { ConfigError, type DatabaseSource } from '../config.ts';

/** The one Drizzle type every service receives, whichever driver is underneath. */
export type Db = PgDatabase<PgQueryResultHKT>;
/** A transaction handle; services that write take one so callers can compose writes. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Either the database or a transaction on it: what a read or a single write needs. */
export type Queryable = Db | Tx;

/**
 * An open database: Drizzle for queries plus the two things Drizzle does not cover —
 * LISTEN (the doorbell between instances) and a liveness ping.
 */
export interface Database {
  readonly driver: DatabaseSource['driver'];
  readonly db: Db;
  /**
   * Opens a listening connection of its own for `channel` and resolves once its LISTEN is in
   * place; `onNotify` gets each payload. On Postgres the driver reconnects a dropped
   * connection by itself and calls `onRelisten` when its LISTEN is back (anything sent in
   * between is lost); but a failed re-LISTEN is swallowed and nothing says so, so the doorbell
   * proves the connection with probes and opens a new one (events/doorbell.ts).
   */
  listen(
    channel: string,
    name: string,
    onNotify: (payload: string) => void,
    onRelisten: () => void,
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

export const migrationsFolder = fileURLToPath(new URL('../../drizzle', import.meta.url));

/** Session-level advisory lock key that serializes migrations across gateway instances. */
const MIGRATION_LOCK = 7_340_021;

export interface OpenOptions {
  /** A PGlite data directory dump to start from (tests restore a migrated template). */
  readonly loadDataDir?: Blob;
}

/** Opens the database named by `source` and applies pending migrations. */
export async function openDatabase(
  source: DatabaseSource,
  options: OpenOptions = {},
): Promise<Database> {
  return source.driver === 'postgres'
    ? openPostgres(source.url)
    : openPglite(source.dataDir, options.loadDataDir);
}

/**
 * Seconds before postgres.js tries a dropped connection again: 50 ms doubling to at most
 * 500 ms. Its default grows as 3^retries / 100 up to 20 s, counted over the whole pool, so
 * after a restart of a few seconds the gateway stayed unable to write (and its streams
 * silent) for 10–15 s after the database accepted writes again.
 */
export const reconnectBackoff = (retries: number): number =>
  Math.min(0.05 * 2 ** Math.max(0, retries - 1), 0.5);

async function openPostgres(url: string): Promise<Database> {
  await migrateWithLock(url);
  const max = 10;
  // Named, so that pg_stat_activity tells this instance's pool apart (pool()).
  const name = `switchboard-pool-${randomUUID().slice(0, 8)}`;
  const client = postgres(url, {
    max,
    onnotice: () => {},
    connect_timeout: 10,
    connection: { application_name: name },
    backoff: reconnectBackoff,
  });
  const db = drizzlePostgres(client) as unknown as Db;
  return {
    driver: 'postgres',
    db,
    async listen(channel, name, onNotify, onRelisten) {
      const listener = postgres(url, {
        max: 1,
        onnotice: () => {},
        connect_timeout: 5,
        backoff: reconnectBackoff,
        connection: { application_name: name },
      });
      try {
        let first = true;
        await listener.listen(channel, onNotify, () => {
          if (!first) onRelisten();
          first = false;
        });
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

/** Runs migrations on one dedicated connection holding an advisory lock, so instances starting together do not race. */
async function migrateWithLock(url: string): Promise<void> {
  const client = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 10 });
  try {
    await client`select 1`.catch((error: unknown) => {
      throw new ConfigError(
        `DATABASE_URL: cannot use the database (${describeConnectError(error)})`,
      );
    });
    await client`select pg_advisory_lock(${MIGRATION_LOCK})`;
    await migratePostgres(drizzlePostgres(client), { migrationsFolder });
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

async function openPglite(
  dataDir: string | null,
  loadDataDir: Blob | undefined,
): Promise<Database> {
  let unlock = () => {};
  if (dataDir !== null) {
    ensureWritableFolder(dataDir);
    unlock = lockDataDir(dataDir);
  }
  let client: PGlite;
  try {
    client = await createMigratedPglite(dataDir, loadDataDir);
  } catch (error) {
    unlock();
    throw error;
  }
  const db = drizzlePglite(client) as unknown as Db;
  return {
    driver: 'pglite',
    db,
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
      fs.writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
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

/** PGlite on disk (or in memory when `dataDir` is null), with every migration applied. */
export async function createMigratedPglite(
  dataDir: string | null,
  loadDataDir?: Blob,
): Promise<PGlite> {
  const client = await PGlite.create({ dataDir: dataDir ?? undefined, loadDataDir });
  await migratePglite(drizzlePglite(client), { migrationsFolder });
  return client;
}

export function ensureWritableFolder(folder: string): void {
  try {
    fs.mkdirSync(folder, { recursive: true });
    fs.accessSync(folder, fs.constants.R_OK | fs.constants.W_OK);
    if (!fs.statSync(folder).isDirectory()) throw new Error('not a folder');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new ConfigError(
      `SWITCHBOARD_DATA_DIR: cannot use "${folder}" as the data folder (${reason}); point it at a writable folder`,
    );
  }
}
