/**
 * The typed HTTP client: one POST per operation with global fetch, so it runs in Node and in
 * a browser alike. Operations are the generated documents of ./generated (types from
 * schema/schema.graphql); this file knows nothing of any of them.
 */
import {
  ClientError,
  ClientErrorKind,
  errorFromGraphQL,
  type GraphQLErrorShape,
} from './errors.ts';
import { gatewayReady, gatewayUrls, watchReadiness } from './gateways.ts';
import type { TypedDocumentString } from './generated/graphql.ts';

/** One HTTP POST, as the client needs it; the default is global fetch (browsers, Node). */
export type Transport = (request: {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  /** Aborts the request: the client left this gateway for another. */
  signal?: AbortSignal;
}) => Promise<{ status: number; text: string }>;

/** A Transport over a fetch implementation. */
export function fetchTransport(
  doFetch: typeof fetch = globalThis.fetch.bind(globalThis),
): Transport {
  return async ({ url, headers, body, timeoutMs, signal }) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const response = await doFetch(url, {
      method: 'POST',
      headers,
      body,
      signal: signal ? AbortSignal.any([timeout, signal]) : timeout,
    });
    return { status: response.status, text: await response.text() };
  };
}

export interface ClientOptions {
  /**
   * The gateway's GraphQL endpoint, e.g. http://127.0.0.1:4000/graphql; several gateways of one
   * deployment separated by commas (./gateways.ts).
   */
  url: string;
  /** The bearer token; sent only in the Authorization header. */
  token?: string | null;
  /** Defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Replaces fetch altogether (the CLI uses node:http without keep-alive: it exits sooner). */
  transport?: Transport;
  /** Abort a request after this long (default 30 s). */
  requestTimeoutMs?: number;
}

export interface SwitchboardClient {
  /** The gateway in use (with several, the one that answered last). */
  readonly url: string;
  /** Runs a query or mutation; resolves with `data`, or rejects with a ClientError. */
  request<Result, Variables>(
    document: TypedDocumentString<Result, Variables>,
    ...variables: Variables extends Record<string, never> ? [] | [Variables] : [Variables]
  ): Promise<Result>;
}

export const DEFAULT_URL = 'http://127.0.0.1:4000/graphql';

/** The operation's name (`query Whoami {` → Whoami), sent so the gateway can log it. */
function operationName(source: string): string | undefined {
  return /\b(?:query|mutation|subscription)\s+(\w+)/.exec(source)?.[1];
}

export function createClient(options: ClientOptions): SwitchboardClient {
  const transport = options.transport ?? fetchTransport(options.fetch);
  const timeoutMs = options.requestTimeoutMs ?? 30_000;
  const urls = gatewayUrls(options.url);
  /** The gateway that answered last: the next request starts there. */
  let current = 0;

  /**
   * One POST; while another gateway is left to try, aborted when its gateway says it is not
   * ready (the last one tried gets the whole timeout).
   */
  const send = (url: string, headers: Record<string, string>, body: string, last: boolean) => {
    if (last) return transport({ url, headers, body, timeoutMs });
    const abandon = new AbortController();
    const sent = transport({ url, headers, body, timeoutMs, signal: abandon.signal });
    return new Promise<{ status: number; text: string }>((resolve, reject) => {
      const stop = watchReadiness(url, () => {
        reject(new Error(`${url} is not ready`));
        abandon.abort();
      });
      sent.then(
        (response) => {
          stop();
          resolve(response);
        },
        (error: unknown) => {
          stop();
          reject(error);
        },
      );
    });
  };

  return {
    get url() {
      return urls[current] as string;
    },
    async request(document, ...rest) {
      const query = document.toString();
      const variables = rest[0] ?? {};
      const headers = {
        'content-type': 'application/json',
        accept: 'application/graphql-response+json, application/json',
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      };
      const body = JSON.stringify({ query, variables, operationName: operationName(query) });
      // Each request walks the gateways from the one that answered last, by its own index:
      // requests failing over at once must not move each other back to the gateway they left.
      const start = current;
      for (let tried = 0; ; tried++) {
        const index = (start + tried) % urls.length;
        const url = urls[index] as string;
        const last = tried === urls.length - 1;
        let response: { status: number; text: string };
        try {
          response = await send(url, headers, body, last);
        } catch (cause) {
          if (!last) continue;
          throw new ClientError(ClientErrorKind.UNREACHABLE, `cannot reach ${options.url}`, {
            cause,
          });
        }
        if (response.status === 503 && !last) continue;
        try {
          const data = parse(url, response);
          current = index;
          return data as never;
        } catch (error) {
          // A failure of the gateway itself (its database gone, say): the next one, if this
          // one says it is not ready.
          const server = error instanceof ClientError && error.kind === ClientErrorKind.SERVER;
          if (!server || last || (await gatewayReady(url))) {
            current = index;
            throw error;
          }
        }
      }
    },
  };
}

/** A gateway's answer as data, or the ClientError it amounts to. */
function parse(url: string, response: { status: number; text: string }): unknown {
  let body: { data?: unknown; errors?: GraphQLErrorShape[] };
  try {
    body = JSON.parse(response.text) as typeof body;
  } catch (cause) {
    if (response.status === 401)
      throw new ClientError(ClientErrorKind.UNAUTHENTICATED, 'the gateway refused the token', {
        status: 401,
      });
    throw new ClientError(
      ClientErrorKind.SERVER,
      `${url} answered ${response.status} without GraphQL JSON: is it a Switchboard gateway?`,
      { status: response.status, cause },
    );
  }
  if (body.errors?.length) throw errorFromGraphQL(body.errors, response.status);
  if (response.status === 401)
    throw new ClientError(ClientErrorKind.UNAUTHENTICATED, 'the gateway refused the token', {
      status: 401,
    });
  if (response.status >= 300 || body.data == null)
    throw new ClientError(ClientErrorKind.SERVER, `${url} answered ${response.status}`, {
      status: response.status,
    });
  return body.data;
}
