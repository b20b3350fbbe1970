/**
 * Where the dashboard connects and as whom. The token lives in sessionStorage only (gone when
 * the tab closes), never in a URL, localStorage or a log; the gateway URL is not a secret.
 */
import {
  createClient,
  type StreamOptions,
  type SwitchboardClient,
} from '../../src/client/index.ts';

export interface Session {
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
  /** Options for a resumable stream; `onConnection` feeds the page's connection state. */
  stream(signal: AbortSignal): StreamOptions;
}
export type { StreamOptions };

export function connect(
  session: Session,
  onConnection: NonNullable<StreamOptions['onConnection']>,
): Connection {
  return {
    session,
    client: createClient({ url: session.url, token: session.token, requestTimeoutMs: 15_000 }),
    stream: (signal) => ({
      url: session.url,
      token: session.token,
      signal,
      onConnection,
      backoff: { initialMs: 100, maxMs: 2000 },
    }),
  };
}
