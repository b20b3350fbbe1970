import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GraphQLError } from 'graphql';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { WebSocket } from 'ws';
import { type Config, type Limits, limitsOf } from '../config.ts';
import type { Caller } from '../core/caller.ts';
import { UnauthenticatedError } from '../core/errors.ts';
import { type LimitRefusals, limitError } from '../graphql/limits.ts';
import type { CredentialCache } from '../registry/credentials.ts';

/**
 * graphql-ws close code for a socket refused by a limit: the protocol's 4429 ("too many"), with
 * the refusal's words as the reason.
 */
export const CLOSE_TOO_MANY = 4429;

/** How long a socket closed for flooding has to take its close frame before it is cut (ms). */
const SHUT_OUT_GRACE_MS = 1000;

/**
 * Closes a socket that floods (4429, with the refusal's words) and stops reading it: what it
 * has sent since stays unread in the kernel's buffers, and is dropped with the connection once
 * the close frame has had SHUT_OUT_GRACE_MS to leave.
 */
export function shutOut(socket: WebSocket, reason: string): void {
  socket.close(CLOSE_TOO_MANY, reason);
  socket.pause();
  setTimeout(() => socket.terminate(), SHUT_OUT_GRACE_MS).unref();
}

/** How long an HTTP 429 waits before it is sent (ms): the least any Retry-After says. */
export const REFUSAL_HOLD_MS = 1000;

/** The most HTTP 429s one instance holds at once; past it, a 429 is sent at once. */
export const MOST_HELD_REFUSALS = 1000;

/**
 * HTTP 429s, each sent REFUSAL_HOLD_MS after its request. A caller that keeps sending without
 * reading `Retry-After` gets its next answer no sooner than it should have asked again, so a
 * loop of refused requests runs at one a second per connection and leaves the instance's time
 * to other callers. One that gives up meanwhile is dropped; past MOST_HELD_REFUSALS, and when
 * the server stops, they are sent at once.
 */
export class RefusalHold {
  private readonly held = new Map<ServerResponse, () => void>();

  constructor(private readonly most = MOST_HELD_REFUSALS) {}

  /** Calls `send` once REFUSAL_HOLD_MS have passed (at once past the most held). */
  send(res: ServerResponse, send: () => void): void {
    if (this.held.size >= this.most) {
      send();
      return;
    }
    const release = () => {
      clearTimeout(timer);
      res.off('close', drop);
      this.held.delete(res);
      send();
    };
    const drop = () => {
      clearTimeout(timer);
      this.held.delete(res);
    };
    const timer = setTimeout(release, REFUSAL_HOLD_MS);
    res.once('close', drop);
    this.held.set(res, release);
  }

  /** Sends every held refusal now (the server is stopping). */
  releaseAll(): void {
    for (const release of [...this.held.values()]) release();
  }

  /** How many are held now. */
  get size(): number {
    return this.held.size;
  }
}

/** How long an address stays refused once over its failed authentications (s). */
const FAILURE_WINDOW_SECONDS = 60;

/**
 * The limits of one instance on each caller (config.ts `Limits`): operations per second per
 * credential, failed authentications per client address, sockets per credential and
 * subscriptions per socket. Counts are this instance's, in memory (rate-limiter-flexible for
 * the two rates). The operator token (no credential) is not limited per caller.
 */
export class CallerLimits {
  readonly limits: Limits;
  private readonly requests: RateLimiterMemory | null;
  private readonly failures: RateLimiterMemory | null;
  /** Open sockets per credential id. */
  private readonly sockets = new Map<string, number>();
  /** Each socket's open subscriptions, by operation id. */
  private readonly subscriptions = new WeakMap<WebSocket, Set<string>>();
  /** Each socket's operations refused for its rate in the current second. */
  private readonly floods = new WeakMap<WebSocket, { second: number; refused: number }>();
  /**
   * Refusals by their words, made once: a flood is answered with the same error objects
   * (a GraphQLError captures a stack trace when it is made, the most of a refusal's cost).
   */
  private readonly errors = new Map<string, GraphQLError>();

  constructor(
    config: Pick<Config, 'limits'>,
    private readonly refusals: LimitRefusals,
  ) {
    this.limits = limitsOf(config);
    const { requestsPerSecond, failedAuthsPerMinute } = this.limits;
    this.requests =
      requestsPerSecond > 0
        ? new RateLimiterMemory({ points: requestsPerSecond, duration: 1 })
        : null;
    this.failures =
      failedAuthsPerMinute > 0
        ? new RateLimiterMemory({
            points: failedAuthsPerMinute,
            duration: FAILURE_WINDOW_SECONDS,
            blockDuration: FAILURE_WINDOW_SECONDS,
          })
        : null;
  }

  /**
   * The caller of an `Authorization` value sent from `address`. Each failure counts against
   * the address; past the limit, a token this instance has not seen valid is refused
   * (TOO_MANY_FAILED_AUTHENTICATIONS) without being checked, until the minute is over.
   */
  async resolve(
    credentials: CredentialCache,
    authorization: string | null | undefined,
    address: string | undefined,
  ): Promise<Caller | null> {
    const key = address ?? 'unknown';
    try {
      return await credentials.resolve(authorization, () => this.admitAddress(key));
    } catch (error) {
      // Over the limit, consume rejects, and blocks the address for the window from now.
      if (error instanceof UnauthenticatedError) await this.failures?.consume(key).catch(() => {});
      throw error;
    }
  }

  /** Counts one operation of `caller`; past its rate, a RATE_LIMITED error to send instead. */
  async operation(caller: Caller | null): Promise<GraphQLError | null> {
    if (!this.requests || !caller?.credentialId) return null;
    try {
      await this.requests.consume(caller.credentialId);
      return null;
    } catch (refused) {
      if (!(refused instanceof RateLimiterRes)) throw refused;
      this.refusals.refused('requestsPerSecond');
      return this.error(
        'RATE_LIMITED',
        `this credential sent more than ${this.limits.requestsPerSecond} operations in a second to this instance: retry after ${seconds(refused)} s`,
        seconds(refused),
      );
    }
  }

  /**
   * A rate refusal on `socket`: true once it has had more refusals in this second than the rate
   * itself (twice the rate sent), when it is to be closed (4429, with the refusal's words).
   */
  flooding(socket: WebSocket): boolean {
    const second = Math.floor(Date.now() / 1000);
    let flood = this.floods.get(socket);
    if (!flood || flood.second !== second) {
      flood = { second, refused: 0 };
      this.floods.set(socket, flood);
    }
    return ++flood.refused > this.limits.requestsPerSecond;
  }

  /**
   * A socket of `caller` opens: its release when it may, or the words of its refusal (the
   * credential has its most sockets open on this instance).
   */
  openSocket(caller: Caller): (() => void) | string {
    const id = caller.credentialId;
    const most = this.limits.socketsPerCredential;
    if (id === null || most === 0) return () => {};
    const open = this.sockets.get(id) ?? 0;
    if (open >= most) {
      this.refusals.refused('socketsPerCredential');
      return `too many sockets: this credential has ${most} open on this instance`;
    }
    this.sockets.set(id, open + 1);
    return () => {
      const left = (this.sockets.get(id) ?? 1) - 1;
      if (left > 0) this.sockets.set(id, left);
      else this.sockets.delete(id);
    };
  }

  /**
   * Subscription `id` starts on `socket`: null when it may, else the TOO_MANY_SUBSCRIPTIONS
   * error for that operation (the socket and its other subscriptions go on).
   */
  subscribe(socket: WebSocket, caller: Caller | null, id: string): GraphQLError | null {
    const most = this.limits.subscriptionsPerSocket;
    if (!caller?.credentialId || most === 0) return null;
    let open = this.subscriptions.get(socket);
    if (!open) {
      open = new Set();
      this.subscriptions.set(socket, open);
    }
    if (open.size >= most) {
      this.refusals.refused('subscriptionsPerSocket');
      return this.error(
        'TOO_MANY_SUBSCRIPTIONS',
        `this socket has ${most} open subscriptions, the most it may have: complete one first, or open another socket`,
      );
    }
    open.add(id);
    return null;
  }

  /** Operation `id` on `socket` ended (completed, failed or cancelled). */
  ended(socket: WebSocket, id: string): void {
    this.subscriptions.get(socket)?.delete(id);
  }

  /** Throws TOO_MANY_FAILED_AUTHENTICATIONS while `address` is over its failures. */
  private async admitAddress(address: string): Promise<void> {
    const state = await this.failures?.get(address);
    if (!state || state.consumedPoints <= this.limits.failedAuthsPerMinute) return;
    if (state.msBeforeNext <= 0) return;
    this.refusals.refused('failedAuthsPerMinute');
    throw this.error(
      'TOO_MANY_FAILED_AUTHENTICATIONS',
      `more than ${this.limits.failedAuthsPerMinute} failed authentications from this address in a minute: retry after ${seconds(state)} s`,
      seconds(state),
    );
  }

  private error(code: string, message: string, retryAfterSeconds?: number): GraphQLError {
    let error = this.errors.get(message);
    if (!error) {
      error = limitError(code, message, retryAfterSeconds);
      this.errors.set(message, error);
    }
    return error;
  }
}

/** Whole seconds until the limiter lets the key through again, at least 1. */
const seconds = (state: RateLimiterRes) => Math.max(1, Math.ceil(state.msBeforeNext / 1000));

/** The client's address as this server sees it (a proxy in front makes every client its own). */
export const addressOf = (request: IncomingMessage | undefined) => request?.socket.remoteAddress;
