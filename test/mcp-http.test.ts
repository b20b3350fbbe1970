/**
 * `switchboard mcp --http` as clients reach it: the real binary serving Streamable HTTP, driven
 * by the SDK's own client and by raw requests — bearer credentials and their scope, the
 * server's own credential on a loopback listener only, sessions bound to their credential,
 * Host/Origin checks against DNS rebinding, the protocol versions of the SDK, DELETE and idle
 * sessions.
 */
import { request } from 'node:http';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  type CallToolResult,
  LATEST_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveHttp } from '../src/mcp/http.ts';
import { eventually, startGateway, team } from './support/cli.ts';
import { httpClient, type McpHttpServer, startMcpHttp } from './support/mcp.ts';

let gw: Awaited<ReturnType<typeof startGateway>>;
let shared: McpHttpServer;
const clients: Client[] = [];
const servers: McpHttpServer[] = [];
beforeAll(async () => {
  gw = await startGateway();
  shared = await startMcpHttp({ SWITCHBOARD_URL: gw.url });
  servers.push(shared);
});
afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
  await Promise.all(servers.map((s) => s.stop()));
  await gw?.close();
});

async function connect(url: string, token?: string) {
  const { client, transport } = await httpClient(url, token);
  clients.push(client);
  const ok = async (name: string, args: Record<string, unknown> = {}) => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
    return result.structuredContent as Record<string, any>;
  };
  return { client, transport, ok };
}

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request with exactly these headers (Host included), as any HTTP client may send it. */
function raw(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      let text = '';
      res.on('data', (chunk) => {
        text += chunk;
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }),
      );
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const POST = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

const initialize = (protocolVersion: string = LATEST_PROTOCOL_VERSION) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion, capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
});

/** The JSON-RPC message of an answer, sent as JSON or as one SSE event. */
function message(answer: Raw): Record<string, any> {
  const data = /^data: (.*)$/m.exec(answer.body)?.[1];
  return JSON.parse(data ?? answer.body);
}

describe('credentials and scope', () => {
  it('each session acts as the bearer token it brings, with that scope; others are refused', async () => {
    const { goalId, peers } = await team(gw.t, ['a', 'b']);
    const other = await team(gw.t, ['c']);
    const [a, b] = [peers[0]!, peers[1]!];
    const c = other.peers[0]!;

    const ma = await connect(shared.url, a.token);
    const mb = await connect(shared.url, b.token);
    const mc = await connect(shared.url, c.token);
    expect(await ma.ok('whoami')).toMatchObject({ kind: 'PEER', agentId: a.agentId, goalId });
    expect(await mc.ok('whoami')).toMatchObject({ agentId: c.agentId, goalId: other.goalId });
    const sent = await ma.ok('send', { to: b.agentId, subject: 'over http', body: 'hello' });
    expect(sent).toMatchObject({ type: 'Delivery', from: a.agentId });
    const inbox = await mb.ok('inbox');
    expect(inbox.messages.map((m: { id: string }) => m.id)).toEqual([sent.id]);

    // naming another goal widens nothing: scope comes from the credential
    const elsewhere = await connect(`${shared.url}?goal=${other.goalId}`, a.token);
    expect((await elsewhere.ok('directory')).type).toBe('ScopeGap');

    // no token (and no own credential on this server), a refused token: 401 at initialize
    const none = await raw(shared.url, 'POST', POST, initialize());
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toBe('Bearer');
    const refused = await raw(
      shared.url,
      'POST',
      { ...POST, authorization: 'Bearer not-a-token' },
      initialize(),
    );
    expect(refused.status).toBe(401);
    expect(message(refused).error.message).toContain('refused the token');

    // a session answers only the credential that opened it
    const session = ma.transport.sessionId as string;
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    const headers = { ...POST, 'mcp-session-id': session };
    const asC = await raw(
      shared.url,
      'POST',
      { ...headers, authorization: `Bearer ${c.token}` },
      list,
    );
    expect(asC.status).toBe(404);
    expect(message(asC).error).toMatchObject({ code: -32001, message: 'Session not found' });
    expect((await raw(shared.url, 'POST', headers, list)).status).toBe(401);
    const asA = await raw(
      shared.url,
      'POST',
      { ...headers, authorization: `Bearer ${a.token}` },
      list,
    );
    expect(asA.status).toBe(200);
    expect(message(asA).result.tools.length).toBeGreaterThan(0);
  }, 60_000);

  it('a loopback listener serves a request without a token as its own credential; any other address requires one', async () => {
    const { goalId, peers } = await team(gw.t, ['a']);
    const a = peers[0]!;
    const own = { SWITCHBOARD_URL: gw.url, SWITCHBOARD_TOKEN: a.token, SWITCHBOARD_GOAL: goalId };
    const loopback = await startMcpHttp(own);
    servers.push(loopback);
    expect(await (await connect(loopback.url)).ok('whoami')).toMatchObject({ agentId: a.agentId });

    const wide = await startMcpHttp(own, ['--allow-host', 'agents.example'], '0.0.0.0:0');
    servers.push(wide);
    const port = new URL(wide.url).port;
    const url = `http://127.0.0.1:${port}/mcp`;
    expect((await raw(url, 'POST', POST, initialize())).status).toBe(401);
    expect(await (await connect(url, a.token)).ok('whoami')).toMatchObject({ agentId: a.agentId });
    // a host name given with --allow-host is accepted
    const named = await raw(
      url,
      'POST',
      { ...POST, host: `agents.example:${port}`, authorization: `Bearer ${a.token}` },
      initialize(),
    );
    expect(named.status).toBe(200);
  }, 60_000);
});

describe('DNS rebinding', () => {
  it('a Host or Origin that names no allowed host is refused 403 before anything else', async () => {
    const port = new URL(shared.url).port;
    const attempts: Record<string, string>[] = [
      { host: `evil.example:${port}` },
      { host: `evil.example:${port}`, origin: `http://evil.example:${port}` },
      { origin: 'http://evil.example' },
      { origin: 'null' },
    ];
    for (const headers of attempts) {
      const answer = await raw(shared.url, 'POST', { ...POST, ...headers }, initialize());
      expect(answer.status, JSON.stringify(headers)).toBe(403);
      expect(message(answer).error.message).toContain('DNS rebinding');
    }
    // the same request from a loopback origin goes on (to the credential check: none here)
    for (const origin of [`http://localhost:${port}`, `http://127.0.0.1:${port}`]) {
      const answer = await raw(shared.url, 'POST', { ...POST, origin }, initialize());
      expect(answer.status, origin).toBe(401);
    }
    expect((await raw(shared.url.replace('/mcp', '/other'), 'GET', {})).status).toBe(404);
  });
});

describe('protocol versions and sessions', () => {
  it('initializes at every protocol version of the SDK; an unknown one gets the latest; a bad version header is 400', async () => {
    const { peers } = await team(gw.t, ['a']);
    const auth = { ...POST, authorization: `Bearer ${peers[0]!.token}` };
    for (const version of SUPPORTED_PROTOCOL_VERSIONS) {
      const answer = await raw(shared.url, 'POST', auth, initialize(version));
      expect(answer.status, version).toBe(200);
      expect(message(answer).result.protocolVersion).toBe(version);
      const session = answer.headers['mcp-session-id'] as string;
      const gone = await raw(shared.url, 'DELETE', { ...auth, 'mcp-session-id': session });
      expect(gone.status).toBe(200);
    }
    const unknown = await raw(shared.url, 'POST', auth, initialize('1999-01-01'));
    expect(message(unknown).result.protocolVersion).toBe(LATEST_PROTOCOL_VERSION);
    const session = unknown.headers['mcp-session-id'] as string;
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    const bad = await raw(
      shared.url,
      'POST',
      { ...auth, 'mcp-session-id': session, 'mcp-protocol-version': '1999-01-01' },
      list,
    );
    expect(bad.status).toBe(400);
    expect(message(bad).error.message).toContain('Unsupported protocol version');
    // after DELETE the session is gone
    await raw(shared.url, 'DELETE', { ...auth, 'mcp-session-id': session });
    expect(
      (await raw(shared.url, 'POST', { ...auth, 'mcp-session-id': session }, list)).status,
    ).toBe(404);
    // a request of a session without its id
    expect((await raw(shared.url, 'POST', auth, list)).status).toBe(400);
  }, 60_000);

  it('closes a session idle past its bound; one with an open stream lives on', async () => {
    const { goalId, peers } = await team(gw.t, ['a']);
    const served = await serveHttp({
      host: '127.0.0.1',
      port: 0,
      connection: { url: gw.url, token: undefined, goal: goalId },
      toolsets: ['core'],
      log: () => {},
      idleMs: 300,
    });
    try {
      // a client that keeps its stream open
      const kept = await connect(served.url, peers[0]!.token);
      // a client that goes away without DELETE
      const left = await httpClient(served.url, peers[0]!.token);
      expect(served.sessions).toBe(2);
      await left.transport.close();
      await eventually(
        () => (served.sessions === 1 ? true : undefined),
        'the idle session to close',
        5_000,
      );
      expect(await kept.ok('whoami')).toMatchObject({ agentId: peers[0]!.agentId });
      expect(served.sessions).toBe(1);
    } finally {
      await served.close();
    }
  }, 60_000);
});
