import { createServer, type Server } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { startGateway } from '../src/gateway.ts';
import { createLogger } from '../src/log.ts';
import {
  createGoal,
  driver,
  openTestDatabase,
  registerAgent,
  startTestGateway,
  subscribe,
  type TestGateway,
  testConfig,
  wsClient,
} from './support/harness.ts';

interface Span {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: { key: string; value: Record<string, unknown> }[];
  status?: { code?: number; message?: string };
}

/**
 * An OTLP/HTTP receiver on port 0, standing in for an OpenTelemetry collector: it keeps the
 * spans of every JSON export request it is sent, with the service name of their resource.
 */
async function startReceiver() {
  const spans: (Span & { service: string })[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      if (req.url === '/v1/traces' && req.headers['content-type'] === 'application/json') {
        for (const resource of JSON.parse(body).resourceSpans ?? []) {
          const service = resource.resource.attributes.find(
            (a: { key: string }) => a.key === 'service.name',
          )?.value.stringValue;
          for (const scope of resource.scopeSpans) {
            for (const span of scope.spans) spans.push({ ...span, service });
          }
        }
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}/v1/traces`,
    spans,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

const attribute = (span: Span, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value && Object.values(value)[0];
};

describe(`OpenTelemetry tracing (${driver})`, () => {
  let database: Database;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let t: TestGateway;

  beforeEach(async () => {
    database = await openTestDatabase();
    receiver = await startReceiver();
    t = await startTestGateway(database, {
      tracing: { url: receiver.url, serviceName: 'switchboard-test' },
    });
  });
  afterEach(async () => {
    await t.stop();
    await database.close();
    await receiver.close();
  });

  it('sends one SERVER span per operation, a child of the caller’s traceparent, with its outcome', async () => {
    const goalId = await createGoal(t);
    await registerAgent(t, goalId, 'alpha');
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parentId = '00f067aa0ba902b7';
    const asked = await fetch(t.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${t.adminToken}`,
        traceparent: `00-${traceId}-${parentId}-01`,
        'x-request-id': 'trace-me-1',
      },
      body: JSON.stringify({ query: `query Who { me { kind } }` }),
    });
    expect(asked.status).toBe(200);
    const bad = await t.gql(`query Broken { directory(goalId: "x") { nope } }`);
    expect(bad.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');

    const client = wsClient(t.wsUrl, t.adminToken);
    const stream = subscribe(
      client,
      `subscription Live($input: WaitInput) { waitForAgent(input: $input) { ... on Wait { status } } }`,
      { input: { goalId, agentId: 'alpha', accept: ['DONE'], timeoutMs: 60_000 } },
      'waitForAgent',
    );
    await stream.take(1);
    stream.dispose();
    await client.dispose();

    await t.stop(); // sends the spans still batched
    const who = receiver.spans.find((s) => s.name === 'query Who');
    expect(who, JSON.stringify(receiver.spans.map((s) => s.name))).toBeDefined();
    expect(who).toMatchObject({
      traceId,
      parentSpanId: parentId,
      kind: 2,
      service: 'switchboard-test',
    });
    expect(attribute(who as Span, 'graphql.operation.name')).toBe('Who');
    expect(attribute(who as Span, 'graphql.operation.type')).toBe('query');
    expect(attribute(who as Span, 'switchboard.request_id')).toBe('trace-me-1');
    expect(attribute(who as Span, 'switchboard.transport')).toBe('http');
    expect(attribute(who as Span, 'switchboard.caller_kind')).toBe('ADMIN');
    expect(attribute(who as Span, 'switchboard.result')).toBe('ok');
    expect(BigInt(who?.endTimeUnixNano ?? 0)).toBeGreaterThanOrEqual(
      BigInt(who?.startTimeUnixNano ?? 1),
    );
    expect(who?.status?.code ?? 0).not.toBe(2);

    const broken = receiver.spans.find((s) => s.name === 'Broken');
    expect(
      broken,
      'a request that fails validation is traced under the name it gave',
    ).toBeDefined();
    expect(broken?.traceId).not.toBe(traceId); // no traceparent: a trace of its own
    expect(broken?.parentSpanId ?? '').toBe('');
    expect(broken?.status).toMatchObject({ code: 2, message: 'GRAPHQL_VALIDATION_FAILED' });

    const live = receiver.spans.find((s) => s.name === 'subscription Live');
    expect(live).toBeDefined();
    expect(attribute(live as Span, 'switchboard.transport')).toBe('ws');
    expect(attribute(live as Span, 'switchboard.subscription_field')).toBe('waitForAgent');
    expect(attribute(live as Span, 'switchboard.results')).toBeGreaterThanOrEqual(1);
    // The token never leaves in a span.
    expect(JSON.stringify(receiver.spans)).not.toContain(t.adminToken);
  });

  it('says when traces cannot be sent, and keeps serving', async () => {
    const lines: string[] = [];
    const unreachable = await startReceiver();
    await unreachable.close(); // its port now refuses connections
    const config = testConfig({ tracing: { url: unreachable.url, serviceName: 'switchboard' } });
    // The exporter retries a refused connection until its timeout: 1 s here, not the 10 s default.
    process.env.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT = '1000';
    const gateway = await startGateway(
      config,
      createLogger('warn', (line) => lines.push(line)),
      {
        database,
      },
    );
    const me = await fetch(gateway.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${config.adminToken}` },
      body: JSON.stringify({ query: '{ me { kind } }' }),
    });
    expect(await me.json()).toEqual({ data: { me: { kind: 'ADMIN' } } });
    await gateway.stop();
    const warning = lines
      .map((line) => JSON.parse(line))
      .find((l) => l.msg === 'traces could not be sent');
    expect(warning, lines.join('')).toMatchObject({ level: 'warn', spans: 1 });
  });
});
