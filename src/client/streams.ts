/**
 * Subscriptions over graphql-ws that survive a dropped connection or a gateway restart: each
 * stream reconnects with back-off and re-subscribes from the last cursor it delivered (a wait
 * by its id, a delivery by outcome version, inbox/ledger/presence by seq), so nothing is
 * missed and nothing is seen twice. Browser-safe: the WebSocket implementation is injected
 * (Node 20 has none built in: pass the `ws` package's).
 */
import { createClient as createWsClient } from 'graphql-ws/client';
import {
  ClientError,
  ClientErrorKind,
  errorFromGraphQL,
  type GraphQLErrorShape,
} from './errors.ts';
import { gatewayUrls, watchReadiness } from './gateways.ts';
import {
  DeliveryOutcomeDocument,
  type DeliveryOutcomeSubscription,
  FollowWaitDocument,
  GoalLedgerEventsDocument,
  type GoalLedgerEventsSubscription,
  type GoalLedgerEventsSubscriptionVariables,
  InboxMessagesDocument,
  type InboxMessagesSubscription,
  type InboxMessagesSubscriptionVariables,
  LedgerEventsDocument,
  type LedgerEventsSubscription,
  type LedgerEventsSubscriptionVariables,
  PresenceChangedDocument,
  type PresenceChangedSubscription,
  type TypedDocumentString,
  type WaitResultFieldsFragment,
} from './generated/graphql.ts';

export interface StreamOptions {
  /**
   * The gateway's GraphQL endpoint over http(s); the socket URL is derived from it. Several
   * gateways separated by commas: a stream that fails, or whose gateway says it is not ready,
   * resumes on the next (./gateways.ts).
   */
  url: string;
  token?: string | null;
  /** A WebSocket constructor; defaults to the global one (browsers, Node ≥ 22). */
  webSocketImpl?: unknown;
  /** Stop reconnecting at this time (epoch ms) and fail UNREACHABLE; default: keep trying. */
  giveUpAt?: number;
  /** Ends the stream quietly. */
  signal?: AbortSignal;
  /** Told about each (re)connection, for a spinner or a log line. */
  onConnection?: (event: ConnectionEvent) => void;
  /** First and largest delay between reconnection attempts (default 100 ms, 2 s). */
  backoff?: { initialMs: number; maxMs: number };
}

/** `url` is the gateway of the attempt: the one connected to, or the one that failed. */
export type ConnectionEvent =
  | { state: 'connected'; attempt: number; url: string }
  | { state: 'reconnecting'; attempt: number; url: string; delayMs: number; reason: string };

/** ws(s)://… for http(s)://…; in a browser a relative URL ("/graphql") is resolved against the page. */
export function socketUrl(url: string): string {
  const page = (globalThis as { location?: { href: string } }).location?.href;
  const absolute = page ? new URL(url, page).href : url;
  return absolute.replace(/^http(s?):\/\//, 'ws$1://');
}

/** Resolves after `ms`, or at once when `signal` aborts; leaves no listener behind either way. */
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });

interface CloseLike {
  code: number;
  reason?: string;
}
const isClose = (value: unknown): value is CloseLike =>
  typeof value === 'object' && value !== null && typeof (value as CloseLike).code === 'number';

/** A failure that reconnecting cannot fix, or undefined when it is worth another attempt. */
function fatal(error: unknown): ClientError | undefined {
  if (error instanceof ClientError) return error;
  if (Array.isArray(error)) return errorFromGraphQL(error as GraphQLErrorShape[]);
  if (isClose(error)) {
    if (error.code === 4401 || error.code === 4403)
      return new ClientError(ClientErrorKind.UNAUTHENTICATED, 'the gateway refused the token');
    if (error.code === 4400 || error.code === 4406)
      return new ClientError(ClientErrorKind.BAD_USER_INPUT, error.reason || 'bad request');
  }
  return undefined;
}

function describe(error: unknown): string {
  if (isClose(error))
    return `socket closed (${error.code}${error.reason ? ` ${error.reason}` : ''})`;
  if (error instanceof Error) return error.message;
  return 'connection failed';
}

/**
 * Every result of a subscription, across reconnects. `variables` is called before each
 * attempt, so it can resume from the cursor of the last item the caller saw. Returns when the
 * server completes the stream or `signal` aborts.
 */
export async function* resumable<Result, Variables>(
  options: StreamOptions,
  document: TypedDocumentString<Result, Variables>,
  variables: () => Variables,
): AsyncGenerator<Result> {
  const backoff = options.backoff ?? { initialMs: 100, maxMs: 2000 };
  const urls = gatewayUrls(options.url);
  let delay = backoff.initialMs;
  for (let attempt = 1; ; attempt++) {
    if (options.signal?.aborted) return;
    const url = urls[(attempt - 1) % urls.length] as string;
    let connected = false;
    let unready = false;
    const client = createWsClient({
      url: socketUrl(url),
      webSocketImpl: options.webSocketImpl,
      lazy: true,
      retryAttempts: 0,
      connectionParams: options.token ? { authorization: `Bearer ${options.token}` } : {},
      on: {
        connected: () => {
          connected = true;
          delay = backoff.initialMs;
          options.onConnection?.({ state: 'connected', attempt, url });
        },
      },
    });
    const abort = () => void client.dispose();
    options.signal?.addEventListener('abort', abort);
    // With several gateways, one that says it is not ready (cut off from the database, its
    // streams silent) is left for the next, from the same cursor.
    const unwatch =
      urls.length > 1
        ? watchReadiness(url, () => {
            unready = true;
            void client.dispose();
          })
        : () => {};
    const iterator = client.iterate<Result>({
      query: document.toString(),
      variables: variables() as Record<string, unknown>,
    });
    let failure: unknown;
    try {
      for await (const result of iterator) {
        const errors = result.errors as GraphQLErrorShape[] | undefined;
        // A gateway that stops ends its streams with SHUTTING_DOWN: reconnect and resume.
        if (errors?.length && errors.every((e) => e.extensions?.code === 'SHUTTING_DOWN'))
          throw new Error('the gateway is shutting down');
        if (errors?.length) throw errorFromGraphQL(errors);
        if (result.data) yield result.data as Result;
      }
      if (!unready) return;
      failure = new Error(`${url} is not ready`);
    } catch (error) {
      failure = unready ? new Error(`${url} is not ready`) : error;
    } finally {
      unwatch();
      options.signal?.removeEventListener('abort', abort);
      await iterator.return?.();
      await client.dispose();
    }
    if (options.signal?.aborted) return;
    const stop = fatal(failure);
    if (stop) throw stop;
    if (options.giveUpAt !== undefined && Date.now() + delay > options.giveUpAt)
      throw new ClientError(
        ClientErrorKind.UNREACHABLE,
        `cannot reach ${url} (${describe(failure)})`,
        { cause: failure },
      );
    if (connected) delay = backoff.initialMs;
    options.onConnection?.({
      state: 'reconnecting',
      attempt,
      url,
      delayMs: delay,
      reason: describe(failure),
    });
    await sleep(delay, options.signal);
    delay = Math.min(delay * 2, backoff.maxMs);
  }
}

export type WaitResult = WaitResultFieldsFragment;
export type WaitValue = Extract<WaitResult, { __typename: 'Wait' }>;

/**
 * Follows a wait to its outcome: the PENDING state (with pins and baselines) goes to
 * `onPending`, and the terminal state (or a typed refusal) is the result. Survives gateway
 * restarts: the wait is a row, re-followed by id on any instance.
 */
export async function followWait(
  options: StreamOptions,
  waitId: string,
  onPending?: (wait: WaitValue) => void,
): Promise<WaitResult | undefined> {
  for (;;) {
    for await (const data of resumable(options, FollowWaitDocument, () => ({ waitId }))) {
      const result = data.waitForAgent;
      if (result.__typename !== 'Wait' || result.status !== 'PENDING') return result;
      onPending?.(result);
    }
    // Completed without an outcome (an instance shutting down): follow it again.
    if (options.signal?.aborted) return undefined;
    if (options.giveUpAt !== undefined && Date.now() > options.giveUpAt)
      throw new ClientError(ClientErrorKind.UNREACHABLE, `lost the wait on ${options.url}`);
    await sleep(100, options.signal);
  }
}

export type DeliveryOutcomeEvent = DeliveryOutcomeSubscription['deliveryOutcome'];

/**
 * Each outcome change of a delivery after version `after` (0: from SUBMITTED), resumed by
 * version across reconnects; ends after the change marked `final` (or an UnknownDelivery).
 */
export async function* deliveryOutcomes(
  options: StreamOptions,
  deliveryId: string,
  after = 0,
): AsyncGenerator<DeliveryOutcomeEvent> {
  let version = after;
  for (;;) {
    for await (const data of resumable(options, DeliveryOutcomeDocument, () => ({
      deliveryId,
      after: version,
    }))) {
      const event = data.deliveryOutcome;
      if (event.__typename === 'UnknownDelivery') {
        yield event;
        return;
      }
      if (event.version <= version) continue;
      version = event.version;
      yield event;
      if (event.final) return;
    }
    if (options.signal?.aborted) return;
    await sleep(100, options.signal);
  }
}

export type InboxArrival = InboxMessagesSubscription['inboxMessages'];

/** Messages arriving in the caller's inbox after seq `after` (omitted: from now on). */
export function inboxArrivals(
  options: StreamOptions,
  goalId: string,
  after?: string,
): AsyncGenerator<InboxArrival> {
  return bySeq<InboxMessagesSubscription, InboxMessagesSubscriptionVariables, InboxArrival>(
    options,
    InboxMessagesDocument,
    (cursor) => ({ goalId, after: cursor }),
    after,
    (d) =>
      d.inboxMessages.__typename === 'InboxMessage'
        ? { item: d.inboxMessages, seq: d.inboxMessages.seq }
        : { item: d.inboxMessages },
  );
}

export type LedgerStreamItem = LedgerEventsSubscription['ledgerEvents'];

/** An agent's scoped ledger rows after seq `after` (omitted: from now on). */
export function ledgerEvents(
  options: StreamOptions,
  goalId: string,
  agentId: string,
  after?: string,
): AsyncGenerator<LedgerStreamItem> {
  return bySeq<LedgerEventsSubscription, LedgerEventsSubscriptionVariables, LedgerStreamItem>(
    options,
    LedgerEventsDocument,
    (cursor) => ({ goalId, agentId, after: cursor }),
    after,
    (d) =>
      d.ledgerEvents.__typename === 'LedgerEvent'
        ? { item: d.ledgerEvents, seq: d.ledgerEvents.seq }
        : { item: d.ledgerEvents },
  );
}

/** Every ledger row of a goal after seq `after` (omitted: from now on); ADMIN or STEWARD. */
export function goalLedgerEvents(
  options: StreamOptions,
  goalId: string,
  after?: string,
): AsyncGenerator<LedgerStreamItem> {
  return bySeq<
    GoalLedgerEventsSubscription,
    GoalLedgerEventsSubscriptionVariables,
    LedgerStreamItem
  >(
    options,
    GoalLedgerEventsDocument,
    (cursor) => ({ goalId, after: cursor }),
    after,
    (d) =>
      d.goalLedgerEvents.__typename === 'LedgerEvent'
        ? { item: d.goalLedgerEvents, seq: d.goalLedgerEvents.seq }
        : { item: d.goalLedgerEvents },
  );
}

export type PresenceChange = PresenceChangedSubscription['presenceChanged'];

/**
 * The presence seq a directory read reflects: its rows' latest change ('0' when no row has
 * presence). Follow `presenceChanges` after it and no change committed after the read is
 * missed, even one made before the stream subscribes or while it reconnects.
 */
export function directoryPresenceSeq(directory: {
  readonly rows: readonly { readonly presence?: { readonly stateChangeSeq: string } | null }[];
}): string {
  return directory.rows.reduce((max, row) => {
    const seq = row.presence?.stateChangeSeq;
    return seq !== undefined && BigInt(seq) > BigInt(max) ? seq : max;
  }, '0');
}

/** Presence changes of a goal (optionally some agents) after seq `after`. */
export function presenceChanges(
  options: StreamOptions,
  goalId: string,
  agentIds?: string[],
  after?: string,
): AsyncGenerator<PresenceChange> {
  return bySeq(
    options,
    PresenceChangedDocument,
    (cursor) => ({ goalId, agentIds, after: cursor }),
    after,
    (d) => ({ item: d.presenceChanged, seq: d.presenceChanged.seq ?? undefined }),
  );
}

/**
 * A seq-ordered stream resumed after the last seq delivered. An item without a seq (a scope
 * gap, an unknown agent) is the stream's last.
 */
async function* bySeq<Result, Variables, Item>(
  options: StreamOptions,
  document: TypedDocumentString<Result, Variables>,
  variables: (after: string | undefined) => Variables,
  after: string | undefined,
  pick: (data: Result) => { item: Item; seq?: string },
): AsyncGenerator<Item> {
  let cursor = after;
  for (;;) {
    for await (const data of resumable(options, document, () => variables(cursor))) {
      const { item, seq } = pick(data);
      if (seq === undefined) {
        yield item;
        return;
      }
      if (cursor !== undefined && BigInt(seq) <= BigInt(cursor)) continue;
      cursor = seq;
      yield item;
    }
    if (options.signal?.aborted) return;
    await sleep(100, options.signal);
  }
}
