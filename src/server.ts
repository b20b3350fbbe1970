import { randomUUID } from 'node:crypto';
import {
  createServer,
  type Server as HttpServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import { useGraphQLSSE } from '@graphql-yoga/plugin-graphql-sse';
import { RequestCache } from '@pothos/plugin-scope-auth';
import { GraphQLError, getOperationAST, NoSchemaIntrospectionCustomRule } from 'graphql';
import type { OperationResult } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import { createYoga, type Plugin } from 'graphql-yoga';
import { type WebSocket, WebSocketServer } from 'ws';
import { ConfigError } from './config.ts';
import type { Caller } from './core/caller.ts';
import { UnauthenticatedError } from './core/errors.ts';
import { isAsyncIterable } from './core/stream.ts';
import { serveDashboard } from './dashboard-assets.ts';
import type { AppDeps, Context } from './graphql/context.ts';
import { compiledExecution } from './graphql/execution/jit.ts';
import { responseSizeLimit } from './graphql/execution/response-size.ts';
import {
  describeUnexpected,
  maskError,
  UNEXPECTED_MESSAGE,
  withoutSuggestions,
} from './graphql/masking.ts';
import { screenInput } from './graphql/screen-input.ts';
import { BatchedWebSocket } from './http/batched-websocket.ts';
import { CSRF_HEADER, serveGraphiQL } from './http/graphiql.ts';
import { addressOf, CallerLimits, CLOSE_TOO_MANY, RefusalHold, shutOut } from './http/limits.ts';
import { Metrics } from './http/metrics.ts';
import {
  accessFields,
  LiveStreams,
  nameOf,
  newRecord,
  type OperationRecord,
  recordOperation,
  requestIdOf,
  tagResult,
  type WithRecord,
} from './http/operations.ts';
import { requestGuard, STREAM_ENDPOINT, streamTokens } from './http/request-guard.ts';
import type { Tracing } from './http/tracing.ts';
import { schema } from './schema.ts';
import { OpenStreams } from './streams.ts';

export interface Server {
  /**
   * Listens on `port` (0 picks a free one), and on the metrics port when it has its own;
   * resolves to the ports in use.
   */
  start(port: number): Promise<{ port: number; metricsPort: number | null }>;
  /**
   * Stops: `/readyz` answers 503 at once while everything else is served for `drainMs` (load
   * balancers take the instance out); then every subscription gets a last SHUTTING_DOWN error
   * and ends, WebSockets close with 1001, and every connection closes. Resolves when done.
   */
  stop(drainMs?: number): Promise<void>;
}

/** What an operation carries into Yoga: its record and its caller, resolved and limited. */
interface SocketContext extends WithRecord {
  caller: Caller | null;
}

/** graphql-ws close code for a refused or revoked credential. */
export const CLOSE_FORBIDDEN = 4403;
/** WebSocket close code 1013: the server cannot serve this connection now; try again later. */
export const CLOSE_TRY_AGAIN_LATER = 1013;

/**
 * HTTP (GraphQL + GraphiQL + SSE) and graphql-ws on one port and path, plus `/healthz`
 * and `/readyz`. The database and doorbell come in through `deps`; nothing here is global.
 */
export function buildServer(deps: AppDeps, tracing: Tracing | null = null): Server {
  const { config } = deps;
  let accepting = true;
  // A revoked credential's (or retired agent's) streams end, then its sockets close.
  const streams = new OpenStreams(deps);
  const limits = new CallerLimits(config, deps.refusals);
  const held = new RefusalHold();
  // SSE responses still open: stop() lets them finish writing their last event.
  const sseResponses = new Set<ServerResponse>();
  const metrics =
    config.metrics.serve === 'off'
      ? null
      : new Metrics({
          database: deps.database,
          doorbell: deps.doorbell,
          websockets: () => wss.clients.size,
          refusals: deps.refusals,
        });
  /** An operation's last result was sent (or its client went away). */
  const finish = (record: OperationRecord) => {
    metrics?.operationFinished(record);
    tracing?.operationFinished(record);
    deps.log.info('operation', accessFields(record));
  };
  // Every subscription stream, for metrics, request ids in its errors, and its end at shutdown.
  const live = new LiveStreams((record) => {
    metrics?.subscriptionClosed(record);
    finish(record);
  });
  /** Tags a result (or tracks a stream) of `record`; a single result finishes it. */
  const observe = <T>(result: T, record: OperationRecord, finishSingle: boolean): T => {
    if (isAsyncIterable(result)) {
      metrics?.subscriptionOpened(record);
      deps.log.debug('subscription opened', {
        requestId: record.requestId,
        operation: record.name,
        field: record.field,
        transport: record.transport,
      });
      return live.track(result, record) as T;
    }
    const tagged = Array.isArray(result)
      ? (result.map((item) => tagResult(item, record)) as T)
      : tagResult(result, record);
    if (finishSingle) finish(record);
    return tagged;
  };

  const sseTokens = streamTokens();
  const yoga = createYoga<Partial<SocketContext>, Context>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    // GraphiQL is served before Yoga (serveGraphiQL), compressed.
    graphiql: false,
    cors: corsFor(config.corsOrigins),
    // Unexpected errors are logged once, by maskError; client mistakes are not server events.
    logging: false,
    // Bodies are bounded before Yoga sees them (bodyRefusal: a Content-Length of at most
    // maxBodyBytes, and Node reads no more than that): Yoga's own limit would pipe every body
    // through a counting stream again.
    maxRequestBodySize: false,
    maskedErrors: {
      errorMessage: UNEXPECTED_MESSAGE,
      maskError: (error, message) => maskError(error, message, deps),
    },
    // The caller comes resolved, its limits applied: by the request handler (HTTP, SSE) or
    // per socket (graphql-ws).
    context: ({ caller }): Context => ({ deps, db: deps.database.db, caller: caller ?? null }),
    plugins: [
      EnvelopArmorPlugin({
        maxDepth: { n: 12, exposeLimits: false },
        maxAliases: { n: 20, exposeLimits: false },
        maxTokens: { n: 4000, exposeLimits: false },
        maxDirectives: { n: 20, exposeLimits: false },
        costLimit: { maxCost: 20000, exposeLimits: false },
        blockFieldSuggestion: { enabled: !config.exploration },
      }),
      requestGuard(CSRF_HEADER),
      sseTokens.plugin,
      useGraphQLSSE({ endpoint: STREAM_ENDPOINT, authenticate: sseTokens.authenticate }),
      screenInput,
      responseSizeLimit(limits.limits.responseBytes, deps.refusals),
      streams.plugin,
      recordOperation,
      {
        onParams: ({ params, context }) => {
          const record = (context as WithRecord).operationRecord;
          if (record) record.name = nameOf(params);
        },
        // HTTP and SSE results, after masking (graphql-ws results are observed below).
        onResultProcess: ({ result, setResult, serverContext }) => {
          const record = (serverContext as WithRecord).operationRecord;
          if (!record) return;
          if (isAsyncIterable(result)) {
            record.transport = 'sse';
            const { res } = serverContext as { res?: ServerResponse };
            if (res) {
              sseResponses.add(res);
              res.once('close', () => sseResponses.delete(res));
            }
          }
          // A single result is finished when its response closes (the duration includes it).
          setResult(observe(result, record, false));
        },
      } satisfies Plugin,
      releaseScopeCache,
      // Last of the plugins that see subscriptions: it ends their onSubscribe chain.
      deps.fanOut.plugin,
      deps.responses.plugin,
      compiledExecution,
      ...(config.exploration ? [] : [closedSchema]),
    ],
  });

  const http = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/healthz') return sendJson(res, 200, { status: 'ok' });
    if (path === '/readyz') {
      if (!accepting) return sendJson(res, 503, { status: 'stopping' });
      const doorbell = deps.doorbell.status();
      if (!doorbell.listening) {
        return sendJson(res, 503, {
          status: 'doorbell not listening',
          reason: doorbell.reason,
          since: doorbell.since.toISOString(),
        });
      }
      return void deps.database.ping().then(
        () => sendJson(res, 200, { status: 'ready', driver: deps.database.driver }),
        () => sendJson(res, 503, { status: 'database unreachable' }),
      );
    }
    if (path === '/metrics' && metrics && config.metrics.serve === 'main')
      return serveMetrics(metrics, res);
    const requestId = requestIdOf(req.headers['x-request-id']);
    res.setHeader('x-request-id', requestId);
    deps.log.debug('request', { requestId, method: req.method, path });
    const refusal = bodyRefusal(req, config.maxBodyBytes);
    if (refusal) return sendJson(res, refusal.status, { errors: [{ message: refusal.message }] });
    const servedStatic =
      config.exploration && path === '/graphql'
        ? serveGraphiQL(req, res)
        : serveDashboard(req, res);
    void servedStatic.then(async (served) => {
      if (served) return;
      const operationRecord = newRecord(requestId, 'http', req.headers);
      res.once('close', () => {
        if (operationRecord.resulted && operationRecord.transport === 'http')
          finish(operationRecord);
      });
      // The caller and its limits first: a refusal costs no body read, no parse, no Yoga.
      let caller: Caller | null;
      try {
        caller = await limits.resolve(deps.credentials, req.headers.authorization, addressOf(req));
        operationRecord.caller = caller;
        const refused = await limits.operation(caller);
        if (refused) throw refused;
      } catch (error) {
        return refuseRequest(
          res,
          operationRecord,
          maskError(error, UNEXPECTED_MESSAGE, deps),
          held,
        );
      }
      return yoga.handle(req, res, { operationRecord, caller });
    });
  });
  const metricsHttp =
    metrics && config.metrics.serve === 'own'
      ? createServer((req, res) =>
          (req.url ?? '/').split('?')[0] === '/metrics'
            ? serveMetrics(metrics, res)
            : sendJson(res, 404, { error: 'only /metrics is served here' }),
        )
      : null;

  // noServer: the HTTP server owns 'listen' errors (a port in use is reported once, by start).
  // Frames are capped like request bodies (the library's default is 100 MiB), also before
  // connection_init is authenticated: a larger frame closes that socket with 1009.
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: config.maxBodyBytes,
    WebSocket: BatchedWebSocket,
    allowSynchronousEvents: false,
  });
  http.on('upgrade', (req, socket, head) => {
    if ((req.url ?? '/').split('?')[0] !== '/graphql') return void socket.destroy();
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });
  const callers = new WeakMap<WebSocket, Caller>();
  const socketIds = new WeakMap<WebSocket, string>();
  useServer<Record<string, unknown>, { socket: WebSocket; request: IncomingMessage }>(
    {
      execute: async (args) => {
        const { execute, record } = args.rootValue as Enveloped;
        return observe(await execute(args), record, true);
      },
      subscribe: async (args) => {
        const { subscribe, record } = args.rootValue as Enveloped;
        return observe(await subscribe(args), record, true);
      },
      onConnect: async (ctx) => {
        const socketId = requestIdOf(ctx.extra.request.headers['x-request-id']);
        socketIds.set(ctx.extra.socket, socketId);
        const authorization = ctx.connectionParams?.authorization;
        try {
          const caller = await limits.resolve(
            deps.credentials,
            typeof authorization === 'string' ? authorization : null,
            addressOf(ctx.extra.request),
          );
          if (!caller) {
            deps.log.debug('websocket refused: no credential', { requestId: socketId });
            return false;
          }
          const release = limits.openSocket(caller);
          if (typeof release === 'string') {
            deps.log.debug('websocket refused: too many sockets', { requestId: socketId });
            ctx.extra.socket.close(CLOSE_TOO_MANY, release);
            return false;
          }
          ctx.extra.socket.once('close', release);
          callers.set(ctx.extra.socket, caller);
          deps.log.debug('websocket connected', {
            requestId: socketId,
            callerKind: caller.kind,
            credentialId: caller.credentialId,
          });
          ctx.extra.socket.once('close', (code) =>
            deps.log.debug('websocket closed', { requestId: socketId, code }),
          );
          const { socket } = ctx.extra;
          if (caller.credentialId !== null) {
            const untrack = streams.trackSocket(caller.credentialId, () =>
              socket.close(CLOSE_FORBIDDEN, 'credential revoked'),
            );
            socket.once('close', untrack);
          }
          return true;
        } catch (error) {
          if (error instanceof UnauthenticatedError) {
            deps.log.debug('websocket refused: bad credential', { requestId: socketId });
            return false;
          }
          if (error instanceof GraphQLError) {
            // Over the failed authentications of its address: the words of the HTTP 429.
            deps.log.debug('websocket refused: too many failed authentications', {
              requestId: socketId,
            });
            ctx.extra.socket.close(CLOSE_TOO_MANY, error.message);
            return false;
          }
          // The credential could not be checked (the database is unreachable, say). Logged
          // like any unexpected error, never with the failed query's parameters (the token's
          // hash), and the client told to try again later rather than that it is forbidden.
          deps.log.error('websocket refused: credential could not be checked', {
            requestId: socketId,
            errorId: randomUUID(),
            ...describeUnexpected(error),
          });
          ctx.extra.socket.close(CLOSE_TRY_AGAIN_LATER, 'try again later');
          return false;
        }
      },
      // Every end of an operation (completed by either side, failed, its socket closed).
      onComplete: (ctx, id) => limits.ended(ctx.extra.socket, id),
      onError: (ctx, id) => void limits.ended(ctx.extra.socket, id),
      onSubscribe: async (ctx, id, params) => {
        const { socket } = ctx.extra;
        // What a socket closed for flooding still sent: dropped, at the least cost.
        if (socket.readyState !== socket.OPEN) return CLOSING;
        // A socket's operations share its request id, each with its own operation id after it.
        const record = newRecord(`${socketIds.get(socket)}:${id}`, 'ws', ctx.extra.request.headers);
        record.name = nameOf(params);
        const caller = callers.get(socket) ?? null;
        record.caller = caller;
        const refuse = (errors: readonly GraphQLError[]) =>
          observe({ errors }, record, true).errors;
        const rate = await limits.operation(caller);
        if (socket.readyState !== socket.OPEN) return CLOSING;
        if (rate) {
          // A client that goes on at twice the rate is not reading its refusals: its socket closes.
          if (limits.flooding(socket)) shutOut(socket, rate.message);
          return refuse([rate]);
        }
        // Only what the context function reads, in one shape. Spread from graphql-ws's context
        // with the request, socket and params (as Yoga's example does), every operation's
        // context got a V8 hidden class of its own: ~1 KB more per open subscription.
        const socketContext: SocketContext = { caller, operationRecord: record };
        const { schema, execute, subscribe, contextFactory, parse, validate } =
          yoga.getEnveloped(socketContext);
        // A bad operation (syntax, token or depth limits) is an error on its own id: the
        // socket and its other subscriptions carry on. It reads as it would over HTTP.
        let document: ReturnType<typeof parse>;
        const reject = (errors: readonly Error[]) =>
          refuse(errors.map((error) => operationError(error, deps)));
        try {
          document = parse(params.query);
          const errors = validate(schema, document);
          if (errors.length > 0) return reject(errors);
        } catch (error) {
          if (error instanceof Error && error.name === 'GraphQLError') return reject([error]);
          throw error;
        }
        if (getOperationAST(document, params.operationName)?.operation === 'subscription') {
          const refused = limits.subscribe(ctx.extra.socket, caller, id);
          if (refused) return refuse([refused]);
        }
        return {
          schema,
          operationName: params.operationName,
          document,
          variableValues: params.variables,
          contextValue: await contextFactory(),
          rootValue: { execute, subscribe, record } as Enveloped,
        };
      },
    },
    wss,
  );

  return {
    async start(port) {
      const main = await listenOn(http, config.host, port, 'PORT', 'HOST');
      const metricsPort =
        metricsHttp && config.metrics.serve === 'own'
          ? await listenOn(
              metricsHttp,
              config.metrics.host,
              config.metrics.port,
              'SWITCHBOARD_METRICS',
              'SWITCHBOARD_METRICS',
            ).catch(async (error: unknown) => {
              await new Promise((resolve) => http.close(resolve));
              throw error;
            })
          : null;
      return { port: main, metricsPort };
    },

    async stop(drainMs = 0) {
      accepting = false;
      if (drainMs > 0) {
        deps.log.info('draining: /readyz answers 503', { drainMs });
        await new Promise((resolve) => setTimeout(resolve, drainMs));
      }
      streams.close();
      held.releaseAll();
      const ending = live.size;
      live.endAll(shuttingDown);
      await until(() => live.unread === 0 && sseResponses.size === 0, 1000);
      if (ending > 0) deps.log.info('subscriptions ended', { count: ending });
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      for (const socket of wss.clients) socket.close(1001, 'server stopping');
      http.closeAllConnections();
      await waitForSockets(wss, 1000);
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await closed;
      if (metricsHttp?.listening) await new Promise((resolve) => metricsHttp.close(resolve));
    },
  };
}

/**
 * CORS: only the origins listed in SWITCHBOARD_CORS_ORIGINS get CORS headers, and never
 * `allow-credentials` (callers send bearer tokens, not cookies). The gateway's own pages (the
 * dashboard, GraphiQL) are same-origin and need none; any other origin is not reflected.
 */
function corsFor(origins: readonly string[]) {
  const allowed = new Set(origins);
  return (request: Request) => {
    const origin = request.headers.get('origin');
    if (!origin || !allowed.has(origin)) return false as const;
    return {
      origin: [origin],
      credentials: false,
      methods: ['GET', 'POST', 'PUT', 'DELETE'],
      allowedHeaders: ['authorization', 'content-type', 'accept', 'x-request-id', CSRF_HEADER],
      exposedHeaders: ['x-request-id'],
      maxAge: 600,
    };
  };
}

/** Listens on host:port; a port in use or an address not of this machine is a ConfigError. */
function listenOn(
  server: HttpServer,
  host: string,
  port: number,
  portVariable: string,
  hostVariable: string,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'EADDRINUSE'
          ? new ConfigError(
              `${portVariable}: ${host}:${port} is already in use; stop the other process or choose another ${portVariable}`,
            )
          : error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND'
            ? new ConfigError(`${hostVariable}: ${host} is not an address of this machine`)
            : error,
      );
    };
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

/** The Prometheus exposition of this instance. */
function serveMetrics(metrics: Metrics, res: ServerResponse): void {
  metrics.render().then(
    ({ contentType, body }) => {
      res.writeHead(200, { 'content-type': contentType });
      res.end(body);
    },
    () => sendJson(res, 500, { error: 'metrics could not be collected' }),
  );
}

/**
 * Pothos scope-auth memoizes scope checks in a cache of its own (six Maps) per context, for
 * as long as the context lives; a subscription's context lives as long as the subscription.
 * What the subscribe memoized serves nothing later, so it is dropped then. (Not after each
 * event too: a hook on every event wraps every subscription's stream once more.)
 */
const releaseScopeCache: Plugin = {
  onSubscribe: () => ({
    onSubscribeResult: ({ args }) => RequestCache.clearForContext(args.contextValue),
  }),
};

/**
 * An operation's parse or validation error over graphql-ws, as the same operation over HTTP
 * reads it: masked by `maskError` (the limit plugins' errors get their words and code), rebuilt
 * as this module's GraphQLError (the parser and the limit plugins may raise another copy's
 * class, and graphql-ws recognises errors by class), without Yoga's `http` extension, which is
 * for HTTP responses only.
 */
function operationError(error: Error, deps: AppDeps): GraphQLError {
  const { message, nodes, source, positions, extensions } = error as Partial<GraphQLError> & Error;
  const masked = maskError(
    new GraphQLError(message, { nodes, source, positions, extensions: extensions ?? {} }),
    UNEXPECTED_MESSAGE,
    deps,
  );
  const { http: _http, ...rest } = masked.extensions;
  return new GraphQLError(masked.message, {
    nodes: masked.nodes,
    source: masked.source,
    positions: masked.positions,
    extensions: rest,
  });
}

interface Enveloped {
  execute: (args: unknown) => OperationResult;
  subscribe: (args: unknown) => OperationResult;
  record: OperationRecord;
}

/** Waits for sockets to finish their close handshake, then cuts off the ones that did not. */
async function waitForSockets(wss: WebSocketServer, graceMs: number): Promise<void> {
  await until(() => wss.clients.size === 0, graceMs);
  for (const socket of wss.clients) socket.terminate();
}

/** Resolves once `done()` holds, or after `graceMs` whether or not it does. */
async function until(done: () => boolean, graceMs: number): Promise<void> {
  const deadline = Date.now() + graceMs;
  while (!done() && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The answer to an operation on a socket that is closing (never sent: the socket is closing). */
const CLOSING = [
  new GraphQLError('the socket is closing', { extensions: { code: 'RATE_LIMITED' } }),
];

/** The last item of every subscription when the server stops (one error for them all). */
const SHUTTING_DOWN = [
  new GraphQLError(
    'the server is shutting down: subscribe again (to another instance) and resume from your last cursor',
    { extensions: { code: 'SHUTTING_DOWN' } },
  ),
];
const shuttingDown = () => ({ errors: SHUTTING_DOWN });

function bodyRefusal(
  req: IncomingMessage,
  maxBytes: number,
): { status: number; message: string } | null {
  if (req.method !== 'POST') return null;
  const length = req.headers['content-length'];
  if (length === undefined) {
    return req.headers['transfer-encoding']
      ? { status: 411, message: 'send a Content-Length header with the request body' }
      : null;
  }
  return Number(length) > maxBytes
    ? { status: 413, message: `request body is larger than ${maxBytes} bytes` }
    : null;
}

/**
 * Answers a request refused before Yoga saw it (no credential that stands, or a limit) as Yoga
 * answers errors: with its request id, and the status of its `http` extension (401), 429 with
 * `Retry-After` for a refusal to retry later (sent after `held`'s second), 500 for an
 * unexpected failure.
 */
function refuseRequest(
  res: ServerResponse,
  record: OperationRecord,
  error: GraphQLError,
  held: RefusalHold,
): void {
  const { http, ...extensions } = error.extensions as {
    http?: { status?: number };
    code?: string;
    retryAfterSeconds?: number;
  };
  const retryAfter = extensions.retryAfterSeconds;
  const status =
    http?.status ??
    (retryAfter !== undefined ? 429 : extensions.code === 'INTERNAL_SERVER_ERROR' ? 500 : 200);
  // Written as plain JSON: a flood of refusals builds no GraphQLError (each captures a stack).
  const tagged = tagResult({ errors: [{ message: error.message, extensions }] }, record);
  const send = () => {
    res.writeHead(status, {
      'content-type': 'application/json',
      ...(retryAfter !== undefined ? { 'retry-after': String(retryAfter) } : {}),
    });
    res.end(JSON.stringify(tagged));
  };
  if (status === 429) held.send(res, send);
  else send();
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** With exploration off: no introspection, and no "Did you mean" hints in validation errors. */
const closedSchema: Plugin = {
  onValidate: ({ addValidationRule }) => {
    addValidationRule(NoSchemaIntrospectionCustomRule);
    return ({ result, setResult }) =>
      setResult(
        result.map(
          (error) =>
            new GraphQLError(withoutSuggestions(error.message), {
              nodes: error.nodes,
              extensions: error.extensions,
            }),
        ),
      );
  },
};
