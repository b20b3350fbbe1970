import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { EnvelopArmorPlugin } from '@escape.tech/graphql-armor';
import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import { GraphQLError, NoSchemaIntrospectionCustomRule } from 'graphql';
import type { OperationResult } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import { createYoga, type Plugin } from 'graphql-yoga';
import { type WebSocket, WebSocketServer } from 'ws';
import { ConfigError } from './config.ts';
import type { Caller } from './core/caller.ts';
import { ForbiddenError, InputError, UnauthenticatedError } from './core/errors.ts';
import { serveDashboard } from './dashboard-assets.ts';
import { SubscriberTooSlow } from './events/hub.ts';
import type { AppDeps, Context } from './graphql/context.ts';
import { compiledExecution } from './graphql/execution/jit.ts';
import { schema } from './graphql/schema.ts';
import { screenInput } from './graphql/screen-input.ts';
import { OpenStreams } from './streams.ts';

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
  // A revoked credential's (or retired agent's) streams end, then its sockets close.
  const streams = new OpenStreams(deps);

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
          : await deps.credentials.resolve(initial.request.headers.get('authorization')),
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
      screenInput,
      streams.plugin,
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
    const refusal = bodyRefusal(req, config.maxBodyBytes);
    if (refusal) return sendJson(res, refusal.status, { errors: [{ message: refusal.message }] });
    void serveDashboard(req, res).then((served) => served || yoga.requestListener(req, res));
  });

  // noServer: the HTTP server owns 'listen' errors (a port in use is reported once, by start).
  // Frames are capped like request bodies (the library's default is 100 MiB), also before
  // connection_init is authenticated: a larger frame closes that socket with 1009.
  const wss = new WebSocketServer({ noServer: true, maxPayload: config.maxBodyBytes });
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
          const caller = await deps.credentials.resolve(
            typeof authorization === 'string' ? authorization : null,
          );
          if (!caller) return false;
          callers.set(ctx.extra.socket, caller);
          const { socket } = ctx.extra;
          if (caller.credentialId !== null) {
            const untrack = streams.trackSocket(caller.credentialId, () =>
              socket.close(CLOSE_FORBIDDEN, 'credential revoked'),
            );
            socket.once('close', untrack);
          }
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
        // A bad operation (syntax, token or depth limits) is an error on its own id: the
        // socket and its other subscriptions carry on.
        let document: ReturnType<typeof parse>;
        try {
          document = parse(params.query);
          const errors = validate(schema, document);
          if (errors.length > 0) return errors.map(operationError);
        } catch (error) {
          if (error instanceof Error && error.name === 'GraphQLError')
            return [operationError(error)];
          throw error;
        }
        return {
          schema,
          operationName: params.operationName,
          document,
          variableValues: params.variables,
          contextValue: await contextFactory(),
          rootValue: { execute, subscribe },
        };
      },
    },
    wss,
  );

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
      streams.close();
      const closed = new Promise<void>((resolve) => http.close(() => resolve()));
      for (const socket of wss.clients) socket.close(1001, 'server stopping');
      http.closeAllConnections();
      await waitForSockets(wss, 1000);
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await closed;
    },
  };
}

/**
 * An operation's parse or validation error, rebuilt as this module's GraphQLError: the parser
 * and the limit plugins may raise another copy's class, and graphql-ws recognises errors by
 * class.
 */
function operationError(error: Error): GraphQLError {
  const { message, extensions } = error as Partial<GraphQLError> & Error;
  return new GraphQLError(message, { extensions: extensions ?? {} });
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

const withoutSuggestions = (message: string) => message.replace(/ ?Did you mean [^?]*\?/g, '');

const CODES = [
  { type: InputError, code: 'BAD_USER_INPUT', status: 200 },
  { type: ForbiddenError, code: 'FORBIDDEN', status: 200 },
  { type: UnauthenticatedError, code: 'UNAUTHENTICATED', status: 401 },
  { type: SubscriberTooSlow, code: 'SUBSCRIBER_TOO_SLOW', status: 200 },
] as const;

/** What the limit plugins say instead of their limits (which are not echoed). */
const LIMIT_MESSAGE = 'Syntax Error: Query validation error.';

/**
 * Errors the services throw on purpose keep their message and get a code; GraphQL errors
 * raised by parsing, validation, variable coercion or the auth plugin get a code too, without
 * "Did you mean" hints when exploration is off; anything else is masked, and logged with an
 * error id the client also gets — never with the query's parameters.
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
    const limit = located.message === LIMIT_MESSAGE;
    const coercion =
      /^Variable "\$|^(Expected value of type|Int cannot|Float cannot|String cannot|Boolean cannot|ID cannot|Enum ")/.test(
        located.message,
      );
    const text = limit
      ? "the operation exceeds this server's limits on depth, aliases, tokens, directives or cost"
      : deps.config.exploration
        ? located.message
        : withoutSuggestions(located.message);
    const code =
      located.extensions.code ??
      (limit || coercion ? 'BAD_USER_INPUT' : 'GRAPHQL_VALIDATION_FAILED');
    return new GraphQLError(text, {
      nodes: located.nodes,
      path: located.path,
      extensions: { ...located.extensions, code },
    });
  }
  const errorId = randomUUID();
  deps.log.error('unexpected error', {
    errorId,
    path: located?.path?.join('.'),
    ...describeUnexpected(original),
  });
  return new GraphQLError(message, {
    nodes: located?.nodes,
    path: located?.path,
    extensions: { code: 'INTERNAL_SERVER_ERROR', errorId },
  });
}

/**
 * An unexpected error for the log: its class, the database's error code and the stack frames.
 * Never its message: a failed query's message carries its SQL parameters (bodies, titles,
 * token hashes).
 */
function describeUnexpected(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { kind: typeof error };
  const cause = error.cause as { code?: unknown; name?: unknown } | undefined;
  return {
    kind: error.constructor.name,
    dbCode: (error as { code?: unknown }).code ?? cause?.code,
    cause: cause instanceof Error ? cause.constructor.name : undefined,
    frames: error.stack
      ?.split('\n')
      .filter((line) => line.trimStart().startsWith('at '))
      .slice(0, 8),
  };
}
