import path from 'node:path';

/** Where the data lives: a real Postgres, or embedded PGlite on disk or in memory. */
export type DatabaseSource =
  | { readonly driver: 'postgres'; readonly url: string }
  | { readonly driver: 'pglite'; readonly dataDir: string | null };

export interface Config {
  readonly host: string;
  readonly port: number;
  readonly database: DatabaseSource;
  /** Folder for the embedded database and the generated admin token. */
  readonly dataDir: string;
  /** The operator's token from SWITCHBOARD_ADMIN_TOKEN; null means "generate one in dataDir". */
  readonly adminToken: string | null;
  /** GraphiQL and introspection; off for production. */
  readonly exploration: boolean;
  readonly maxBodyBytes: number;
  /** Attention rollup: a claim with no advancement for this long is STALE_CLAIM. */
  readonly staleClaimMs: number;
  readonly logLevel: LogLevel;
  /** How often the doorbell proves it listens; while deaf, how often streams poll (ms). */
  readonly doorbellProbeMs: number;
  /** SWITCHBOARD_RESPONSE_CACHE: answers to reads of an unchanged goal kept in memory (default on). */
  readonly responseCache?: boolean;
}

export const logLevels = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

/** A configuration mistake, with a message a person can act on. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

const MEMORY = 'memory:';

/**
 * Reads the environment once at start-up. Every problem is reported as one line naming the
 * variable and what would fix it.
 */
export function loadConfig(env: NodeJS.ProcessEnv): Config {
  const dataDir = path.resolve(env.SWITCHBOARD_DATA_DIR || '.switchboard');
  return {
    host: env.HOST || '127.0.0.1',
    port: parsePort(env.PORT),
    database: parseDatabase(env.DATABASE_URL, env.SWITCHBOARD_DATA_DIR, dataDir),
    dataDir,
    adminToken: parseAdminToken(env.SWITCHBOARD_ADMIN_TOKEN),
    exploration: parseFlag('SWITCHBOARD_EXPLORATION', env.SWITCHBOARD_EXPLORATION, true),
    responseCache: parseFlag('SWITCHBOARD_RESPONSE_CACHE', env.SWITCHBOARD_RESPONSE_CACHE, true),
    maxBodyBytes: parseInteger(
      'SWITCHBOARD_MAX_BODY_BYTES',
      env.SWITCHBOARD_MAX_BODY_BYTES,
      1_000_000,
    ),
    staleClaimMs: parseInteger(
      'SWITCHBOARD_STALE_CLAIM_MS',
      env.SWITCHBOARD_STALE_CLAIM_MS,
      3_600_000,
    ),
    logLevel: parseLogLevel(env.LOG_LEVEL),
    doorbellProbeMs: parseInteger(
      'SWITCHBOARD_DOORBELL_PROBE_MS',
      env.SWITCHBOARD_DOORBELL_PROBE_MS,
      1000,
    ),
  };
}

function parsePort(value: string | undefined): number {
  if (value === undefined || value === '') return 4000;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`PORT must be an integer from 0 to 65535, got "${value}"`);
  }
  return port;
}

function parseDatabase(
  url: string | undefined,
  rawDataDir: string | undefined,
  dataDir: string,
): DatabaseSource {
  if (url) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new ConfigError(
        'DATABASE_URL is not a valid URL: expected postgres://user:password@host:5432/database',
      );
    }
    if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
      throw new ConfigError(
        `DATABASE_URL must start with postgres:// or postgresql://, got "${parsed.protocol}//"`,
      );
    }
    if (!parsed.hostname || parsed.pathname.length <= 1) {
      throw new ConfigError(
        'DATABASE_URL must name a host and a database: postgres://user@host:5432/database',
      );
    }
    return { driver: 'postgres', url };
  }
  return { driver: 'pglite', dataDir: rawDataDir === MEMORY ? null : dataDir };
}

function parseAdminToken(value: string | undefined): string | null {
  if (value === undefined || value === '') return null;
  if (value.length < 24) {
    throw new ConfigError('SWITCHBOARD_ADMIN_TOKEN must be at least 24 characters long');
  }
  return value;
}

function parseFlag(name: string, value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  if (['1', 'true', 'on', 'yes'].includes(value)) return true;
  if (['0', 'false', 'off', 'no'].includes(value)) return false;
  throw new ConfigError(`${name} must be true or false, got "${value}"`);
}

function parseInteger(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed <= 0) {
    throw new ConfigError(`${name} must be a positive integer, got "${value}"`);
  }
  return parsed;
}

function parseLogLevel(value: string | undefined): LogLevel {
  if (value === undefined || value === '') return 'info';
  if (!(logLevels as readonly string[]).includes(value)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${logLevels.join(', ')}, got "${value}"`);
  }
  return value as LogLevel;
}
