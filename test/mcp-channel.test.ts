/**
 * Pushed into the live session: `switchboard mcp` as Claude Code sees it, through the SDK's own
 * client declaring the channel capability, over stdio and over Streamable HTTP — a message
 * pushed as the active one (once, never a processed one, the next after a resolve), its
 * `pushedAt` receipt as the sender reads it, a wait's outcome after its call was cancelled, and
 * a sent delivery's final outcome.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DeliverDocument,
  DeliveryDocument,
  RecordSessionPushDocument,
  ResolveMessageDocument,
} from '../src/client/generated/graphql.ts';
import {
  asCaller,
  BIN,
  eventually,
  registerProvider,
  startGateway,
  team,
  tempHome,
  uid,
} from './support/cli.ts';
import {
  CHANNEL_CLIENT,
  channelEvents,
  httpClient,
  type McpHttpServer,
  startMcpHttp,
} from './support/mcp.ts';

let gw: Awaited<ReturnType<typeof startGateway>>;
let http: McpHttpServer;
const open: Client[] = [];
beforeAll(async () => {
  gw = await startGateway();
  // One HTTP server for every session of this file: each brings its own token.
  http = await startMcpHttp({ SWITCHBOARD_URL: gw.url });
});
afterAll(async () => {
  await Promise.all(open.map((client) => client.close().catch(() => {})));
  await http?.stop();
  await gw?.close();
});

type Transport = 'stdio' | 'http';

/** An agent's MCP session as Claude Code opens it (declaring the channel capability). */
async function session(transport: Transport, token: string, goalId: string) {
  let client: Client;
  if (transport === 'stdio') {
    client = new Client({ name: 'claude-code-like', version: '0' }, CHANNEL_CLIENT);
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'mcp', '--tools', 'all'],
        env: { PATH: process.env.PATH ?? '', HOME: tempHome(), ...asCaller(gw.url, token, goalId) },
        stderr: 'ignore',
      }),
    );
  } else {
    const c = await httpClient(`${http.url}?goal=${goalId}`, token, CHANNEL_CLIENT);
    // Pushes go to the standalone stream, which the client opens after initializing.
    const id = c.transport.sessionId;
    await eventually(
      () => (http.stderr().includes(`session ${id} pushes`) ? true : undefined),
      'the session to open its stream',
      10_000,
    );
    client = c.client;
  }
  open.push(client);
  expect(client.getServerCapabilities()?.experimental).toEqual({ 'claude/channel': {} });
  const events = channelEvents(client);
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
    return result.structuredContent as Record<string, any>;
  };
  return { client, events, call };
}

async function deliver(goalId: string, from: string, to: string, subject: string, body: string) {
  const { deliver } = await gw.t.ok(
    DeliverDocument,
    { input: { goalId, to, subject, body, kind: 'REQUEST', idempotencyKey: uid('k') } },
    from,
  );
  if (deliver.__typename !== 'Delivery') throw new Error(`not delivered: ${deliver.__typename}`);
  return deliver;
}

const receipt = async (id: string, token: string) => {
  const { delivery } = await gw.t.ok(DeliveryDocument, { id }, token);
  if (delivery.__typename !== 'Delivery') throw new Error(delivery.__typename);
  return delivery.receipt;
};

/** The receipt once it counts `pushes` pushes (the server records each just after sending it). */
const pushed = (id: string, token: string, pushes = 1) =>
  eventually(async () => {
    const r = await receipt(id, token);
    return r.pushCount >= pushes ? r : undefined;
  }, `${pushes} push receipt(s) of ${id}`);

describe.each(['stdio', 'http'] as const)('the channel over %s', (transport) => {
  it('pushes each message as the active one, once, with a receipt; the next after a resolve; never a processed one', async () => {
    const { goalId, peers } = await team(gw.t, ['a', 'b']);
    const [a, b] = [peers[0]!, peers[1]!];
    const mb = await session(transport, b.token, goalId);

    const d1 = await deliver(goalId, a.token, b.agentId, 'review', 'please look at src/x.ts');
    const e1 = await mb.events.next({ event: 'message', message_id: d1.id });
    expect(e1).toEqual({
      content: 'please look at src/x.ts',
      meta: {
        event: 'message',
        message_id: d1.id,
        from: a.agentId,
        kind: 'REQUEST',
        subject: 'review',
        thread_id: d1.threadId,
      },
    });
    // the sender sees it pushed to the session: apart from SUBMITTED, and not processed
    const r1 = await pushed(d1.id, a.token);
    expect(r1).toMatchObject({ pushCount: 1, processedAt: null });
    expect(r1.pushedAt).toBeTruthy();
    expect((await gw.t.ok(DeliveryDocument, { id: d1.id }, a.token)).delivery).toMatchObject({
      outcome: 'SUBMITTED',
    });

    // one active message: the next waits until this one is resolved; a processed one never comes
    const d2 = await deliver(goalId, a.token, b.agentId, 'second', 'two');
    const d3 = await deliver(goalId, a.token, b.agentId, 'third', 'three');
    expect(await mb.call('next_message')).toMatchObject({
      message: { id: d1.id },
      repeated: true,
    });
    await gw.t.ok(ResolveMessageDocument, { id: d2.id }, b.token);
    const resolved = await mb.call('resolve_message', { id: d1.id });
    const e3 = await mb.events.next({ event: 'message', message_id: d3.id });
    expect(e3.content).toBe('three');
    const r3 = await pushed(d3.id, a.token);
    expect(Date.parse(r3.pushedAt as string)).toBeGreaterThanOrEqual(
      Date.parse(resolved.processedAt),
    );
    expect(mb.events.events.map((e) => e.meta.message_id)).toEqual([d1.id, d3.id]);
    expect((await receipt(d2.id, a.token)).pushCount).toBe(0);

    // a new session of the same agent is pushed the active message again, once
    const again = await session(transport, b.token, goalId);
    await again.events.next({ event: 'message', message_id: d3.id });
    expect((await pushed(d3.id, a.token, 2)).pushCount).toBe(2);
  }, 60_000);

  it("pushes a wait's outcome after its call was cancelled", async () => {
    const { goalId, peers } = await team(gw.t, ['a', 'b']);
    const [a, b] = [peers[0]!, peers[1]!];
    const provider = await registerProvider(gw.t, [goalId]);
    await provider.report([{ goalId, agentId: b.agentId, liveness: 'WORKING' }]);
    const ma = await session(transport, a.token, goalId);
    const controller = new AbortController();
    let progressed!: (message: string) => void;
    const firstProgress = new Promise<string>((resolve) => {
      progressed = resolve;
    });
    const waiting = ma.client.callTool(
      { name: 'wait', arguments: { agents: [b.agentId], until: ['done'], timeout_seconds: 600 } },
      undefined,
      { signal: controller.signal, onprogress: (p) => progressed(p.message ?? '') },
    );
    const waitId = /^wait (\S+):/.exec(await firstProgress)?.[1] as string;
    controller.abort('the client timed out');
    await expect(waiting).rejects.toThrow();
    await provider.report([{ goalId, agentId: b.agentId, liveness: 'DONE' }]);
    const pushed = await ma.events.next({ event: 'wait', wait_id: waitId });
    expect(pushed.meta.status).toBe('SATISFIED');
    expect(pushed.content).toContain(`SATISFIED: ${b.agentId} is DONE`);
  }, 60_000);

  it("pushes a sent delivery's final outcome", async () => {
    const { goalId, peers } = await team(gw.t, ['a', 'b']);
    const [a, b] = [peers[0]!, peers[1]!];
    const provider = await registerProvider(gw.t, [goalId]);
    await provider.report([{ goalId, agentId: b.agentId, liveness: 'IDLE' }]);
    const ma = await session(transport, a.token, goalId);
    const sent = await ma.call('send', { to: b.agentId, subject: 'go', body: 'start the build' });
    expect(sent).toMatchObject({ type: 'Delivery', pin: { state: 'PINNED' } });
    await provider.report([{ goalId, agentId: b.agentId, liveness: 'WORKING' }]);
    const pushed = await ma.events.next({ event: 'delivery', delivery_id: sent.id });
    expect(pushed).toEqual({
      content: `delivery ${sent.id} to ${b.agentId}: ACTIVITY_OBSERVED`,
      meta: {
        event: 'delivery',
        delivery_id: sent.id,
        to: b.agentId,
        outcome: 'ACTIVITY_OBSERVED',
      },
    });
  }, 60_000);
});

describe('recordSessionPush', () => {
  it("records the recipient's pushes (the first time kept, each counted, no read receipt); anyone else's is refused, writing nothing", async () => {
    const { goalId, peers } = await team(gw.t, ['a', 'b']);
    const [a, b] = [peers[0]!, peers[1]!];
    const d = await deliver(goalId, a.token, b.agentId, 's', 'body');
    const first = (await gw.t.ok(RecordSessionPushDocument, { id: d.id }, b.token))
      .recordSessionPush as Record<string, any>;
    expect(first).toMatchObject({ id: d.id, pushCount: 1, readAt: null, processedAt: null });
    const second = (await gw.t.ok(RecordSessionPushDocument, { id: d.id }, b.token))
      .recordSessionPush as Record<string, any>;
    expect(second).toMatchObject({ pushCount: 2, pushedAt: first.pushedAt });

    const provider = await registerProvider(gw.t, [goalId]);
    for (const [token, code] of [
      [a.token, 'BAD_USER_INPUT'],
      [provider.token, 'FORBIDDEN'],
    ] as const) {
      const refused = await gw.t.gql(RecordSessionPushDocument, { id: d.id }, token);
      expect(refused.errors?.[0]?.extensions?.code).toBe(code);
    }
    const unknown = await gw.t.gql(RecordSessionPushDocument, { id: 'dlv_nope' }, b.token);
    expect(unknown.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(await receipt(d.id, a.token)).toMatchObject({ pushCount: 2, readAt: null });
  });
});

describe('a gateway that is not up yet', () => {
  it('the channel tries again until it reaches the gateway, then pushes', async () => {
    const late = await startGateway();
    try {
      const { goalId, peers } = await team(late.t, ['a', 'b']);
      const [a, b] = [peers[0]!, peers[1]!];
      await late.stop();
      const client = new Client({ name: 'claude-code-like', version: '0' }, CHANNEL_CLIENT);
      let stderr = '';
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'mcp'],
        env: {
          PATH: process.env.PATH ?? '',
          HOME: tempHome(),
          ...asCaller(late.url, b.token, goalId),
        },
        stderr: 'pipe',
      });
      transport.stderr?.on('data', (chunk) => {
        stderr += chunk;
      });
      await client.connect(transport);
      open.push(client);
      const events = channelEvents(client);
      await eventually(
        () => (stderr.includes('channel: inbox: cannot reach the gateway') ? true : undefined),
        'the channel to fail once',
        10_000,
      );
      await late.start();
      const { deliver } = await late.t.ok(
        DeliverDocument,
        {
          input: {
            goalId,
            to: b.agentId,
            subject: 's',
            body: 'late',
            kind: 'REQUEST',
            idempotencyKey: uid('k'),
          },
        },
        a.token,
      );
      expect((await events.next({ event: 'message' }, 20_000)).meta.message_id).toBe(
        (deliver as { id: string }).id,
      );
    } finally {
      await late.close();
    }
  }, 60_000);
});

describe('no channel', () => {
  it('--no-channel declares no channel and takes nothing on arrival', async () => {
    const { goalId, peers } = await team(gw.t, ['a', 'b']);
    const [a, b] = [peers[0]!, peers[1]!];
    const client = new Client({ name: 'codex-like', version: '0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [BIN, 'mcp', '--no-channel'],
        env: {
          PATH: process.env.PATH ?? '',
          HOME: tempHome(),
          ...asCaller(gw.url, b.token, goalId),
        },
        stderr: 'ignore',
      }),
    );
    open.push(client);
    expect(client.getServerCapabilities()?.experimental).toBeUndefined();
    expect(client.getInstructions()).not.toContain('channel');
    const d = await deliver(goalId, a.token, b.agentId, 's', 'body');
    const taken = (await client.callTool({ name: 'next_message', arguments: {} }))
      .structuredContent as Record<string, any>;
    expect(taken).toMatchObject({ message: { id: d.id }, repeated: false });
    expect((await receipt(d.id, a.token)).pushCount).toBe(0);
  }, 60_000);
});
