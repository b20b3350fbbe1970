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
import type { TypedDocumentString } from './generated/graphql.ts';

export interface ClientOptions {
  /** The gateway's GraphQL endpoint, e.g. http://127.0.0.1:4000/graphql. */
  url: string;
  /** The bearer token; sent only in the Authorization header. */
  token?: string | null;
  /** Defaults to the global fetch. */
  fetch?: typeof fetch;
  /** Abort a request after this long (default 30 s). */
  requestTimeoutMs?: number;
}

export interface SwitchboardClient {
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
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const timeoutMs = options.requestTimeoutMs ?? 30_000;
  return {
    url: options.url,
    async request(document, ...rest) {
      const query = document.toString();
      const variables = rest[0] ?? {};
      let response: Response;
      try {
        response = await doFetch(options.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/graphql-response+json, application/json',
            ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
          },
          body: JSON.stringify({ query, variables, operationName: operationName(query) }),
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (cause) {
        throw new ClientError(ClientErrorKind.UNREACHABLE, `cannot reach ${options.url}`, {
          cause,
        });
      }
      let body: { data?: unknown; errors?: GraphQLErrorShape[] };
      try {
        body = (await response.json()) as typeof body;
      } catch (cause) {
        if (response.status === 401)
          throw new ClientError(ClientErrorKind.UNAUTHENTICATED, 'the gateway refused the token', {
            status: 401,
          });
        throw new ClientError(
          ClientErrorKind.SERVER,
          `${options.url} answered ${response.status} without GraphQL JSON: is it a Switchboard gateway?`,
          { status: response.status, cause },
        );
      }
      if (body.errors?.length) throw errorFromGraphQL(body.errors, response.status);
      if (response.status === 401)
        throw new ClientError(ClientErrorKind.UNAUTHENTICATED, 'the gateway refused the token', {
          status: 401,
        });
      if (!response.ok || body.data == null)
        throw new ClientError(
          ClientErrorKind.SERVER,
          `${options.url} answered ${response.status}`,
          {
            status: response.status,
          },
        );
      return body.data as never;
    },
  };
}
