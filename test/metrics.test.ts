import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { database, t } from './support/gateway-per-file.ts';
import {
  createGoal,
  driver,
  eventually,
  registerAgent,
  startTestGateway,
  subscribe,
  uid,
  wsClient,
} from './support/harness.ts';

const scrape = async (url = t.url.replace('/graphql', '/metrics')) => {
  const response = await fetch(url);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/plain');
  return response.text();
};

/** The value of one sample, e.g. `switchboard_waits{status="NOT_RUNNING"}`; undefined when absent. */
const sample = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe(`/metrics (${driver})`, () => {
  it('exposes operations, errors, latency, open subscriptions, waits, deliveries, the doorbell and the pool after a few operations', async () => {
    const goalId = await createGoal(t);
    await registerAgent(t, goalId, 'alpha');
    await registerAgent(t, goalId, 'beta');
    await t.ok(`query Who { me { kind } }`);
    await t.ok(`query Who { me { kind } }`);
    const bad = await t.gql(`query Bad { directory(goalId: "x") { nope } }`);
    expect(bad.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    await t.ok(`mutation Wait($input: WaitInput!) { startWait(input: $input) { __typename } }`, {
      input: { goalId, agentId: 'alpha', accept: ['IDLE'], timeoutMs: 60_000 },
    });
    await t.ok(`mutation Send($input: DeliverInput!) { deliver(input: $input) { __typename } }`, {
      input: {
        goalId,
        to: 'beta',
        kind: 'CONTEXT',
        subject: 'metrics',
        body: 'counted',
        idempotencyKey: uid('key'),
      },
    });
    const client = wsClient(t.wsUrl, t.adminToken);
    const stream = subscribe(
      client,
      `subscription Live($g: ID!) { presenceChanged(goalId: $g) { seq } }`,
      { g: goalId },
      'presenceChanged',
    );
    const open = 'switchboard_subscriptions_open{field="presenceChanged",transport="ws"}';
    try {
      await eventually(
        async () => ((sample(await scrape(), open) ?? 0) >= 1 ? true : undefined),
        'the subscription to be counted open',
      );
    } finally {
      stream.dispose();
    }
    await eventually(
      async () => (sample(await scrape(), open) === 0 ? true : undefined),
      'the subscription to be counted closed',
    );
    await client.dispose();

    const text = await scrape();
    expect(
      sample(
        text,
        'switchboard_operations_total{operation="Who",type="query",transport="http",result="ok"}',
      ),
    ).toBeGreaterThanOrEqual(2);
    expect(
      sample(
        text,
        'switchboard_operation_errors_total{operation="Bad",code="GRAPHQL_VALIDATION_FAILED"}',
      ),
    ).toBe(1);
    expect(
      sample(text, 'switchboard_operation_duration_seconds_count{operation="Who",type="query"}'),
    ).toBeGreaterThanOrEqual(2);
    expect(text).toContain(
      'switchboard_operation_duration_seconds_bucket{le="0.005",operation="Who",type="query"}',
    );
    expect(
      sample(
        text,
        'switchboard_operations_total{operation="Live",type="subscription",transport="ws",result="ok"}',
      ),
    ).toBe(1);
    expect(sample(text, 'switchboard_waits{status="NOT_RUNNING"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'switchboard_deliveries{outcome="SUBMITTED"}')).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'switchboard_doorbell_listening')).toBe(1);
    expect(sample(text, 'switchboard_doorbell_reconnects_total')).toBe(0);
    expect(sample(text, 'switchboard_doorbell_lag_seconds')).toBeGreaterThan(0);
    expect(sample(text, 'switchboard_doorbell_deaf_seconds')).toBe(0);
    expect(sample(text, 'switchboard_database_up')).toBe(1);
    expect(sample(text, 'switchboard_database_pool_connections{state="max"}')).toBe(
      driver === 'postgres' ? 10 : 1,
    );
    expect(
      sample(text, 'switchboard_database_pool_connections{state="open"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(text).toContain('# TYPE switchboard_websockets_open gauge');
    expect(text).toContain('# TYPE nodejs_eventloop_lag_seconds gauge');
    // Nothing a caller sent in a token or body appears.
    expect(text).not.toContain(t.adminToken);
    expect(text).not.toContain('counted');
  });

  it('serves /metrics on a listener of its own, or not at all', async () => {
    const own = await startTestGateway(database, {
      metrics: { serve: 'own', host: '127.0.0.1', port: 0 },
    });
    const off = await startTestGateway(database, { metrics: { serve: 'off' } });
    try {
      expect(own.gateway.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      expect(await scrape(own.gateway.metricsUrl as string)).toContain(
        'switchboard_doorbell_listening',
      );
      expect((await fetch(own.url.replace('/graphql', '/metrics'))).status).toBe(404);
      expect(off.gateway.metricsUrl).toBeNull();
      expect((await fetch(off.url.replace('/graphql', '/metrics'))).status).toBe(404);
    } finally {
      await own.stop();
      await off.stop();
    }
    await expect(fetch(own.gateway.metricsUrl as string)).rejects.toThrow();
  });

  it('reads SWITCHBOARD_METRICS and refuses a bad value with one line', () => {
    expect(loadConfig({}).metrics).toEqual({ serve: 'main' });
    expect(loadConfig({ SWITCHBOARD_METRICS: 'off' }).metrics).toEqual({ serve: 'off' });
    expect(loadConfig({ SWITCHBOARD_METRICS: '9464' }).metrics).toEqual({
      serve: 'own',
      host: '127.0.0.1',
      port: 9464,
    });
    expect(loadConfig({ SWITCHBOARD_METRICS: '0.0.0.0:9464' }).metrics).toEqual({
      serve: 'own',
      host: '0.0.0.0',
      port: 9464,
    });
    for (const value of ['yes please', '99999', 'http://x:1', ':']) {
      expect(() => loadConfig({ SWITCHBOARD_METRICS: value })).toThrow(ConfigError);
      expect(() => loadConfig({ SWITCHBOARD_METRICS: value })).toThrow(
        /^SWITCHBOARD_METRICS must be on \(\/metrics on the main port\), off, a port/,
      );
    }
  });
});
