/**
 * What every tool, resource and prompt of one session needs: the typed client acting as the
 * session's credential, the goal it works in, stream options for subscriptions, the session's
 * events, and a log on stderr (stdout is the protocol over stdio).
 */
import { EventEmitter } from 'node:events';
import WebSocket from 'ws';
import {
  ClientError,
  ClientErrorKind,
  createClient,
  type DeliveryFieldsFragment,
  type StreamOptions,
  type SwitchboardClient,
  type WaitValue,
  WhoamiDocument,
  type WhoamiQuery,
} from '../client/index.ts';

export interface Connection {
  url: string;
  token: string | undefined;
  /** The goal to work in; default: the credential's own (or only) goal. */
  goal: string | undefined;
}

export type Caller = WhoamiQuery['me'];

/** A failure of the agent's request that the gateway did not get to judge (no goal, no agent). */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** What a session's tools tell its channel (channel.ts). */
export interface SessionEvents {
  /** The session resolved, released or took a message: the active slot may be free. */
  inbox: [];
  /** A delivery the session sent (or replayed). */
  sent: [delivery: DeliveryFieldsFragment];
  /** A wait the session started whose call ended (cancelled) before its outcome. */
  waiting: [wait: WaitValue];
  /** A wait whose outcome a call answered. */
  settled: [waitId: string];
}

export class McpContext {
  readonly client: SwitchboardClient;
  readonly events = new EventEmitter<SessionEvents>();
  private caller: Promise<Caller> | undefined;

  constructor(
    readonly connection: Connection,
    readonly log: (line: string) => void = (line) =>
      process.stderr.write(`switchboard mcp: ${line}\n`),
  ) {
    this.client = createClient({ url: connection.url, token: connection.token });
  }

  /** The caller as the gateway resolves the credential (asked once; asked again after a failure). */
  me(): Promise<Caller> {
    this.caller ??= this.client
      .request(WhoamiDocument)
      .then((data) => data.me)
      .catch((error: unknown) => {
        this.caller = undefined;
        throw error;
      });
    return this.caller;
  }

  async goal(): Promise<string> {
    if (this.connection.goal) return this.connection.goal;
    const me = await this.me();
    if (me.goalId) return me.goalId;
    if (me.goalIds.length === 1 && me.goalIds[0]) return me.goalIds[0];
    throw new UsageError(
      'no goal: this credential spans several goals; restart the server with SWITCHBOARD_GOAL set',
    );
  }

  /** The agent named, else the caller's own agent. */
  async agent(named?: string): Promise<string> {
    if (named) return named;
    const me = await this.me();
    if (me.agentId) return me.agentId;
    throw new UsageError(`a ${me.kind} credential is not an agent: name one with \`agent\``);
  }

  /** Subscriptions over graphql-ws (the `ws` WebSocket: Node 20 has none built in). */
  stream(signal?: AbortSignal, giveUpAt?: number): StreamOptions {
    return {
      url: this.connection.url,
      token: this.connection.token,
      webSocketImpl: WebSocket,
      signal,
      giveUpAt,
      onConnection: (event) => {
        if (event.state === 'reconnecting')
          this.log(`stream reconnecting in ${event.delayMs} ms (${this.redact(event.reason)})`);
      },
    };
  }

  /** Removes the token from text that may reach a log or an agent. */
  redact(text: string): string {
    const token = this.connection.token;
    return token ? text.split(token).join('[token]') : text;
  }

  /** One message an agent can act on, for a transport or request failure. */
  explain(error: unknown): string {
    const url = this.connection.url;
    if (error instanceof UsageError) return error.message;
    if (error instanceof ClientError) {
      switch (error.kind) {
        case ClientErrorKind.UNREACHABLE:
          return `cannot reach the gateway at ${url}: is it running? Check SWITCHBOARD_URL, then retry.`;
        case ClientErrorKind.UNAUTHENTICATED:
          return 'the gateway refused the token: check SWITCHBOARD_TOKEN (it may be revoked); retrying will not help.';
        case ClientErrorKind.FORBIDDEN:
          return `this credential may not do that: ${this.redact(error.message)}`;
        case ClientErrorKind.BAD_USER_INPUT:
          return `the gateway refused the arguments: ${this.redact(error.message)}`;
        default:
          return `the gateway failed: ${this.redact(error.message)}`;
      }
    }
    return `unexpected error: ${this.redact(error instanceof Error ? error.message : String(error))}`;
  }
}
