import type { Config } from '../config.ts';
import type { Caller } from '../core/caller.ts';
import type { Database, Db } from '../db/database.ts';
import type { DeliveryKeeper } from '../delivery/keeper.ts';
import type { Doorbell } from '../events/doorbell.ts';
import type { StreamHub } from '../events/hub.ts';
import type { LedgerEvent } from '../ledger/append.ts';
import type { FrontierCache } from '../ledger/frontier.ts';
import type { Logger } from '../log.ts';
import type { PresenceChange } from '../presence/read.ts';
import type { PresenceSweeper } from '../presence/sweeper.ts';
import type { CredentialCache } from '../registry/credentials.ts';
import type { WaitKeeper } from '../waits/keeper.ts';
import type { GoalTodosCache } from '../work/frontier.ts';
import type { FanOutGroups } from './execution/fanout.ts';
import type { ResponseCache } from './execution/response-cache.ts';
import type { LimitRefusals } from './limits.ts';

/**
 * The composition root's view of the process: what the server shares between requests, built
 * once in gateway.ts (or a test). Only the GraphQL layer and the server see it; services take
 * the pieces they need as arguments.
 */
export interface AppDeps {
  readonly config: Config;
  readonly database: Database;
  readonly doorbell: Doorbell;
  /** Presence streams of this instance's subscribers, one shared reader per goal. */
  readonly presence: StreamHub<PresenceChange>;
  /** Ledger streams of this instance's subscribers, one shared reader per goal. */
  readonly ledger: StreamHub<LedgerEvent>;
  /** Other-agent frontiers of recently read goals, each valid for one stamp of the goal's state. */
  readonly ledgerFrontiers: FrontierCache;
  /** The todos of recently read goals, as of their work sequence, for the frontier. */
  readonly frontierTodos: GoalTodosCache;
  /** Settles the waits that this instance's clients subscribe to. */
  readonly waits: WaitKeeper;
  /** Settles the deliveries that this instance's clients follow. */
  readonly deliveries: DeliveryKeeper;
  /** Lapses expired presence, taking turns with the other instances of the database. */
  readonly sweeper: PresenceSweeper;
  readonly log: Logger;
  /** Resolves each request's or socket's credential, cached for this instance. */
  readonly credentials: CredentialCache;
  /** Subscription events executed once per group of subscribers that would get the same result. */
  readonly fanOut: FanOutGroups;
  /** Answers to reads of an unchanged goal (directory, attention, frontier), per instance. */
  readonly responses: ResponseCache;
  /** Refusals by the limits per caller and per operation, for /metrics. */
  readonly refusals: LimitRefusals;
}

/** Per request (HTTP, SSE) or per socket (graphql-ws). */
export interface Context {
  readonly deps: AppDeps;
  readonly db: Db;
  readonly caller: Caller | null;
}

/** The context of a field whose auth scope admits only callers of type `C` (`t.withAuth`). */
export type ContextOf<C extends Caller> = Context & { readonly caller: C };
