import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { type Client, createClient } from 'graphql-ws';
import postgres from 'postgres';
import { inject } from 'vitest';
import WebSocket from 'ws';
import {
  CreateGoalDocument,
  IssueCredentialDocument,
  RegisterAgentDocument,
  RegisterProviderDocument,
  ReportPresenceDocument,
  type TypedDocumentString,
} from '../../src/client/generated/graphql.ts';
import { type Config, parseDoorbell } from '../../src/config.ts';
import { type Database, type Db, openDatabase } from '../../src/db/database.ts';
import { type Gateway, type GatewayOptions, startGateway } from '../../src/gateway.ts';
import { createLogger } from '../../src/log.ts';

export const driver = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
/**
 * The doorbell under test: LISTEN/NOTIFY, or NATS when SWITCHBOARD_DOORBELL names a server
 * (with TEST_DATABASE_URL; .ci/run runs the event, wait, delivery and stream tests both ways).
 */
export const doorbellBus = parseDoorbell(
  process.env.SWITCHBOARD_DOORBELL,
  process.env.TEST_DATABASE_URL,
);
/** How the test database's commits ring, for `doorbellBus`. */
export const testRings = doorbellBus === 'postgres' ? 'notify' : 'returned';

/** A fresh id, so tests sharing a database never see each other's rows. */
export const uid = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

/** The database under test: a restored PGlite template, or the run's real Postgres. */
export async function openTestDatabase(): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) return openDatabase({ driver: 'postgres', url }, { rings: testRings });
  const dump = inject('pgliteDump');
  if (!dump) throw new Error('global setup did not provide a PGlite dump');
  return openDatabase(
    { driver: 'pglite', dataDir: null },
    { loadDataDir: new Blob([readFileSync(dump)]) },
  );
}

/**
 * A database of the test's own: on Postgres a new, migrated database beside the run's (for a
 * test whose work spans every goal of its database, such as the retention sweep), dropped
 * when closed; on PGlite what openTestDatabase gives (each file's is already its own).
 */
export async function openPrivateTestDatabase(): Promise<Database> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return openTestDatabase();
  const name = `${new URL(url).pathname.slice(1)}_${randomUUID().slice(0, 8)}`.toLowerCase();
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const own = new URL(url);
  own.pathname = `/${name}`;
  const database = await openDatabase({ driver: 'postgres', url: own.href });
  const close = database.close.bind(database);
  return Object.assign(database, {
    close: async () => {
      await close();
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  });
}

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    host: '127.0.0.1',
    port: 0,
    database: process.env.TEST_DATABASE_URL
      ? { driver: 'postgres', url: process.env.TEST_DATABASE_URL }
      : { driver: 'pglite', dataDir: null },
    dataDir: '/nonexistent-switchboard-test',
    adminToken: `admin-${randomUUID()}`,
    exploration: true,
    maxBodyBytes: 100_000,
    staleClaimMs: 3_600_000,
    logLevel: 'silent',
    doorbellProbeMs: 1000,
    doorbell: doorbellBus,
    metrics: { serve: 'main' },
    corsOrigins: [],
    drainMs: 0,
    ...overrides,
  };
}

/**
 * An operation to send: a typed document of src/client/operations (what the client sends), or
 * an inline string for what no client operation is (malformed input, odd selections).
 */
export type Operation = string | TypedDocumentString<any, any>;

export interface GraphQLResponse<T = Record<string, any>> {
  status: number;
  data?: T | null;
  errors?: { message: string; extensions?: { code?: string; [key: string]: unknown } }[];
}

export interface TestGateway {
  readonly gateway: Gateway;
  readonly url: string;
  readonly wsUrl: string;
  readonly adminToken: string;
  /** POSTs a GraphQL operation over real HTTP. */
  gql<T = Record<string, any>>(
    query: Operation,
    variables?: Record<string, unknown>,
    token?: string | null,
  ): Promise<GraphQLResponse<T>>;
  /** Like gql, but fails the test on any GraphQL error and returns data. */
  ok<T = Record<string, any>>(
    query: Operation,
    variables?: Record<string, unknown>,
    token?: string | null,
  ): Promise<T>;
  stop(): Promise<void>;
}

/** What the fixtures below need of a gateway: to run operations on it. */
export type GatewayClient = Pick<TestGateway, 'ok'>;

/** A real gateway on port 0 over `database` (which the caller owns and closes). */
export async function startTestGateway(
  database: Database,
  overrides: Partial<Config> = {},
  options: Omit<GatewayOptions, 'database'> = {},
): Promise<TestGateway> {
  const config = testConfig(overrides);
  const gateway = await startGateway(config, createLogger(config.logLevel), {
    presenceSweeper: !counted.has(database),
    ...options,
    database,
  });
  const adminToken = config.adminToken as string;
  const gql: TestGateway['gql'] = async (query, variables, token = adminToken) => {
    const response = await fetch(gateway.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: JSON.stringify({ query: String(query), variables }),
    });
    return { status: response.status, ...((await response.json()) as object) };
  };
  return {
    gateway,
    url: gateway.url,
    wsUrl: gateway.url.replace('http://', 'ws://'),
    adminToken,
    gql,
    async ok(query, variables, token) {
      const result = await gql(query, variables, token);
      if (result.errors?.length)
        throw new Error(`GraphQL errors: ${JSON.stringify(result.errors)}`);
      return result.data as never;
    },
    stop: () => gateway.stop(),
  };
}

/**
 * A gateway in its own process (bench/gateway-process.ts) on the database at `url` (the
 * embedded one when null), so a test can end it as a crash would: `kill9()`.
 */
export async function startGatewayProcess(url: string | null, env: Record<string, string> = {}) {
  const child = fork(
    fileURLToPath(new URL('../../bench/gateway-process.ts', import.meta.url)),
    [],
    {
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, DATABASE_URL: url ?? '', ...env },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  const ready = await new Promise<{ url: string; adminToken: string }>((resolve, reject) => {
    child.once('message', (message) => resolve(message as { url: string; adminToken: string }));
    child.once('exit', (code) => reject(new Error(`gateway process exited with ${code}`)));
  });
  const ended = () => child.exitCode !== null || child.signalCode !== null;
  const exit = (signal: () => void) => {
    if (ended()) return Promise.resolve();
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    signal();
    return exited;
  };
  return {
    child,
    url: ready.url,
    wsUrl: ready.url.replace('http://', 'ws://'),
    adminToken: ready.adminToken,
    async ok(query: Operation, variables?: Record<string, unknown>, token = ready.adminToken) {
      const response = await fetch(ready.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ query: String(query), variables }),
      });
      const body = (await response.json()) as { data?: unknown; errors?: unknown[] };
      if (body.errors) throw new Error(JSON.stringify(body.errors));
      return body.data as never;
    },
    /** Stops it as SIGTERM would, waiting for it to exit. */
    stop: () => exit(() => child.send({ type: 'stop' })),
    /** Ends it at once, as a crash would. */
    kill9: () => exit(() => child.kill('SIGKILL')),
  };
}

/** A graphql-ws client that never retries, so a refusal shows up as a close event. */
export function wsClient(
  url: string,
  token: string | null,
  onClosed?: (event: { code: number; reason: string }) => void,
): Client {
  return createClient({
    url,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    lazy: false,
    connectionParams: token ? { authorization: `Bearer ${token}` } : {},
    onNonLazyError: () => {}, // a refusal is observed through onClosed
    on: { closed: (event) => onClosed?.(event as { code: number; reason: string }) },
  });
}

/** Runs one operation over graphql-ws and returns its first result. */
export async function wsQuery(
  client: Client,
  query: Operation,
  variables?: Record<string, unknown>,
): Promise<GraphQLResponse> {
  const iterator = client.iterate({ query: String(query), variables });
  const { value } = await iterator.next();
  await iterator.return?.();
  return { status: 0, ...(value as object) };
}

/** Resolves with the value `poll` returns once it is not undefined; fails after `timeoutMs`. */
export async function eventually<T>(
  poll: () => T | undefined | Promise<T | undefined>,
  what: string,
  timeoutMs = 5000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await poll();
    if (value !== undefined) return value;
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

// ---- fixtures -----------------------------------------------------------------------

export async function createGoal(t: GatewayClient, goalId = uid('goal')): Promise<string> {
  await t.ok(CreateGoalDocument, {
    input: { goalId, title: `Goal ${goalId}` },
  });
  return goalId;
}

export async function registerAgent(t: GatewayClient, goalId: string, agentId = uid('agent')) {
  await t.ok(RegisterAgentDocument, {
    input: { goalId, agentId, agentModel: 'model-x', hostSurface: 'cli' },
  });
  return agentId;
}

export async function issueCredential(
  t: GatewayClient,
  input: Record<string, unknown>,
): Promise<{ token: string; id: string }> {
  const data = await t.ok<{ issueCredential: { token: string; credential: { id: string } } }>(
    IssueCredentialDocument,
    { input },
  );
  return { token: data.issueCredential.token, id: data.issueCredential.credential.id };
}

/** A goal with one registered agent and a PEER token for it. */
export async function peerInNewGoal(t: GatewayClient) {
  const goalId = await createGoal(t);
  const agentId = await registerAgent(t, goalId);
  const { token, id } = await issueCredential(t, { kind: 'PEER', goalId, agentId });
  return { goalId, agentId, token, credentialId: id };
}

/** A live subscription: items arrive in `items`; `take(n)` waits (with a deadline) until n arrived. */
export interface Subscription<T = any> {
  readonly items: T[];
  readonly errors: unknown[];
  /** Resolves when the server completes the stream. */
  readonly completed: Promise<void>;
  take(count: number, timeoutMs?: number): Promise<T[]>;
  dispose(): void;
}

export function subscribe<T = any>(
  client: Client,
  query: Operation,
  variables: Record<string, unknown>,
  field: string,
): Subscription<T> {
  const items: T[] = [];
  const errors: unknown[] = [];
  let complete = () => {};
  const completed = new Promise<void>((resolve) => {
    complete = resolve;
  });
  const dispose = client.subscribe<Record<string, T>>(
    { query: String(query), variables },
    {
      next: (result) => {
        if (result.errors) errors.push(...result.errors);
        if (result.data) items.push(result.data[field] as T);
      },
      error: (error) => {
        errors.push(error);
        complete();
      },
      complete: () => complete(),
    },
  );
  return {
    items,
    errors,
    completed,
    take: (count, timeoutMs = 5000) =>
      eventually(
        () => {
          if (errors.length > 0) throw new Error(`subscription failed: ${JSON.stringify(errors)}`);
          return items.length >= count ? items.slice(0, count) : undefined;
        },
        `${count} items from ${field} (have ${items.length})`,
        timeoutMs,
      ),
    dispose,
  };
}

export const PROVIDER_DECLARATION = {
  membershipProof: 'pane env flag SPACE=1 plus injected pane ids',
  identifierRules: 'w1:p2 style ids, never reused; a moved pane gets a new id',
  livenessMapping: [
    { providerState: 'busy', liveness: 'WORKING' },
    { providerState: 'asking', liveness: 'BLOCKED' },
    { providerState: 'ready', liveness: 'IDLE' },
  ],
  presenceTtlMs: 60_000,
  observationSources: [
    { source: 'RECENT', maxLines: 50, limits: ['ALTERNATE_SCREEN_NOT_IN_SCROLLBACK'] },
  ],
  supportsPinnedWaits: true,
  persistence: 'survives client detach; not a server restart',
};

/** A provider credential for `goalIds`, registered with the standard declaration (plus overrides). */
export async function registerProvider(
  t: GatewayClient,
  goalIds: string[],
  overrides: Record<string, unknown> = {},
) {
  const providerId = uid('provider');
  const { token } = await issueCredential(t, { kind: 'PROVIDER', providerId, goalIds });
  const provider = {
    providerId,
    token,
    /** Registers (again, as a restarted provider does: a new `instanceId` replaces the old one). */
    async register(instanceId: string) {
      await t.ok(
        RegisterProviderDocument,
        { input: { providerId, instanceId, ...PROVIDER_DECLARATION, ...overrides } },
        token,
      );
    },
  };
  await provider.register('instance-1');
  let reportSeq = 0;
  return {
    ...provider,
    /**
     * Sends reports with increasing report sequences (through another gateway of the same
     * database if given); returns the typed result.
     */
    async report(reports: Record<string, unknown>[], through: GatewayClient = t) {
      const data = await through.ok(
        ReportPresenceDocument,
        {
          reports: reports.map((r) => ({
            providerSessionRef: 'w1:p1',
            occupantRef: 'pane-1/agent',
            observedAt: new Date().toISOString(),
            basis: 'PROVIDER_DETECTION',
            reportSeq: String(++reportSeq),
            ...r,
          })),
        },
        token,
      );
      return data.reportPresence;
    },
  };
}

/**
 * The same database, with every SQL statement counted (a Drizzle logger on the same client),
 * so a test can show that a read costs a constant number of statements.
 */
/** Databases that count statements: their gateways run no presence sweeper, whose statements a count would catch. */
const counted = new WeakSet<Database>();

export function countingDatabase(database: Database) {
  let statements = 0;
  const client = (database.db as unknown as { $client: unknown }).$client;
  const logger = { logQuery: () => void statements++ };
  const db = (driver === 'postgres'
    ? drizzlePostgres(client as never, { logger })
    : drizzlePglite(client as never, { logger })) as unknown as Db;
  const counting = { ...database, db } as Database;
  counted.add(counting);
  return {
    database: counting,
    statements: () => statements,
    reset: () => {
      statements = 0;
    },
  };
}
