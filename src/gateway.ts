import type { Config } from './config.ts';
import { type Database, openDatabase } from './db/database.ts';
import { DeliveryKeeper } from './delivery/keeper.ts';
import { goalStamp } from './directory/stamp.ts';
import { Doorbell } from './events/doorbell.ts';
import { StreamHub } from './events/hub.ts';
import type { AppDeps } from './graphql/context.ts';
import { FanOutGroups } from './graphql/execution/fanout.ts';
import { ResponseCache } from './graphql/execution/response-cache.ts';
import { LimitRefusals } from './graphql/limits.ts';
import { maskError, UNEXPECTED_MESSAGE } from './graphql/masking.ts';
import { startTracing, type Tracing } from './http/tracing.ts';
import type { LedgerEvent } from './ledger/append.ts';
import { FrontierCache } from './ledger/frontier.ts';
import { readLedgerPage } from './ledger/stream.ts';
import type { Logger } from './log.ts';
import { type PresenceChange, readPresencePage } from './presence/read.ts';
import { PresenceSweeper } from './presence/sweeper.ts';
import { CredentialCache, type CredentialCacheOptions } from './registry/credentials.ts';
import { ensureAdminTokenFile, hashToken } from './registry/tokens.ts';
import { RetentionSweep } from './retention.ts';
import { buildServer } from './server.ts';
import { WaitKeeper } from './waits/keeper.ts';
import { GoalTodosCache } from './work/frontier.ts';

export interface Gateway {
  readonly port: number;
  readonly url: string;
  /** `/metrics` on its own listener (SWITCHBOARD_METRICS=host:port); null otherwise. */
  readonly metricsUrl: string | null;
  readonly deps: AppDeps;
  /** Stops the server (after a drain of `drainMs`, see Server.stop), then the services. */
  stop(options?: { drainMs?: number }): Promise<void>;
}

export interface GatewayOptions {
  /** Start PGlite from this data directory dump instead of an empty one. */
  readonly loadDataDir?: Blob;
  /** Use this database instead of opening one (it is not closed on stop). */
  readonly database?: Database;
  /** The credential cache's TTL and last-use interval (tests; the defaults otherwise). */
  readonly credentials?: Omit<CredentialCacheOptions, 'log'>;
  /**
   * Whether this process sweeps lapsed presence (default true). Another instance on the same
   * database sweeps for it; tests that count one request's statements turn it off.
   */
  readonly presenceSweeper?: boolean;
}

/**
 * Config to a running gateway: the admin token, the database (migrated), the doorbell, the
 * server. `stop()` undoes it in reverse. main.ts and the tests both start here.
 */
export async function startGateway(
  config: Config,
  log: Logger,
  options: GatewayOptions = {},
): Promise<Gateway> {
  const started = performance.now();
  const adminToken = config.adminToken ?? ensureAdminTokenFile(config.dataDir, log);
  const database =
    options.database ??
    (await openDatabase(config.database, {
      loadDataDir: options.loadDataDir,
      onOpen: (opening) => log.info('embedded database opened', opening),
      rings: (config.doorbell ?? 'postgres') === 'postgres' ? 'notify' : 'returned',
    }));
  const doorbell = new Doorbell({ probeMs: config.doorbellProbeMs, log, bus: config.doorbell });
  const waits = new WaitKeeper(database.db, doorbell);
  const presence = new StreamHub(
    doorbell,
    'presence',
    (goalId, after) => readPresencePage(database.db, goalId, after),
    (change: PresenceChange) => change.seq as bigint,
  );
  const deliveries = new DeliveryKeeper(database.db, doorbell);
  const sweeper = new PresenceSweeper(database.db, doorbell, log);
  const retention = new RetentionSweep(database.db, config, log);
  const ledger = new StreamHub(
    doorbell,
    'ledger',
    (goalId, after) => readLedgerPage(database.db, goalId, after),
    (event: LedgerEvent) => event.seq,
  );
  const deps: AppDeps = {
    config,
    database,
    doorbell,
    presence,
    ledger,
    ledgerFrontiers: new FrontierCache(),
    frontierTodos: new GoalTodosCache(),
    waits,
    deliveries,
    sweeper,
    log,
    fanOut: new FanOutGroups((error) => maskError(error, UNEXPECTED_MESSAGE, { config, log })),
    responses: new ResponseCache(doorbell, goalStamp, config.responseCache ?? true),
    refusals: new LimitRefusals(),
    credentials: new CredentialCache(database.db, hashToken(adminToken), doorbell, {
      ...options.credentials,
      log,
    }),
  };
  let tracing: Tracing | null = null;
  const closeServices = async () => {
    await sweeper.close();
    await retention.close();
    presence.close();
    ledger.close();
    waits.close();
    deliveries.close();
    deps.credentials.close();
    deps.responses.close();
    await doorbell.close();
    if (!options.database) await database.close();
  };
  try {
    await doorbell.open(database);
    if (options.presenceSweeper ?? true) sweeper.start();
    retention.start();
    tracing = config.tracing ? await startTracing(config.tracing, log) : null;
    const server = buildServer(deps, tracing);
    const { port, metricsPort } = await server.start(config.port);
    const url = `http://${config.host}:${port}/graphql`;
    const metricsUrl =
      config.metrics.serve === 'own' && metricsPort !== null
        ? `http://${config.metrics.host}:${metricsPort}/metrics`
        : null;
    log.info('switchboard ready', {
      url,
      metrics: config.metrics.serve === 'main' ? url.replace(/\/graphql$/, '/metrics') : metricsUrl,
      driver: database.driver,
      exploration: config.exploration,
      tracing: config.tracing?.url ?? null,
      startupMs: Math.round(performance.now() - started),
    });
    return {
      port,
      url,
      metricsUrl,
      deps,
      async stop({ drainMs = 0 } = {}) {
        await server.stop(drainMs);
        await tracing?.shutdown();
        await closeServices();
        log.info('switchboard stopped');
      },
    };
  } catch (error) {
    await closeServices();
    throw error;
  }
}
