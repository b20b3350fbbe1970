import type { AddressInfo, Socket } from 'node:net';
import {
  GraphQLBoolean,
  GraphQLError,
  GraphQLInt,
  GraphQLObjectType,
  GraphQLSchema,
  parse,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { WebSocket, WebSocketServer } from 'ws';
import { RevokeCredentialDocument } from '../src/client/generated/graphql.ts';
import { startGateway } from '../src/gateway.ts';
import { FanOutGroups } from '../src/graphql/execution/fanout.ts';
import { BatchedWebSocket, MAX_CORKED } from '../src/http/batched-websocket.ts';
import { createLogger } from '../src/log.ts';
import { CLOSE_FORBIDDEN } from '../src/server.ts';
import { t } from './support/gateway-per-file.ts';
import {
  createGoal,
  driver,
  eventually,
  issueCredential,
  openTestDatabase,
  registerAgent,
  registerProvider,
  subscribe,
  testConfig,
  wsClient,
  wsQuery,
} from './support/harness.ts';

const PRESENCE_CHANGED = `subscription($goalId: ID!, $after: Seq) {
  presenceChanged(goalId: $goalId, after: $after) {
    goalId agentId seq previousLiveness
    presence { provider liveness stateChangeSeq }
  }
}`;

async function world() {
  const goalId = await createGoal(t);
  const agentId = await registerAgent(t, goalId);
  const provider = await registerProvider(t, [goalId]);
  const report = (liveness: string) => provider.report([{ goalId, agentId, liveness }]);
  return { goalId, agentId, report };
}

/** A raw graphql-transport-ws socket: every text frame it receives, as sent. */
async function rawSocket(url: string, token: string) {
  const socket = new WebSocket(url, 'graphql-transport-ws');
  const frames: string[] = [];
  let closed: { code: number } | null = null;
  socket.on('message', (data) => frames.push(String(data)));
  socket.on('close', (code) => {
    closed = { code };
  });
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  socket.send(
    JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${token}` } }),
  );
  await eventually(() => (frames.includes('{"type":"connection_ack"}') ? true : undefined), 'ack');
  frames.length = 0;
  return {
    socket,
    frames,
    closed: () => closed,
    subscribe(id: string, query: string, variables: Record<string, unknown>) {
      socket.send(JSON.stringify({ id, type: 'subscribe', payload: { query, variables } }));
    },
    nexts: () => frames.filter((frame) => JSON.parse(frame).type === 'next'),
  };
}

/** Waits until the gateway has `count` more subscription executions than `from`. */
const executions = () => t.gateway.deps.fanOut.stats.executions;

describe(`fan-out groups (${driver})`, () => {
  it('executes each event once for a group and sends every member the same frame', async () => {
    const { goalId, report } = await world();
    const members = await Promise.all([1, 2, 3].map(() => rawSocket(t.wsUrl, t.adminToken)));
    // The same subscription id on each socket: the frames can be compared byte for byte.
    for (const member of members) member.subscribe('s', PRESENCE_CHANGED, { goalId, after: '0' });
    // The first change proves every member has joined.
    await report('WORKING');
    for (const member of members)
      await eventually(() => (member.nexts().length >= 1 ? true : undefined), 'the first change');
    const before = executions();
    await report('IDLE');
    await report('BLOCKED');
    for (const member of members)
      await eventually(() => (member.nexts().length >= 3 ? true : undefined), 'three changes');
    const [first, ...others] = members.map((member) => member.nexts());
    expect(
      first?.map((frame) => JSON.parse(frame).payload.data.presenceChanged.presence.liveness),
    ).toEqual(['WORKING', 'IDLE', 'BLOCKED']);
    for (const frames of others) expect(frames).toEqual(first);
    // Two events, one group of three: two executions, not six.
    expect(executions() - before).toBe(2);
    for (const member of members) member.socket.close();
  });

  it('members share one group, which closes when its last member ends', async () => {
    const { goalId, report } = await world();
    const before = t.gateway.deps.fanOut.size;
    const members = await Promise.all([1, 2, 3].map(() => rawSocket(t.wsUrl, t.adminToken)));
    for (const member of members) member.subscribe('s', PRESENCE_CHANGED, { goalId, after: '0' });
    await report('WORKING');
    for (const member of members)
      await eventually(() => (member.nexts().length >= 1 ? true : undefined), 'the first change');
    expect(t.gateway.deps.fanOut.size).toBe(before + 1);
    members[0]?.socket.close();
    members[1]?.socket.close();
    await report('IDLE');
    await eventually(
      () => ((members[2]?.nexts().length ?? 0) >= 2 ? true : undefined),
      'the second change',
    );
    expect(t.gateway.deps.fanOut.size).toBe(before + 1);
    members[2]?.socket.close();
    await eventually(
      () => (t.gateway.deps.fanOut.size === before ? true : undefined),
      'the group closed',
    );
  });

  it('a slow member holds nobody: the others get every event while it reads nothing, then it catches up in order', async () => {
    const { goalId, report } = await world();
    const fast = await rawSocket(t.wsUrl, t.adminToken);
    const slow = await rawSocket(t.wsUrl, t.adminToken);
    fast.subscribe('s', PRESENCE_CHANGED, { goalId, after: '0' });
    slow.subscribe('s', PRESENCE_CHANGED, { goalId, after: '0' });
    // Its TCP socket stops reading: nothing reaches it until it resumes.
    const tcp = (slow.socket as unknown as { _socket: import('node:net').Socket })._socket;
    tcp.pause();
    const states = ['WORKING', 'IDLE', 'BLOCKED', 'WORKING', 'DONE'];
    for (const liveness of states) await report(liveness);
    await eventually(() => (fast.nexts().length >= states.length ? true : undefined), 'fast');
    expect(slow.nexts()).toEqual([]);
    tcp.resume();
    await eventually(() => (slow.nexts().length >= states.length ? true : undefined), 'slow');
    expect(slow.nexts()).toEqual(fast.nexts());
    expect(
      fast.nexts().map((f) => JSON.parse(f).payload.data.presenceChanged.presence.liveness),
    ).toEqual(states);
    fast.socket.close();
    slow.socket.close();
  });

  it("a revoked member's stream ends while the rest of its group goes on", async () => {
    const { goalId, report } = await world();
    // Two steward credentials bound to the same goal: one scope, one group.
    const kept = await issueCredential(t, { kind: 'STEWARD', goalIds: [goalId] });
    const revoked = await issueCredential(t, { kind: 'STEWARD', goalIds: [goalId] });
    let closedWith: number | null = null;
    const keptClient = wsClient(t.wsUrl, kept.token);
    const revokedClient = wsClient(t.wsUrl, revoked.token, (event) => {
      closedWith = event.code;
    });
    const keptStream = subscribe(
      keptClient,
      PRESENCE_CHANGED,
      { goalId, after: '0' },
      'presenceChanged',
    );
    const revokedStream = subscribe(
      revokedClient,
      PRESENCE_CHANGED,
      { goalId, after: '0' },
      'presenceChanged',
    );
    await report('WORKING');
    await keptStream.take(1);
    await revokedStream.take(1);
    const before = executions();
    await report('BLOCKED');
    await keptStream.take(2);
    await revokedStream.take(2);
    expect(executions() - before).toBe(1);

    await t.ok(RevokeCredentialDocument, { id: revoked.id });
    await revokedStream.completed;
    expect(JSON.stringify(revokedStream.errors)).toContain('UNAUTHENTICATED');
    await eventually(() => (closedWith === CLOSE_FORBIDDEN ? true : undefined), 'socket closed');

    await report('IDLE');
    const [, , third] = await keptStream.take(3);
    expect(third.presence.liveness).toBe('IDLE');
    expect(revokedStream.items).toHaveLength(2);
    keptStream.dispose();
    await keptClient.dispose();
    await revokedClient.dispose();
  });

  it('different scopes never share a group', async () => {
    const { goalId, report } = await world();
    const otherGoal = await createGoal(t);
    const narrow = await issueCredential(t, { kind: 'STEWARD', goalIds: [goalId] });
    const wide = await issueCredential(t, { kind: 'STEWARD', goalIds: [goalId, otherGoal] });
    const clients = [t.adminToken, narrow.token, wide.token].map((token) =>
      wsClient(t.wsUrl, token),
    );
    const streams = clients.map((client) =>
      subscribe(client, PRESENCE_CHANGED, { goalId, after: '0' }, 'presenceChanged'),
    );
    await report('WORKING');
    for (const stream of streams) await stream.take(1);
    const before = executions();
    await report('IDLE');
    for (const stream of streams) await stream.take(2);
    // The operator, a steward of the goal, a steward of two goals: three groups.
    expect(executions() - before).toBe(3);
    // The operator on another socket: its catch-up read (two changes) is its own, then it
    // shares the operator's group.
    const again = wsClient(t.wsUrl, t.adminToken);
    const joined = subscribe(again, PRESENCE_CHANGED, { goalId, after: '0' }, 'presenceChanged');
    await joined.take(2);
    expect(executions() - before).toBe(5);
    await report('BLOCKED');
    for (const stream of [...streams, joined]) await stream.take(3);
    expect(executions() - before).toBe(8);
    for (const stream of [...streams, joined]) stream.dispose();
    for (const client of [...clients, again]) await client.dispose();
  });
});

describe(`fan-out groups mask errors (${driver})`, () => {
  it('masks a subscription that fails on the database, and logs it with the error id the client gets', async () => {
    const lines: string[] = [];
    const broken = await openTestDatabase();
    const config = testConfig();
    const gateway = await startGateway(
      config,
      createLogger('error', (line) => lines.push(line)),
      { database: broken },
    );
    const goalId = 'goal-of-a-broken-database';
    let closed: { code: number; reason: string } | null = null;
    const client = wsClient(
      gateway.url.replace('http://', 'ws://'),
      config.adminToken as string,
      (event) => {
        closed = event;
      },
    );
    await wsQuery(client, '{ __typename }'); // connected while the database still answered
    await broken.close(); // every query now fails inside the driver
    const stream = subscribe(client, PRESENCE_CHANGED, { goalId, after: '0' }, 'presenceChanged');
    await stream.completed;
    expect(stream.errors).toEqual([
      expect.objectContaining({
        message: 'Unexpected error.',
        extensions: expect.objectContaining({
          code: 'INTERNAL_SERVER_ERROR',
          errorId: expect.any(String),
        }),
      }),
    ]);
    expect(JSON.stringify(stream.errors)).not.toMatch(/stack|select|closed|PGlite|Drizzle/i);
    const { errorId } = (stream.errors[0] as { extensions: { errorId: string } }).extensions;
    // Logged once, with the id the client got; the socket stays open for other operations.
    expect(lines.filter((line) => line.includes(errorId))).toHaveLength(1);
    expect(closed).toBeNull();
    await client.dispose();
    await gateway.stop();
  });
});

describe('fan-out groups mask errors of shared executions', () => {
  const event = { n: 1 };
  let fail: 'resolve' | 'source' = 'resolve';
  const schema = new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields: { ok: { type: GraphQLBoolean } } }),
    subscription: new GraphQLObjectType({
      name: 'Subscription',
      fields: {
        tick: {
          type: GraphQLInt,
          // Every member's source hands on the same event object, as a stream hub does.
          subscribe: async function* () {
            yield event;
            if (fail === 'source') throw new Error('source broke: secret detail');
          },
          resolve: () => {
            if (fail === 'resolve') throw new Error('resolver broke: secret detail');
            return 1;
          },
        },
      },
    }),
  });
  // One parsed document for every member, as Yoga's parser cache hands out.
  const document = parse('subscription { tick }');
  const masking = () => {
    const masked: unknown[] = [];
    const groups = new FanOutGroups((error) => {
      masked.push(error);
      return new GraphQLError('Unexpected error.', {
        extensions: { code: 'INTERNAL_SERVER_ERROR' },
      });
    });
    const member = async () => {
      const stream = await groups.subscribe({
        schema,
        document,
        contextValue: { caller: null },
      });
      if (!(Symbol.asyncIterator in stream)) throw new Error('no stream');
      return stream;
    };
    return { masked, member };
  };

  it("masks an error of the group's execution once; every member gets the masked result", async () => {
    fail = 'resolve';
    const { masked, member } = masking();
    const members = await Promise.all([member(), member(), member()]);
    const results = await Promise.all(members.map((m) => m.next()));
    expect(masked).toHaveLength(1);
    const [first, ...others] = results;
    for (const other of others) expect(other.value).toBe(first?.value);
    expect(JSON.parse(JSON.stringify(first?.value))).toEqual({
      data: { tick: null },
      errors: [{ message: 'Unexpected error.', extensions: { code: 'INTERNAL_SERVER_ERROR' } }],
    });
  });

  it('masks an error a member stream throws', async () => {
    fail = 'source';
    const { masked, member } = masking();
    const stream = await member();
    // As a client reads it (a compiled result also carries its serializer).
    expect(JSON.parse(JSON.stringify((await stream.next()).value))).toEqual({ data: { tick: 1 } });
    await expect(stream.next()).rejects.toThrow(/^Unexpected error\.$/);
    expect(String(masked[0])).toContain('source broke');
  });
});

describe('frames sent to one socket by one callback', () => {
  /** A server socket of `WebSocketClass` and a client connected to it. */
  async function connected(WebSocketClass: typeof WebSocket) {
    const server = new WebSocketServer({ port: 0, WebSocket: WebSocketClass });
    await new Promise((resolve) => server.once('listening', resolve));
    const accepted = new Promise<WebSocket>((resolve) => server.once('connection', resolve));
    const client = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}`);
    const received: string[] = [];
    client.on('message', (data) => received.push(String(data)));
    const ws = await accepted;
    const close = async () => {
      client.close();
      await new Promise((resolve) => server.close(resolve));
    };
    return { ws, received, close };
  }

  /** Calls `onWrite` whenever the server side's TCP socket of `ws` writes to the kernel. */
  function onKernelWrite(ws: WebSocket, onWrite: () => void): void {
    const tcp = (ws as unknown as { _socket: Socket & Record<string, unknown> })._socket;
    for (const method of ['_write', '_writev'] as const) {
      const original = tcp[method] as (...args: unknown[]) => unknown;
      tcp[method] = (...args: unknown[]) => {
        onWrite();
        return original.apply(tcp, args);
      };
    }
  }

  /** Writes the server side's TCP socket makes for `frames` sends in one callback. */
  async function writesFor(
    WebSocketClass: typeof WebSocket,
    frames: number,
  ): Promise<{ writes: number; received: string[] }> {
    const { ws, received, close } = await connected(WebSocketClass);
    let writes = 0;
    onKernelWrite(ws, () => writes++);
    for (let i = 0; i < frames; i++) ws.send(`frame ${i}`);
    await eventually(() => (received.length === frames ? true : undefined), 'every frame');
    const sent = writes;
    await close();
    return { writes: sent, received };
  }

  it('leave in one write, in order', async () => {
    const batched = await writesFor(BatchedWebSocket, 20);
    expect(batched.received).toEqual(Array.from({ length: 20 }, (_, i) => `frame ${i}`));
    expect(batched.writes).toBe(1);
    // The library's own socket: one write per frame.
    expect((await writesFor(WebSocket, 20)).writes).toBe(20);
  });

  it('to many sockets start leaving before the callback ends, at most MAX_CORKED held at once', async () => {
    const server = new WebSocketServer({ port: 0, WebSocket: BatchedWebSocket });
    await new Promise((resolve) => server.once('listening', resolve));
    const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const count = MAX_CORKED * 2 + 10;
    const accepted: WebSocket[] = [];
    server.on('connection', (ws) => accepted.push(ws));
    const received: string[] = [];
    const clients = Array.from({ length: count }, () => {
      const client = new WebSocket(url);
      client.on('message', (data) => received.push(String(data)));
      return client;
    });
    await eventually(() => (accepted.length === count ? true : undefined), 'every socket');
    // Which server sockets have written to the kernel so far.
    const written = new Set<number>();
    for (const [i, ws] of accepted.entries()) onKernelWrite(ws, () => written.add(i));
    // One callback sends one frame to every socket (a fan-out).
    for (const [i, ws] of accepted.entries()) ws.send(`frame ${i}`);
    const duringCallback = new Set(written);
    expect(duringCallback.has(0)).toBe(true);
    expect(count - duringCallback.size).toBeGreaterThan(0);
    expect(count - duringCallback.size).toBeLessThanOrEqual(MAX_CORKED);
    await eventually(() => (received.length === count ? true : undefined), 'every frame');
    expect(written.size).toBe(count);
    expect(received.sort()).toEqual(accepted.map((_, i) => `frame ${i}`).sort());
    for (const client of clients) client.close();
    await new Promise((resolve) => server.close(resolve));
  });

  it('hold a stream that sends each frame once the last is written to no pace of the event loop', async () => {
    // graphql-ws sends a subscription's next result once the last one is written.
    const { ws, received, close } = await connected(BatchedWebSocket);
    let turns = 0;
    const count = () => {
      turns++;
      counting = setImmediate(count);
    };
    let counting = setImmediate(count);
    for (let i = 0; i < 200; i++) {
      await new Promise<void>((resolve, reject) =>
        ws.send(`frame ${i}`, (error) => (error ? reject(error) : resolve())),
      );
    }
    clearImmediate(counting);
    await eventually(() => (received.length === 200 ? true : undefined), 'every frame');
    // Uncorked at the end of each turn instead, the 200 frames took at least 200 turns.
    expect(turns).toBeLessThan(20);
    await close();
  });
});
