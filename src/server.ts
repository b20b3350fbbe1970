import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import { GraphQLError, NoSchemaIntrospectionCustomRule } from 'graphql';
import type { OperationResult } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import { createYoga, type Plugin } from 'graphql-yoga';
import { type WebSocket, WebSocketServer } from 'ws';
import { ConfigError } from './config.ts';
import { type AppDeps, type Caller, type Context, resolveCaller } from './context.ts';
import { serveDashboard } from './dashboard-assets.ts';
import { ForbiddenError, InputError, UnauthenticatedError } from './errors.ts';
import { SubscriberTooSlow } from './events/hub.ts';
import { schema } from './graphql/schema.ts';

export interface Server {
  /** Listens on `port` (0 picks a free one) and resolves to the port in use. */
  start(port: number): Promise<number>;
  /** Stops accepting, closes every HTTP, SSE and WebSocket connection, and resolves when done. */
  stop(): Promise<void>;
}

/** What a graphql-ws operation carries into Yoga instead of an HTTP request. */
interface SocketContext {
  caller: Caller | null;
}

/** graphql-ws close code for a refused or revoked credential. */
export const CLOSE_FORBIDDEN = 4403;

/**
 * HTTP (GraphQL + GraphiQL + SSE) and graphql-ws on one port and path, plus `/healthz`
 * and `/readyz`. The database and doorbell come in through `deps`; nothing here is global.
 */
export function buildServer(deps: AppDeps): Server {
  const { config } = deps;
  let accepting = true;

  const yoga = createYoga<Partial<SocketContext>, Context>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    graphiql: config.exploration && {
      title: 'Switchboard',
      defaultQuery:
        '# Paste your token in Headers: {"Authorization": "Bearer <token>"}\n{ me { kind goalIds } }\n',
    },
    // Unexpected errors are logged once, by maskError; client mistakes are not server events.
    logging: false,
    maskedErrors: { maskError: (error, message) => maskError(error, message, deps) },
    context: async (initial): Promise<Context> => ({
      deps,
      db: deps.database.db,
      caller:
        initial.caller !== undefined
          ? initial.caller
          : await resolveCaller(deps, initial.request.headers.get('authorization')),
    }),
    plugins: [
      EnvelopArmorPlugin({
        maxDepth: { n: 12, exposeLimits: false },
        maxAliases: { n: 20, exposeLimits: false },
        maxTokens: { n: 4000, exposeLimits: false },
        maxDirectives: { n: 20, exposeLimits: false },
        costLimit: { maxCost: 20000, exposeLimits: false },
        blockFieldSuggestion: { enabled: !config.exploration },
      }),
      useCSRFPrevention({ requestHeaders: ['x-graphql-yoga-csrf'] }),
      ...(config.exploration ? [] : [disableIntrospection]),
    ],
  });

  const http = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path === '/healthz') return sendJson(res, 200, { status: 'ok' });
    if (path === '/readyz') {
      if (!accepting) return sendJson(res, 503, { status: 'stopping' });
      return void deps.database.ping().then(
        () => sendJson(res, 200, { status: 'ready', driver: deps.database.driver }),
        () => sendJson(res, 503, { status: 'database unreachable' }),
      );
    }
    const refusal = bodyRefusal(req, config.maxBodyBytes);
    if (refusal) return sendJson(res, refusal.status, { errors: [{ message: refusal.message }] });
    void serveDashboard(req, res).then((served) => served || yoga.requestListener(req, res));
  });

  // noServer: the HTTP server owns 'listen' errors (a port in use is reported once, by start).
  const wss = new WebSocketServer({ noServer: true });
  http.on('upgrade', (req, socket, head) => {
    if ((req.url ?? '/').split('?')[0] !== '/graphql') return void socket.destroy();
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  });
  const callers = new WeakMap<WebSocket, Caller>();
  useServer<Record<string, unknown>, { socket: WebSocket; request: IncomingMessage }>(
    {
      execute: (args) => (args.rootValue as Enveloped).execute(args),
      subscribe: (args) => (args.rootValue as Enveloped).subscribe(args),
      onConnect: async (ctx) => {
        const authorization = ctx.connectionParams?.authorization;
        try {
          const caller = await resolveCaller(
            deps,
            typeof authorization === 'string' ? authorization : null,
          );
          if (!caller) return false;
          callers.set(ctx.extra.socket, caller);
          return true;
        } catch (error) {
          if (error instanceof UnauthenticatedError) return false;
          throw error;
        }
      },
      onSubscribe: async (ctx, _id, params) => {
        const socketContext: SocketContext = { caller: callers.get(ctx.extra.socket) ?? null };
        const { schema, execute, subscribe, contextFactory, parse, validate } = yoga.getEnveloped({
          ...ctx,
          req: ctx.extra.request,
          socket: ctx.extra.socket,
          params,
          ...socketContext,
        });
        const args = {
          schema,
          operationName: params.operationName,
          document: parse(params.query),
          variableValues: params.variables,
          contextValue: await contextFactory(),
          rootValue: { execute, subscribe },
        };
        const errors = validate(args.schema, args.document);
        return errors.length > 0 ? errors : args;
      },
    },
    wss,
  );

  // Revocation (and retirement) ring the doorbell on commit; whichever instance holds the
  // credential's sockets closes them.
  const unsubscribeRevocations = deps.doorbell.on('credential', null, ({ id }) => {
    for (const socket of wss.clients) {
      if (callers.get(socket)?.credentialId === id)
        socket.close(CLOSE_FORBIDDEN, 'credential revoked');
    }
  });

  return {
    start: (port) =>
      new Promise((resolve, reject) => {
        const onError = (error: NodeJS.ErrnoException) => {
          reject(
            error.code === 'EADDRINUSE'
              ? new ConfigError(
                  `PORT: ${config.host}:${port} is already in use; stop the other process or choose another PORT`,
                )
              : error.code === 'EADDRNOTAVAIL'
                ? new ConfigError(`HOST: ${config.host} is not an address of this machine`)
                : error,
          );
        };
        http.once('error', onError);
        http.listen(port, config.host, () => {
          http.off('error', onError);
          const address = http.address();
          resolve(typeof address === 'object' && address ? address.port : port);
        });
      }),

    async stop() {
      accepting = false;
      unsubscribeRevocations();
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      for (const socket of wss.clients) socket.close(1001, 'server stopping');
      http.closeAllConnections();
      await waitForSockets(wss, 1000);
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await closed;
    },
  };
}

interface Enveloped {
  execute: (args: unknown) => OperationResult;
  subscribe: (args: unknown) => OperationResult;
}

/** Waits for sockets to finish their close handshake, then cuts off the ones that did not. */
async function waitForSockets(wss: WebSocketServer, graceMs: number): Promise<void> {
  const deadline = Date.now() + graceMs;
  while (wss.clients.size > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  for (const socket of wss.clients) socket.terminate();
}

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

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const disableIntrospection: Plugin = {
  onValidate: ({ addValidationRule }) => addValidationRule(NoSchemaIntrospectionCustomRule),
};

const CODES = [
  { type: InputError, code: 'BAD_USER_INPUT', status: 200 },
  { type: ForbiddenError, code: 'FORBIDDEN', status: 200 },
  { type: UnauthenticatedError, code: 'UNAUTHENTICATED', status: 401 },
  { type: SubscriberTooSlow, code: 'SUBSCRIBER_TOO_SLOW', status: 200 },
] as const;

/**
 * Errors the services throw on purpose keep their message and get a code; GraphQL errors
 * raised by validation or the auth plugin pass through; anything else is logged and masked.
 */
function maskError(error: unknown, message: string, deps: AppDeps): Error {
  const located = error instanceof GraphQLError ? error : null;
  const original = located?.originalError ?? error;
  const known = CODES.find(({ type }) => original instanceof type);
  if (known && original instanceof Error) {
    return new GraphQLError(original.message, {
      nodes: located?.nodes,
      path: located?.path,
      extensions: {
        code: known.code,
        ...(original instanceof InputError && original.field ? { field: original.field } : {}),
        ...(known.status !== 200 ? { http: { status: known.status } } : {}),
      },
    });
  }
  if (located && (!located.originalError || located.originalError instanceof GraphQLError)) {
    return located;
  }
  deps.log.error('unexpected error', {
    error: original instanceof Error ? (original.stack ?? original.message) : String(original),
    path: located?.path?.join('.'),
  });
  return new GraphQLError(message, {
    nodes: located?.nodes,
    path: located?.path,
    extensions: { code: 'INTERNAL_SERVER_ERROR' },
  });
}
