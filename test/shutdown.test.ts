import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { database } from './support/gateway-per-file.ts';
import {
  driver,
  eventually,
  peerInNewGoal,
  startTestGateway,
  subscribe,
  wsClient,
} from './support/harness.ts';

const STREAM = 'subscription Watch($g: ID!) { presenceChanged(goalId: $g) { seq } }';

describe(`shutdown (${driver})`, () => {
  it('answers /readyz 503 while it drains, then gives SSE and WebSocket subscriptions a last event and closes sockets with 1001', async () => {
    const gateway = await startTestGateway(database);
    const base = gateway.url.replace('/graphql', '');
    const peer = await peerInNewGoal(gateway);

    const sse = await fetch(gateway.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        authorization: `Bearer ${peer.token}`,
      },
      body: JSON.stringify({ query: STREAM, variables: { g: peer.goalId } }),
    });
    expect(sse.status).toBe(200);
    let sseText = '';
    const sseEnded = (async () => {
      const decoder = new TextDecoder();
      for await (const chunk of sse.body as AsyncIterable<Uint8Array>)
        sseText += decoder.decode(chunk, { stream: true });
    })();
    let closed: { code: number } | undefined;
    const client = wsClient(gateway.wsUrl, peer.token, (event) => {
      closed = event;
    });
    const ws = subscribe(client, STREAM, { g: peer.goalId }, 'presenceChanged');
    await eventually(async () => {
      const text = await (await fetch(`${base}/metrics`)).text();
      const open = [...text.matchAll(/^switchboard_subscriptions_open\{[^}]*\} (\d+)$/gm)];
      return open.reduce((sum, match) => sum + Number(match[1]), 0) === 2 ? true : undefined;
    }, 'both subscriptions to be open');

    const stopping = gateway.gateway.stop({ drainMs: 600 });
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'stopping' });
    // While draining, everything else is still served.
    expect((await gateway.ok('{ me { kind } }', {}, peer.token)).me.kind).toBe('PEER');
    expect(sseText).not.toContain('SHUTTING_DOWN');
    await stopping;

    await sseEnded;
    expect(sseText).toMatch(/event: next\ndata: .*"SHUTTING_DOWN"/);
    expect(sseText).toMatch(/event: complete/);
    await ws.completed;
    expect(ws.errors).toEqual([
      expect.objectContaining({ extensions: expect.objectContaining({ code: 'SHUTTING_DOWN' }) }),
    ]);
    expect((await eventually(() => closed, 'the socket to close')).code).toBe(1001);
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();
    await client.dispose();
  });

  it('stops at once without a drain, and reads SWITCHBOARD_DRAIN_MS', async () => {
    const gateway = await startTestGateway(database);
    const started = performance.now();
    await gateway.stop();
    expect(performance.now() - started).toBeLessThan(1000);
    expect(loadConfig({}).drainMs).toBe(2000);
    expect(loadConfig({ SWITCHBOARD_DRAIN_MS: '0' }).drainMs).toBe(0);
    for (const value of ['-1', 'soon', '70000']) {
      expect(() => loadConfig({ SWITCHBOARD_DRAIN_MS: value })).toThrow(ConfigError);
      expect(() => loadConfig({ SWITCHBOARD_DRAIN_MS: value })).toThrow(
        /^SWITCHBOARD_DRAIN_MS must be an integer from 0 to 60000/,
      );
    }
  });
});
