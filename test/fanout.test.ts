import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { CLOSE_FORBIDDEN } from '../src/server.ts';
import { t } from './support/gateway-per-file.ts';
import {
  createGoal,
  driver,
  eventually,
  issueCredential,
  registerAgent,
  registerProvider,
  subscribe,
  wsClient,
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

    await t.ok(`mutation($id: ID!) { revokeCredential(id: $id) { id } }`, { id: revoked.id });
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
