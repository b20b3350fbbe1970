import fs from 'node:fs';
import path from 'node:path';

/** Where the data lives: a real Postgres, or embedded PGlite on disk or in memory. */
export type DatabaseSource =
  | { readonly driver: 'postgres'; readonly url: string }
  | { readonly driver: 'pglite'; readonly dataDir: string | null };

/**
 * What carries rings between gateway instances: Postgres LISTEN/NOTIFY, or a NATS server
 * (its URL, as `nats://host:port`, several comma-separated for a cluster).
 */
export type DoorbellBus = 'postgres' | { readonly nats: string };

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
  /** SWITCHBOARD_DOORBELL: LISTEN/NOTIFY (`postgres`, the default) or a NATS server. */
  readonly doorbell?: DoorbellBus;
  /** Where `/metrics` is served: on the main port, on a listener of its own, or not at all. */
  readonly metrics: MetricsListen;
  /** Browser origins other than the gateway's own that may call it (CORS); none by default. */
  readonly corsOrigins: readonly string[];
  /** On SIGTERM, how long `/readyz` answers 503 while requests are still served (ms). */
  readonly drainMs: number;
  /** SWITCHBOARD_RESPONSE_CACHE: answers to reads of an unchanged goal kept in memory (default on). */
  readonly responseCache?: boolean;
  /** OpenTelemetry traces over OTLP/HTTP; null (the default) when no endpoint is configured. */
  readonly tracing?: TracingConfig | null;
  /** Limits per caller and per operation; each one left out has its default (DEFAULT_LIMITS). */
  readonly limits?: Partial<Limits>;
  /** What the retention sweep keeps; each one left out has its default (DEFAULT_RETENTION). */
  readonly retention?: Partial<Retention>;
}

// ---- retention (docs/operations.md, "Retention") ----

/**
 * How much history the retention sweep keeps (0 keeps everything of that kind). Nothing an
 * open wait, an unprocessed message or the inbox's active message needs is removed, and a
 * stream resumed from before what is kept ends with a RetentionGap naming where to resume.
 */
export interface Retention {
  /** Presence changes kept per goal, the newest ones (a count: it bounds a busy goal too). */
  readonly presenceChangesPerGoal: number;
  /** How long a finished wait is kept after it settled (ms). */
  readonly finishedWaitsMs: number;
  /** How long a message is kept after its recipient processed it, once its outcome is final (ms). */
  readonly processedMessagesMs: number;
}

export const DEFAULT_RETENTION: Retention = {
  presenceChangesPerGoal: 100_000,
  finishedWaitsMs: 7 * 86_400_000,
  processedMessagesMs: 30 * 86_400_000,
};

export function retentionOf(config: Pick<Config, 'retention'>): Retention {
  return { ...DEFAULT_RETENTION, ...config.retention };
}

function parseRetention(env: NodeJS.ProcessEnv): Retention {
  const count = env.SWITCHBOARD_RETAIN_PRESENCE_CHANGES || undefined;
  if (count !== undefined && !/^\d+$/.test(count)) {
    throw new ConfigError(
      `SWITCHBOARD_RETAIN_PRESENCE_CHANGES must be a count of changes per goal (0 keeps all), got "${count}"`,
    );
  }
  return {
    presenceChangesPerGoal:
      count === undefined ? DEFAULT_RETENTION.presenceChangesPerGoal : Number(count),
    finishedWaitsMs: parseAge(
      'SWITCHBOARD_RETAIN_FINISHED_WAITS',
      env.SWITCHBOARD_RETAIN_FINISHED_WAITS,
      DEFAULT_RETENTION.finishedWaitsMs,
    ),
    processedMessagesMs: parseAge(
      'SWITCHBOARD_RETAIN_PROCESSED_MESSAGES',
      env.SWITCHBOARD_RETAIN_PROCESSED_MESSAGES,
      DEFAULT_RETENTION.processedMessagesMs,
    ),
  };
}

const AGE_UNITS: Record<string, number> = { m: 60_000, h: 3_600_000, d: 86_400_000 };

/** An age with its unit (90m, 12h, 30d), or 0 to keep everything. */
function parseAge(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined || value === '') return fallback;
  if (value === '0') return 0;
  const match = /^(\d+)(m|h|d)$/.exec(value);
  if (!match) {
    throw new ConfigError(
      `${name} must be an age with its unit (90m, 12h, 30d) or 0 to keep everything, got "${value}"`,
    );
  }
  return Number(match[1]) * (AGE_UNITS[match[2] as string] as number);
}

// ---- end of retention ----

// ---- limits per caller and per operation (docs/operations.md, "Limits") ----

/**
 * What no one caller may exceed. Each is a count; 0 means no limit. The operator token (no
 * credential row) is not limited per caller: the per-credential limits and the socket's
 * subscriptions do not apply to it; the response size and failed authentications do.
 */
export interface Limits {
  /** Open subscriptions on one graphql-ws socket. */
  readonly subscriptionsPerSocket: number;
  /** Open graphql-ws sockets of one credential on one instance. */
  readonly socketsPerCredential: number;
  /** The largest answer an operation may have, estimated from its document before it runs (bytes). */
  readonly responseBytes: number;
  /** Operations per second of one credential on one instance (HTTP requests and socket operations). */
  readonly requestsPerSecond: number;
  /** Failed authentications per minute from one client address; past it, for a minute, tokens this instance has not seen valid are refused unchecked. */
  readonly failedAuthsPerMinute: number;
  /** Pending waits (not yet settled, deadline not passed) one credential has started. */
  readonly pendingWaits: number;
}

export const DEFAULT_LIMITS: Limits = {
  subscriptionsPerSocket: 100,
  socketsPerCredential: 50,
  responseBytes: 16_000_000,
  requestsPerSecond: 100,
  failedAuthsPerMinute: 30,
  pendingWaits: 500,
};

/** The limits in force: the configured ones, the defaults for the rest. */
export function limitsOf(config: Pick<Config, 'limits'>): Limits {
  return { ...DEFAULT_LIMITS, ...config.limits };
}

const LIMIT_VARIABLES: Record<keyof Limits, string> = {
  subscriptionsPerSocket: 'SWITCHBOARD_MAX_SUBSCRIPTIONS_PER_SOCKET',
  socketsPerCredential: 'SWITCHBOARD_MAX_SOCKETS_PER_CREDENTIAL',
  responseBytes: 'SWITCHBOARD_MAX_RESPONSE_BYTES',
  requestsPerSecond: 'SWITCHBOARD_MAX_REQUESTS_PER_SECOND',
  failedAuthsPerMinute: 'SWITCHBOARD_MAX_FAILED_AUTHS_PER_MINUTE',
  pendingWaits: 'SWITCHBOARD_MAX_PENDING_WAITS',
};

function parseLimits(env: NodeJS.ProcessEnv): Limits {
  const limits = { ...DEFAULT_LIMITS };
  for (const [key, name] of Object.entries(LIMIT_VARIABLES) as [keyof Limits, string][]) {
    const value = env[name];
    if (value === undefined || value === '') continue;
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < 0) {
      throw new ConfigError(`${name} must be an integer, 0 for no limit, got "${value}"`);
    }
    limits[key] = parsed;
  }
  return limits;
}

// ---- end of limits ----

export interface TracingConfig {
  /** The OTLP/HTTP traces endpoint, e.g. http://127.0.0.1:4318/v1/traces. */
  readonly url: string;
  readonly serviceName: string;
}

export type MetricsListen =
  | { readonly serve: 'off' }
  | { readonly serve: 'main' }
  | { readonly serve: 'own'; readonly host: string; readonly port: number };

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
    adminToken: parseAdminToken(env.SWITCHBOARD_ADMIN_TOKEN, env.SWITCHBOARD_ADMIN_TOKEN_FILE),
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
    doorbell: parseDoorbell(env.SWITCHBOARD_DOORBELL, env.DATABASE_URL),
    metrics: parseMetrics(env.SWITCHBOARD_METRICS),
    corsOrigins: parseOrigins(env.SWITCHBOARD_CORS_ORIGINS),
    drainMs: parseDrain(env.SWITCHBOARD_DRAIN_MS),
    tracing: parseTracing(env),
    limits: parseLimits(env),
    retention: parseRetention(env),
  };
}

/**
 * Tracing is on when the standard OpenTelemetry variables name an OTLP endpoint:
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as it is, or OTEL_EXPORTER_OTLP_ENDPOINT with
 * `/v1/traces` after it; OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none turn it off.
 */
function parseTracing(env: NodeJS.ProcessEnv): TracingConfig | null {
  if (env.OTEL_SDK_DISABLED === 'true' || env.OTEL_TRACES_EXPORTER === 'none') return null;
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT;
  const [name, url] = traces
    ? ['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', traces]
    : base
      ? ['OTEL_EXPORTER_OTLP_ENDPOINT', `${base.replace(/\/$/, '')}/v1/traces`]
      : [null, null];
  if (name === null) return null;
  let parsed: URL | null = null;
  try {
    parsed = new URL(url);
  } catch {}
  if (!parsed || !/^https?:$/.test(parsed.protocol)) {
    throw new ConfigError(
      `${name} must be an http(s) URL of an OTLP/HTTP collector such as http://127.0.0.1:4318, got "${traces ?? base}"`,
    );
  }
  return { url, serviceName: env.OTEL_SERVICE_NAME || 'switchboard' };
}

/** A comma-separated list of origins (`scheme://host[:port]`, no path), each checked. */
function parseOrigins(value: string | undefined): string[] {
  if (value === undefined || value.trim() === '') return [];
  return value.split(',').map((raw) => {
    const origin = raw.trim().replace(/\/$/, '');
    let parsed: URL | null = null;
    try {
      parsed = new URL(origin);
    } catch {}
    if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.origin !== origin) {
      throw new ConfigError(
        `SWITCHBOARD_CORS_ORIGINS must be a comma-separated list of origins such as https://dashboard.example.com or http://127.0.0.1:5173 (scheme, host and port, no path), got "${raw.trim()}"`,
      );
    }
    return origin;
  });
}

const METRICS_HELP =
  'SWITCHBOARD_METRICS must be on (/metrics on the main port), off, a port (9464) or host:port (127.0.0.1:9464)';

function parseMetrics(value: string | undefined): MetricsListen {
  if (value === undefined || value === '' || value === 'on') return { serve: 'main' };
  if (value === 'off') return { serve: 'off' };
  const match = /^(?:(\[[0-9a-fA-F:]+\]|[A-Za-z0-9.-]+):)?(\d{1,5})$/.exec(value);
  const port = Number(match?.[2]);
  if (!match || port > 65535) throw new ConfigError(`${METRICS_HELP}, got "${value}"`);
  return { serve: 'own', host: match[1]?.replace(/^\[|\]$/g, '') ?? '127.0.0.1', port };
}

/**
 * SWITCHBOARD_DOORBELL: `postgres` (or unset) or NATS servers (`nats://127.0.0.1:4222`, a
 * comma-separated list for a cluster). NATS needs DATABASE_URL: the embedded database serves one
 * instance, whose own LISTEN is all the doorbell it needs.
 */
export function parseDoorbell(
  value: string | undefined,
  databaseUrl: string | undefined,
): DoorbellBus {
  const raw = value?.trim() ?? '';
  if (raw === '' || raw === 'postgres') return 'postgres';
  const servers = raw.split(',').map((s) => s.trim());
  const valid = servers.every((server) => {
    try {
      const url = new URL(server);
      return url.protocol === 'nats:' && url.hostname !== '' && url.pathname === '';
    } catch {
      return false;
    }
  });
  if (!valid) {
    throw new ConfigError(
      `SWITCHBOARD_DOORBELL must be postgres or a NATS server such as nats://127.0.0.1:4222 (several comma-separated for a cluster), got "${raw}"`,
    );
  }
  if (!databaseUrl) {
    throw new ConfigError(
      'SWITCHBOARD_DOORBELL=nats://… needs DATABASE_URL: the embedded database serves one instance, whose own LISTEN is its doorbell',
    );
  }
  return { nats: servers.join(',') };
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

/**
 * The operator's token from SWITCHBOARD_ADMIN_TOKEN, or read from the file named by
 * SWITCHBOARD_ADMIN_TOKEN_FILE (a Docker or Kubernetes secret; one trailing newline is
 * ignored); null when neither is set.
 */
function parseAdminToken(value: string | undefined, file: string | undefined): string | null {
  if (file) {
    if (value) {
      throw new ConfigError(
        'SWITCHBOARD_ADMIN_TOKEN and SWITCHBOARD_ADMIN_TOKEN_FILE are both set: keep one',
      );
    }
    try {
      value = fs.readFileSync(file, 'utf8').replace(/\r?\n$/, '');
    } catch (error) {
      throw new ConfigError(
        `SWITCHBOARD_ADMIN_TOKEN_FILE: cannot read "${file}" (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      );
    }
  }
  const name = file ? `SWITCHBOARD_ADMIN_TOKEN_FILE ("${file}")` : 'SWITCHBOARD_ADMIN_TOKEN';
  if (value === undefined || value === '') {
    if (file) throw new ConfigError(`${name} is empty`);
    return null;
  }
  return checkAdminToken(name, value);
}

/** The operator token's length; a random token of 32 hex digits carries 128 bits. */
const ADMIN_TOKEN_MIN_LENGTH = 32;
/** Fewer different characters than this is a pattern, not a random token. */
const ADMIN_TOKEN_MIN_DISTINCT = 8;
const MAKE_ONE = 'make one with: openssl rand -hex 32';

/**
 * Refuses an operator token that is easy to guess, wherever it comes from (`name` says where):
 * at least 32 characters, of letters, digits and `-._~+/=` (hex, base64, base64url and UUIDs),
 * at least 8 of them different. Returns the token.
 */
export function checkAdminToken(name: string, token: string): string {
  if (token.length < ADMIN_TOKEN_MIN_LENGTH) {
    throw new ConfigError(
      `${name} must be at least ${ADMIN_TOKEN_MIN_LENGTH} characters long; ${MAKE_ONE}`,
    );
  }
  if (!/^[A-Za-z0-9._~+/=-]+$/.test(token)) {
    throw new ConfigError(`${name} may hold only letters, digits and -._~+/=; ${MAKE_ONE}`);
  }
  if (new Set(token).size < ADMIN_TOKEN_MIN_DISTINCT) {
    throw new ConfigError(
      `${name} is too easy to guess (fewer than ${ADMIN_TOKEN_MIN_DISTINCT} different characters); ${MAKE_ONE}`,
    );
  }
  return token;
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

function parseDrain(value: string | undefined): number {
  if (value === undefined || value === '') return 2000;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0 || parsed > 60_000) {
    throw new ConfigError(
      `SWITCHBOARD_DRAIN_MS must be an integer from 0 to 60000 (milliseconds), got "${value}"`,
    );
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
