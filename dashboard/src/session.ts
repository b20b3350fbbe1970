/**
 * Where the dashboard connects and as whom. The token lives in sessionStorage only (gone when
 * the tab closes), never in a URL, localStorage or a log; the gateway URL is not a secret. The
 * URL may name several gateways of one deployment, separated by commas: requests and every live
 * stream move to the next when the one in use fails, streams resuming from their cursors
 * (src/client/gateways.ts).
 */

import { gatewayUrls } from '../../src/client/gateways.ts';
import {
  createClient,
  type StreamOptions,
  type SwitchboardClient,
} from '../../src/client/index.ts';
import { LiveStreams, type StreamHandle } from './live.ts';

export interface Session {
  /** One gateway's GraphQL URL, or several separated by commas. */
  readonly url: string;
  readonly token: string;
}

const URL_KEY = 'switchboard.url';
const TOKEN_KEY = 'switchboard.token';

/** The gateway that served this page, which is the usual case. */
export const sameOriginUrl = () => `${location.origin}/graphql`;

export function loadSession(): Session | null {
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (!token) return null;
  return { url: sessionStorage.getItem(URL_KEY) ?? sameOriginUrl(), token };
}

export function saveSession(session: Session): void {
  sessionStorage.setItem(URL_KEY, session.url);
  sessionStorage.setItem(TOKEN_KEY, session.token);
}

export function forgetSession(): void {
  sessionStorage.removeItem(TOKEN_KEY);
}

export interface Connection {
  readonly session: Session;
  readonly client: SwitchboardClient;
  /** The streams the open page follows, for the link pill. */
  readonly live: LiveStreams;
  /**
   * Options for a resumable stream named `name`, registered with the page's live state until
   * `signal` aborts; `fail` and `complete` say why it stopped.
   */
  stream(signal: AbortSignal, name: string): StreamOptions & Omit<StreamHandle, 'onConnection'>;
}
export type { StreamOptions };

export function connect(session: Session): Connection {
  const live = new LiveStreams();
  const urls = gatewayUrls(session.url);
  /** The gateway a stream last connected to: the next stream starts there, not on one lost. */
  let current: string | undefined;
  return {
    session,
    live,
    client: createClient({ url: session.url, token: session.token, requestTimeoutMs: 15_000 }),
    stream: (signal, name) => {
      const handle = live.open(name, signal);
      const first = current ? urls.indexOf(current) : 0;
      return {
        url: [...urls.slice(first), ...urls.slice(0, first)].join(','),
        token: session.token,
        signal,
        onConnection: (event) => {
          if (event.state === 'connected') current = event.url;
          handle.onConnection(event);
        },
        backoff: { initialMs: 100, maxMs: 2000 },
        fail: handle.fail,
        complete: handle.complete,
      };
    },
  };
}
