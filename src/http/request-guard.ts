/**
 * What an HTTP request to the GraphQL endpoints must be before anything reads it, in this
 * order: a method the endpoint serves (405 METHOD_NOT_ALLOWED with `Allow`, whatever its
 * headers), then safe from cross-site request forgery (403 CSRF_HEADER_REQUIRED).
 *
 * A request a browser could send cross-site without a CORS preflight (any GET, or a POST of a
 * form or plain text) must carry a header a page cannot set without one: `Authorization` (how
 * every caller authenticates: the gateway takes no cookies) or the CSRF header. So urql's GET
 * queries with their bearer token pass, as does GraphiQL with its header; a forged form or
 * image request does not.
 *
 * `/graphql` serves GET and POST (Yoga, with SSE by `Accept: text/event-stream`);
 * `/graphql/stream` is graphql-sse in both of its modes (PUT reserves a single connection,
 * DELETE ends a stream). The CSRF check of `/graphql` runs where Yoga parses the request, after
 * GraphiQL has had its chance to answer for its own page.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  type Request as SseRequest,
  type Response as SseResponse,
  TOKEN_HEADER_KEY,
  TOKEN_QUERY_KEY,
} from 'graphql-sse';
import { createGraphQLError, type Plugin } from 'graphql-yoga';

export const STREAM_ENDPOINT = '/graphql/stream';

const METHODS: Record<string, readonly string[]> = {
  '/graphql': ['GET', 'POST'],
  [STREAM_ENDPOINT]: ['GET', 'POST', 'PUT', 'DELETE'],
};

// What a browser sends cross-site without a preflight (the CORS-safelisted content types).
const SIMPLE_CONTENT_TYPES = [
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'text/plain',
];

function forgeable(request: Request, csrfHeader: string): boolean {
  const type = request.headers.get('content-type')?.toLowerCase();
  const preflighted =
    request.method !== 'GET' &&
    type !== undefined &&
    !SIMPLE_CONTENT_TYPES.some((simple) => type.startsWith(simple));
  return !preflighted && !request.headers.has('authorization') && !request.headers.has(csrfHeader);
}

const csrfMessage = (csrfHeader: string) =>
  `a request a browser could send cross-site (a GET, or a POST of a form or plain text) needs an Authorization or ${csrfHeader} header`;

const refusal = (
  fetchAPI: { Response: typeof Response },
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
) =>
  new fetchAPI.Response(JSON.stringify({ errors: [{ message, extensions: { code } }] }), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });

export function requestGuard(csrfHeader: string): Plugin {
  return {
    onRequest({ request, url, endResponse, fetchAPI }) {
      const methods = METHODS[url.pathname];
      // Other paths are not GraphQL's; a CORS preflight is answered by Yoga's CORS.
      if (!methods || request.method === 'OPTIONS') return;
      if (!methods.includes(request.method))
        return endResponse(
          refusal(
            fetchAPI,
            405,
            'METHOD_NOT_ALLOWED',
            `${url.pathname} serves ${methods.join(', ')}, not ${request.method}`,
            { allow: methods.join(', ') },
          ),
        );
      if (url.pathname === STREAM_ENDPOINT && forgeable(request, csrfHeader))
        endResponse(refusal(fetchAPI, 403, 'CSRF_HEADER_REQUIRED', csrfMessage(csrfHeader)));
    },
    onRequestParse({ request }) {
      if (forgeable(request, csrfHeader))
        throw createGraphQLError(csrfMessage(csrfHeader), {
          extensions: { code: 'CSRF_HEADER_REQUIRED', http: { status: 403 } },
        });
    },
  };
}

/**
 * The tokens of graphql-sse's single-connection mode, bound to the credential that reserved
 * the stream: a token is `<random>.<HMAC of random and credential>`, so only requests with
 * that credential reach the stream (another gets 404 STREAM_NOT_FOUND), and nothing is kept
 * per stream. Each reservation (PUT) gets a fresh token, whatever token its request carries.
 */
export function streamTokens() {
  const secret = randomBytes(32);
  const owners = new WeakMap<Request, string>();
  const sign = (random: string, owner: string) =>
    createHmac('sha256', secret).update(`${random}|${owner}`).digest('base64url');
  return {
    /** Notes each stream request's credential (Yoga plugin; after requestGuard). */
    plugin: {
      onRequest({ request, url, serverContext }) {
        if (url.pathname !== STREAM_ENDPOINT) return;
        const caller = (serverContext as { caller?: { credentialId: string | null } | null })
          .caller;
        owners.set(request, caller?.credentialId ?? 'anonymous');
      },
    } satisfies Plugin,
    /** graphql-sse's `authenticate`: the stream token of a request, or its refusal. */
    authenticate({ raw }: SseRequest<Request>): string | SseResponse {
      const owner = owners.get(raw) ?? 'anonymous';
      const presented =
        raw.headers.get(TOKEN_HEADER_KEY) ?? new URL(raw.url).searchParams.get(TOKEN_QUERY_KEY);
      if (raw.method === 'PUT' || !presented) {
        const random = randomBytes(18).toString('base64url');
        return `${random}.${sign(random, owner)}`;
      }
      const [random = '', mac = ''] = presented.split('.');
      const expected = Buffer.from(sign(random, owner));
      const given = Buffer.from(mac);
      if (given.length === expected.length && timingSafeEqual(given, expected)) return presented;
      const message = 'no such stream for this credential';
      return [
        JSON.stringify({ errors: [{ message, extensions: { code: 'STREAM_NOT_FOUND' } }] }),
        {
          status: 404,
          statusText: 'Not Found',
          headers: { 'content-type': 'application/json; charset=utf-8' },
        },
      ];
    },
  };
}
