/**
 * `switchboard mcp --http [HOST:]PORT`: the MCP server over Streamable HTTP at `/mcp`, one
 * session (and one server, channel and credential) per client, built on the SDK's
 * StreamableHTTPServerTransport (protocol versions as the SDK supports them).
 *
 * - **Credentials**: a request brings `Authorization: Bearer <token>`, the same tokens as the
 *   gateway's, and its session acts as that credential with its scope. On a loopback listener,
 *   a request without one acts as the server's own credential (the `--token`,
 *   SWITCHBOARD_TOKEN or profile it was started with), as a stdio client does; on any other
 *   address every request must bring its own. A token the gateway refuses is answered 401 at
 *   `initialize`; a session answers only requests with the credential that opened it.
 * - **DNS rebinding**: the Host header, and the Origin header when a browser sends one, must
 *   name a loopback host (`localhost`, `127.0.0.1`, `[::1]`), the address listened on, or a
 *   host given with `--allow-host`; anything else is answered 403 before anything is read.
 * - **The goal**: `?goal=` on the URL; else the server's own goal for its own credential, and
 *   the credential's own goal for any other.
 * - A session ends on DELETE, or after `idleMs` with no request and no open stream.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { ClientError, ClientErrorKind } from '../client/index.ts';
import { type Connection, McpContext } from './context.ts';
import { plainErrors } from './errors.ts';
import { createMcpServer, type McpSession, type Toolset } from './server.ts';

export const MCP_PATH = '/mcp';
/** The SDK's own bound on a request body. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];
const WILDCARDS = ['', '0.0.0.0', '::', '[::]'];

export interface HttpOptions {
  host: string;
  port: number;
  /** The server's own credential and goal (its token may be absent). */
  connection: Connection;
  toolsets: readonly Toolset[];
  /** false: sessions declare no channel and push nothing. */
  channel?: boolean;
  /** More host names a Host or Origin header may name. */
  allowedHosts?: readonly string[];
  log: (line: string) => void;
  /** A session with no request and no open stream for this long is closed (default 30 min). */
  idleMs?: number;
}

interface Entry {
  token: string;
  session: McpSession;
  transport: StreamableHTTPServerTransport;
  /** Responses still open (streams, calls in progress), and when the last one closed. */
  open: number;
  lastSeen: number;
}

const isLoopback = (host: string) =>
  host === 'localhost' || host === '::1' || host === '[::1]' || host.startsWith('127.');

/** Answers a JSON-RPC error the way the SDK's transport does. */
function refuse(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/** The hostname of a Host header value or an Origin, as URL spells it ('[::1]' for IPv6). */
function hostname(value: string, origin: boolean): string | undefined {
  try {
    return new URL(origin ? value : `http://${value}`).hostname;
  } catch {
    return undefined;
  }
}

async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return undefined;
    parts.push(chunk as Buffer);
  }
  return Buffer.concat(parts);
}

export async function serveHttp(options: HttpOptions) {
  const { connection, log } = options;
  const idleMs = options.idleMs ?? 30 * 60_000;
  const allowed = new Set([
    ...LOOPBACK_NAMES,
    ...(WILDCARDS.includes(options.host)
      ? []
      : [hostname(options.host.includes(':') ? `[${options.host}]` : options.host, false)]),
    ...(options.allowedHosts ?? []),
  ]);
  const ownToken = isLoopback(options.host) ? connection.token : undefined;
  const sessions = new Map<string, Entry>();

  /** The request's credential, or undefined (answered 401) when it has none. */
  function credential(req: IncomingMessage): string | undefined {
    const header = req.headers.authorization;
    if (header === undefined) return ownToken;
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    return match?.[1];
  }

  function forbidden(req: IncomingMessage): string | undefined {
    const host = req.headers.host;
    const name = host === undefined ? undefined : hostname(host, false);
    if (name === undefined || !allowed.has(name)) return `Host ${host ?? '(none)'} is not allowed`;
    const origin = req.headers.origin;
    if (origin === undefined) return undefined;
    const from = hostname(origin, true);
    if (from === undefined || !allowed.has(from)) return `Origin ${origin} is not allowed`;
    return undefined;
  }

  async function open(
    req: IncomingMessage,
    res: ServerResponse,
    token: string,
    body: unknown,
  ): Promise<void> {
    const goal = new URL(req.url ?? '/', 'http://x').searchParams.get('goal') ?? undefined;
    const ctx = new McpContext(
      {
        url: connection.url,
        token,
        goal: goal ?? (token === connection.token ? connection.goal : undefined),
      },
      log,
    );
    try {
      await ctx.me();
    } catch (error) {
      if (error instanceof ClientError && error.kind === ClientErrorKind.UNAUTHENTICATED)
        return refuse(res, 401, -32000, 'Unauthorized: the gateway refused the token', {
          'www-authenticate': 'Bearer',
        });
      // Unreachable or failing: the session opens, and each tool says what is wrong.
    }
    const session = createMcpServer(ctx, options.toolsets, { channel: options.channel });
    const transport = plainErrors(
      new StreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        onsessioninitialized: (id) => {
          sessions.set(id, { token, session, transport, open: 0, lastSeen: Date.now() });
          log(`session ${id} opened`);
        },
      }),
    );
    session.server.server.onclose = () => {
      session.stop();
      const id = transport.sessionId;
      if (id && sessions.delete(id)) log(`session ${id} closed`);
    };
    session.server.server.onerror = (error) => log(error.message);
    await session.server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const why = forbidden(req);
    if (why)
      return refuse(
        res,
        403,
        -32000,
        `Forbidden: ${why} (DNS rebinding protection; see --allow-host)`,
      );
    if (new URL(req.url ?? '/', 'http://x').pathname !== MCP_PATH)
      return refuse(res, 404, -32000, `Not found: MCP is served at ${MCP_PATH}`);
    const token = credential(req);
    if (!token)
      return refuse(res, 401, -32000, 'Unauthorized: send Authorization: Bearer <token>', {
        'www-authenticate': 'Bearer',
      });
    const id = req.headers['mcp-session-id'];
    if (typeof id === 'string') {
      const entry = sessions.get(id);
      // Another credential's session reads as no session at all.
      if (!entry || entry.token !== token) return refuse(res, 404, -32001, 'Session not found');
      entry.open++;
      res.once('close', () => {
        entry.open--;
        entry.lastSeen = Date.now();
      });
      // The standalone stream is where pushes go: the channel starts with the first.
      if (req.method === 'GET' && entry.session.channel?.start()) log(`session ${id} pushes`);
      return entry.transport.handleRequest(req, res);
    }
    if (req.method !== 'POST')
      return refuse(res, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
    const raw = await readBody(req);
    if (!raw) return refuse(res, 413, -32000, `Payload Too Large: at most ${MAX_BODY_BYTES} bytes`);
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      return refuse(res, 400, -32700, 'Parse error: Invalid JSON');
    }
    if (!isInitializeRequest(body))
      return refuse(res, 400, -32000, 'Bad Request: Mcp-Session-Id header is required');
    return open(req, res, token, body);
  }

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log(`${req.method} ${req.url}: ${error instanceof Error ? error.message : String(error)}`);
      if (!res.headersSent) refuse(res, 500, -32603, 'Internal error');
      else res.end();
    });
  });
  const sweeper = setInterval(
    () => {
      const now = Date.now();
      for (const entry of sessions.values())
        if (entry.open === 0 && now - entry.lastSeen > idleMs) void entry.transport.close();
    },
    Math.min(idleMs, 60_000),
  );
  sweeper.unref();
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port, options.host, () => resolve());
  });
  const address = http.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shown}:${address.port}${MCP_PATH}`,
    /** How many sessions are open. */
    get sessions() {
      return sessions.size;
    },
    async close() {
      clearInterval(sweeper);
      await Promise.all([...sessions.values()].map((entry) => entry.transport.close()));
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
