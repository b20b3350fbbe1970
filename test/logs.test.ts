import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Gateway, startGateway } from '../src/gateway.ts';
import { createLogger } from '../src/log.ts';
import { hashToken } from '../src/registry/tokens.ts';
import { database } from './support/gateway-per-file.ts';
import {
  createGoal,
  driver,
  eventually,
  issueCredential,
  openTestDatabase,
  registerAgent,
  subscribe,
  type TestGateway,
  testConfig,
  wsClient,
  wsQuery,
} from './support/harness.ts';

/** A gateway at LOG_LEVEL=debug whose log lines the test reads. */
let gateway: Gateway;
let adminToken: string;
const lines: string[] = [];
const logs = () => lines.map((line) => JSON.parse(line) as Record<string, any>);
const access = (requestId: string) =>
  eventually(
    () => logs().find((line) => line.msg === 'operation' && line.requestId === requestId),
    `the access line of ${requestId}`,
  );

beforeAll(async () => {
  const config = testConfig({ logLevel: 'debug' });
  adminToken = config.adminToken as string;
  gateway = await startGateway(
    config,
    createLogger('debug', (line) => lines.push(line)),
    { database },
  );
});
afterAll(async () => {
  await gateway?.stop();
});

async function post(query: string, headers: Record<string, string>, variables = {}) {
  const response = await fetch(gateway.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return { response, body: (await response.json()) as Record<string, any> };
}

describe(`request logs (${driver})`, () => {
  it('honours x-request-id: it comes back in the header, in error extensions and in the access line', async () => {
    const auth = { authorization: `Bearer ${adminToken}` };
    const ok = await post('query Me { me { kind } }', { ...auth, 'x-request-id': 'req-abc.123' });
    expect(ok.response.headers.get('x-request-id')).toBe('req-abc.123');
    expect(await access('req-abc.123')).toMatchObject({
      level: 'info',
      operation: 'Me',
      type: 'query',
      transport: 'http',
      callerKind: 'ADMIN',
      credentialId: null,
      result: 'ok',
      durationMs: expect.any(Number),
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });

    const bad = await post('query Typo { me { nope } }', { ...auth, 'x-request-id': 'req-bad-1' });
    expect(bad.response.headers.get('x-request-id')).toBe('req-bad-1');
    expect(bad.body.errors[0].extensions).toMatchObject({
      code: 'GRAPHQL_VALIDATION_FAILED',
      requestId: 'req-bad-1',
    });
    expect(await access('req-bad-1')).toMatchObject({
      operation: 'Typo',
      result: 'GRAPHQL_VALIDATION_FAILED',
    });

    // Without one, or with one that is not a plain token, a fresh id is made and returned.
    for (const header of [{}, { 'x-request-id': 'has spaces and "quotes"' }] as Record<
      string,
      string
    >[]) {
      const fresh = await post('{ me { kind } }', { ...auth, ...header });
      const id = fresh.response.headers.get('x-request-id') as string;
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect((await access(id)).operation).toBeNull();
    }
  });

  it('writes one access line per operation on every transport, with the caller and never a token', async () => {
    const t = { url: gateway.url, adminToken } as TestGateway;
    t.ok = async (query, variables, token = adminToken) => {
      const { body } = await post(String(query), { authorization: `Bearer ${token}` }, variables);
      if (body.errors) throw new Error(JSON.stringify(body.errors));
      return body.data;
    };
    const goalId = await createGoal(t);
    const agentId = await registerAgent(t, goalId);
    const peer = await issueCredential(t, { kind: 'PEER', goalId, agentId });

    const refused = await post('{ me { kind } }', {
      authorization: 'Bearer not-a-real-token-but-secret-looking',
      'x-request-id': 'req-refused',
    });
    expect(refused.response.status).toBe(401);
    expect(await access('req-refused')).toMatchObject({
      result: 'UNAUTHENTICATED',
      callerKind: null,
    });

    // SSE: the access line comes when the stream ends.
    const controller = new AbortController();
    const sse = await fetch(gateway.url, {
      method: 'POST',
      signal: controller.signal,
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        authorization: `Bearer ${peer.token}`,
        'x-request-id': 'req-sse',
      },
      body: JSON.stringify({
        query: 'subscription Watch($g: ID!) { presenceChanged(goalId: $g) { seq } }',
        variables: { g: goalId },
      }),
    });
    expect(sse.headers.get('x-request-id')).toBe('req-sse');
    await eventually(
      () => logs().find((l) => l.msg === 'subscription opened' && l.requestId === 'req-sse'),
      'the SSE subscription to open',
    );
    controller.abort();
    expect(await access('req-sse')).toMatchObject({
      operation: 'Watch',
      type: 'subscription',
      transport: 'sse',
      field: 'presenceChanged',
      callerKind: 'PEER',
      credentialId: peer.id,
      events: 0,
    });

    // graphql-ws: each operation of a socket has the socket's id and its own operation id.
    const client = wsClient(gateway.url.replace('http://', 'ws://'), peer.token);
    expect((await wsQuery(client, 'query Ws { me { kind } }')).data).toEqual({
      me: { kind: 'PEER' },
    });
    const live = subscribe(
      client,
      'subscription WsWatch($g: ID!) { presenceChanged(goalId: $g) { seq } }',
      { g: goalId },
      'presenceChanged',
    );
    await eventually(
      () => logs().find((l) => l.msg === 'subscription opened' && l.operation === 'WsWatch'),
      'the WebSocket subscription to open',
    );
    live.dispose();
    const wsLines = await eventually(() => {
      const found = logs().filter((l) => l.msg === 'operation' && l.transport === 'ws');
      return found.length >= 2 ? found : undefined;
    }, 'two WebSocket access lines');
    expect(wsLines.map((l) => l.operation).sort()).toEqual(['Ws', 'WsWatch']);
    for (const line of wsLines) {
      expect(line).toMatchObject({ callerKind: 'PEER', credentialId: peer.id });
      expect(line.requestId).toMatch(/^[0-9a-f-]{36}:[0-9a-f-]+$/);
    }
    await client.dispose();
    await eventually(
      () => logs().find((l) => l.msg === 'websocket closed' && l.code === 1000),
      'the socket to be logged closed',
    );

    // Debug lines say what happened, and no line anywhere carries a token.
    const messages = new Set(logs().map((l) => l.msg));
    for (const msg of ['request', 'subscription opened', 'websocket connected'])
      expect(messages).toContain(msg);
    const all = lines.join('\n');
    for (const secret of [adminToken, peer.token, 'not-a-real-token-but-secret-looking'])
      expect(all).not.toContain(secret);
    expect(all).not.toMatch(/Bearer/i);
  });

  it('redacts token-like fields a call site might pass', () => {
    const written: string[] = [];
    const log = createLogger('info', (line) => written.push(line));
    log.info('careless', { token: 'sb_secret', headers: { authorization: 'Bearer x' } });
    expect(JSON.parse(written[0] as string)).toMatchObject({
      msg: 'careless',
      token: '[redacted]',
      headers: { authorization: '[redacted]' },
    });
  });

  it('refuses a WebSocket whose credential cannot be checked with 1013 and logs it without the query', async () => {
    // A gateway of its own on a database that goes away after start: the credential lookup
    // of connection_init fails inside the driver, whose error message names the query and its
    // parameters (the token's hash).
    const own = await openTestDatabase();
    const written: string[] = [];
    const config = testConfig();
    const broken = await startGateway(
      config,
      createLogger('debug', (line) => written.push(line)),
      { database: own },
    );
    try {
      await own.close();
      const token = `sb_${'q'.repeat(40)}`;
      const closed = new Promise<{ code: number }>((resolve) => {
        wsClient(broken.url.replace('http://', 'ws://'), token, resolve);
      });
      expect((await closed).code).toBe(1013);
      const line = await eventually(
        () =>
          written
            .map((l) => JSON.parse(l) as Record<string, any>)
            .find((l) => l.msg === 'websocket refused: credential could not be checked'),
        'the refusal log line',
      );
      expect(line).toMatchObject({
        level: 'error',
        errorId: expect.any(String),
        kind: expect.any(String),
      });
      const all = written.join('\n');
      expect(all).not.toContain(token);
      expect(all).not.toContain(hashToken(token));
      expect(all).not.toMatch(/select|params/i);
    } finally {
      await broken.stop();
    }
  });
});
