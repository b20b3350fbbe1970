/**
 * `switchboard mcp` as an MCP client sees it: the real bundled binary over stdio, driven by the
 * SDK's own Client, against a real gateway. Tool budgets, every tool's happy path and typed
 * refusals, wait outcomes (satisfied by a provider report, timed out, cancelled), resource
 * update notifications, bad arguments as isError results, and the replan prompt's digest.
 */
import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type CallToolResult,
  type JSONRPCMessage,
  ResourceUpdatedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CreateTodoDocument, InboxDocument } from '../src/client/generated/graphql.ts';
import { ALL_TOOLSETS_BUDGET, DEFAULT_TOOLSET_BUDGET, toolListTokens } from '../src/mcp/budget.ts';
import { MAX_MESSAGE_BYTES } from '../src/mcp/stdio.ts';
import {
  asCaller,
  BIN,
  eventually,
  issueCredential,
  registerProvider,
  runCli,
  startGateway,
  team,
  tempHome,
} from './support/cli.ts';
import { lossyProxy } from './support/mcp.ts';

let gw: Awaited<ReturnType<typeof startGateway>>;
const open: Client[] = [];
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => {
  await Promise.all(open.map((client) => client.close().catch(() => {})));
  await gw?.close();
});

interface Session {
  client: Client;
  stderr(): string;
  /** Calls a tool; fails the test on a protocol error, returns the result (isError or not). */
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** Calls a tool that must answer a structured (non-error) result; returns structuredContent. */
  ok(name: string, args?: Record<string, unknown>): Promise<Record<string, any>>;
}

async function connect(
  env: Record<string, string>,
  tools?: string,
  flags: string[] = [],
): Promise<Session> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...(tools ? ['--tools', tools] : []), ...flags],
    env: { PATH: process.env.PATH ?? '', HOME: tempHome(), ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  const client = new Client({ name: 'switchboard-test', version: '0' });
  await client.connect(transport);
  open.push(client);
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  return {
    client,
    stderr: () => stderr,
    call,
    async ok(name, args) {
      const result = await call(name, args);
      if (result.isError) throw new Error(`${name} isError: ${JSON.stringify(result.content)}`);
      expect(result.content[0]).toMatchObject({ type: 'text' });
      expect(result.structuredContent).toBeDefined();
      return result.structuredContent as Record<string, any>;
    },
  };
}

const textOf = (result: CallToolResult) =>
  result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');

/** A team (test/support/team.ts) whose peers each have their own MCP session (all toolsets). */
async function teamWithSessions(names: string[], flags: string[] = []) {
  const { goalId, peers } = await team(gw.t, names);
  const sessions = await Promise.all(
    peers.map((peer) => connect(asCaller(gw.url, peer.token, goalId), 'all', flags)),
  );
  return { goalId, peers, sessions };
}

async function createTodo(goalId: string, title: string): Promise<string> {
  const data = await gw.t.ok(CreateTodoDocument, {
    input: { goalId, title, taskClass: 'ADVANCEMENT_TASK' },
  });
  return data.createTodo.id;
}

describe('tools/list', () => {
  it('the default set and all sets together are within budget; every tool has an output schema', async () => {
    const { peers, goalId } = await team(gw.t, ['a']);
    const env = asCaller(gw.url, peers[0]!.token, goalId);
    const sizes: Record<string, { tools: number; tokens: number }> = {};
    const names: Record<string, string[]> = {};
    for (const set of ['default', 'core', 'work', 'ledger', 'admin', 'all']) {
      const session = await connect(env, set === 'default' ? undefined : set);
      const { tools } = await session.client.listTools();
      sizes[set] = { tools: tools.length, tokens: toolListTokens(tools) };
      names[set] = tools.map((t) => t.name);
      for (const tool of tools) {
        expect(tool.outputSchema, tool.name).toBeDefined();
        expect(tool.description?.length, tool.name).toBeGreaterThan(10);
      }
      await session.client.close();
    }
    console.log(JSON.stringify({ mcpToolListTokens: sizes }));
    expect(sizes.default!.tokens).toBeLessThanOrEqual(DEFAULT_TOOLSET_BUDGET);
    expect(sizes.all!.tokens).toBeLessThanOrEqual(ALL_TOOLSETS_BUDGET);
    expect(names.default).toEqual(names.core);
    // the read the ledger contract requires before every replan is always there
    expect(names.default).toContain('evidence_log');
    expect(new Set(names.all)).toEqual(
      new Set([...names.core!, ...names.work!, ...names.ledger!, ...names.admin!]),
    );
    expect(names.all).toEqual(
      expect.arrayContaining([
        'whoami',
        'directory',
        'attention',
        'observe',
        'discover',
        'peers',
        'add_peer',
        'remove_peer',
        'set_primary_peer',
        'send',
        'delivery_status',
        'wait',
        'inbox',
        'next_message',
        'resolve_message',
        'release_message',
        'evidence_log',
        'record_event',
        'replan_checkpoint',
        'frontier',
        'todos',
        'claim_todo',
        'release_claim',
        'complete_todo',
        'defer_todo',
        'open_gate',
        'handoff_todo',
        'handoff_packet',
        'declare_workspace',
        'goal_closure',
        'replan_owed',
        'close_goal',
      ]),
    );
  }, 90_000);
});

describe('identity, directory and roster', () => {
  it('whoami, directory, attention, peers, discover, add/remove/set_primary_peer, observe', async () => {
    const { goalId, peers, sessions } = await teamWithSessions(['a', 'b', 'c']);
    const [a, b] = [sessions[0]!, peers[1]!];
    expect(await a.ok('whoami')).toMatchObject({
      type: 'Caller',
      kind: 'PEER',
      agentId: peers[0]!.agentId,
      goalId,
    });
    const directory = await a.ok('directory');
    expect(directory.type).toBe('Directory');
    expect(directory.rows.map((r: any) => r.agentId).sort()).toEqual(
      peers.map((p) => p.agentId).sort(),
    );
    expect(await a.ok('attention')).toMatchObject({ type: 'Attention', goalId });
    expect(await a.ok('peers')).toMatchObject({ type: 'Roster', self: peers[0]!.agentId });
    const discovered = await a.ok('discover');
    expect(discovered.type).toBe('Discovery');
    expect(discovered.agents.map((x: any) => x.agentId)).toContain(b.agentId);

    expect(await a.ok('add_peer', { agent: b.agentId })).toMatchObject({
      type: 'Roster',
      peers: [expect.objectContaining({ agentId: b.agentId })],
    });
    expect(await a.ok('set_primary_peer', { agent: b.agentId })).toMatchObject({
      type: 'Roster',
      primaryPeer: b.agentId,
    });
    expect(await a.ok('add_peer', { agent: 'nobody-here' })).toMatchObject({
      type: 'UnknownAgent',
    });
    const removed = await a.ok('remove_peer', { agent: b.agentId });
    expect(removed.type).toBe('Roster');
    expect(removed.peers.map((p: any) => p.agentId)).not.toContain(b.agentId);

    const observed = await a.ok('observe', { agent: b.agentId });
    expect(['Observation', 'ObservationGap']).toContain(observed.type);
    expect(await a.ok('observe', { agent: 'nobody-here' })).toMatchObject({
      type: 'UnknownAgent',
    });
  }, 60_000);
});

describe('scope', () => {
  it("another goal's data: scope gaps are ordinary typed results, not errors", async () => {
    const mine = await team(gw.t, ['a']);
    const other = await team(gw.t, ['a']);
    const outside = await connect(asCaller(gw.url, mine.peers[0]!.token, other.goalId), 'all');
    const types: Record<string, string> = {};
    for (const [tool, args] of [
      ['directory', {}],
      ['attention', {}],
      ['peers', {}],
      ['inbox', {}],
      ['todos', {}],
      ['evidence_log', {}],
      ['send', { to: other.peers[0]!.agentId, subject: 's', body: 'b' }],
    ] as const) {
      const result = await outside.call(tool, args);
      expect(result.isError, `${tool}: ${textOf(result)}`).toBeFalsy();
      types[tool] = (result.structuredContent as { type: string }).type;
    }
    expect(types).toEqual({
      directory: 'ScopeGap',
      attention: 'ScopeGap',
      peers: 'ScopeGap',
      inbox: 'ScopeGap',
      todos: 'ScopeGap',
      evidence_log: 'ScopeGap',
      send: 'DeliveryRefused',
    });
  }, 60_000);
});

describe('delivery and inbox', () => {
  it('send, delivery_status, inbox, next/release/resolve, refusals', async () => {
    // Without a channel: next_message alone takes messages (a channel takes each on arrival).
    const { peers, sessions } = await teamWithSessions(['a', 'b', 'c'], ['--no-channel']);
    const [a, b] = [sessions[0]!, sessions[1]!];
    const to = peers[1]!.agentId;

    // no `to`, no primary, several peers: refused with the choices, not an error
    const ambiguous = await a.ok('send', { subject: 's', body: 'b' });
    expect(ambiguous.type).toBe('DeliveryRefused');
    expect(typeof ambiguous.reason).toBe('string');

    const sent = await a.ok('send', { to, subject: 'review', body: 'see src/x.ts' });
    expect(sent).toMatchObject({ type: 'Delivery', to, outcome: 'SUBMITTED', replayed: false });
    const conflict = await a.ok('send', {
      to,
      subject: 'review',
      body: 'other body',
      idempotency_key: sent.idempotencyKey,
    });
    expect(conflict).toMatchObject({ type: 'IdempotencyConflict' });
    expect(conflict.differingFields.length).toBeGreaterThan(0);
    const second = await a.ok('send', {
      to,
      subject: 'review',
      body: 'see src/x.ts',
      idempotency_key: 'again-on-purpose',
    });
    expect(second.id).not.toBe(sent.id);

    expect(await a.ok('delivery_status', { id: sent.id })).toMatchObject({
      type: 'Delivery',
      id: sent.id,
    });
    expect(await a.ok('delivery_status', { id: 'no-such-delivery' })).toMatchObject({
      type: 'UnknownDelivery',
    });

    const inbox = await b.ok('inbox');
    expect(inbox).toMatchObject({ type: 'Inbox', unprocessedCount: 2 });
    expect(b.stderr()).not.toContain('channel');
    const taken = await b.ok('next_message');
    expect(taken).toMatchObject({ type: 'TakenMessage', repeated: false });
    expect(taken.message.body).toBe('see src/x.ts');
    expect(await b.ok('next_message')).toMatchObject({ type: 'TakenMessage', repeated: true });
    const released = await b.ok('release_message', { id: taken.message.id });
    expect(released).toMatchObject({ type: 'InboxMessage', id: taken.message.id });
    // a message of someone else's inbox: the gateway refuses the argument
    const notMine = await a.call('resolve_message', { id: taken.message.id });
    expect(notMine.isError).toBe(true);
    expect(textOf(notMine)).toContain('not messages in your inbox');
    for (let i = 0; i < 2; i++) {
      const next = await b.ok('next_message');
      expect(next.type).toBe('TakenMessage');
      const resolved = await b.ok('resolve_message', { id: next.message.id });
      expect(resolved.processedAt).toBeTruthy();
    }
    expect(await b.ok('next_message')).toMatchObject({ type: 'InboxEmpty' });
    expect(await b.ok('inbox')).toMatchObject({ type: 'Inbox', unprocessedCount: 0 });
  }, 60_000);

  it('send: a retry of a call whose answer was lost replays; the same ask after an answer is sent again', async () => {
    const { goalId, peers } = await team(gw.t, ['a', 'b']);
    const to = peers[1]!.agentId;
    // Between the server and the gateway: the answer to the first Deliver is lost after the
    // gateway committed it, as a dropped connection loses it.
    const proxy = await lossyProxy(gw.url, (body) => body.includes('mutation Deliver'));
    const a = await connect(asCaller(proxy.url, peers[0]!.token, goalId), undefined, [
      '--no-channel',
    ]);
    const ask = { to, subject: 'review', body: 'see src/x.ts' };
    const lost = await a.call('send', ask);
    expect(lost.isError).toBe(true);
    expect(textOf(lost)).toContain('cannot reach the gateway');
    const retry = await a.ok('send', ask);
    expect(retry).toMatchObject({ type: 'Delivery', replayed: true });
    const later = await a.ok('send', ask);
    expect(later).toMatchObject({ type: 'Delivery', replayed: false });
    expect(later.id).not.toBe(retry.id);
    expect(later.idempotencyKey).not.toBe(retry.idempotencyKey);
    // the recipient got two messages: the first ask (once, though sent twice) and the later one
    const { inbox } = await gw.t.ok(InboxDocument, { goalId, unprocessed: true }, peers[1]!.token);
    expect(inbox.messages.map((m: { id: string }) => m.id).sort()).toEqual(
      [retry.id, later.id].sort(),
    );
    // an agent's own key is used as given: the same key replays whatever came before
    const own = await a.ok('send', { ...ask, idempotency_key: 'mine-1' });
    expect(await a.ok('send', { ...ask, idempotency_key: 'mine-1' })).toMatchObject({
      id: own.id,
      replayed: true,
    });
    await proxy.close();
  }, 60_000);

  it('inbox resource: notifications/resources/updated within 1 s of a delivery; directory on presence', async () => {
    const { goalId, peers, sessions } = await teamWithSessions(['a', 'b', 'c']);
    const [a, b] = [sessions[0]!, sessions[1]!];
    const updates: { uri: string; at: number }[] = [];
    const waiters: (() => void)[] = [];
    b.client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
      updates.push({ uri: n.params.uri, at: Date.now() });
      for (const wake of waiters.splice(0)) wake();
    });
    const updated = (uri: string, after: number, deadlineMs: number) =>
      new Promise<number>((resolve, reject) => {
        const check = () => {
          const hit = updates.find((u) => u.uri === uri && u.at >= after);
          if (hit) {
            clearTimeout(timer);
            resolve(hit.at);
          } else waiters.push(check);
        };
        const timer = setTimeout(
          () => reject(new Error(`no update of ${uri} within ${deadlineMs} ms`)),
          deadlineMs,
        );
        check();
      });

    const { resources } = await b.client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual([
      'switchboard://directory',
      'switchboard://inbox',
    ]);
    await b.client.subscribeResource({ uri: 'switchboard://inbox' });
    const before = Date.now();
    const sent = await a.ok('send', { to: peers[1]!.agentId, subject: 'ping', body: 'pong' });
    expect(sent.type).toBe('Delivery');
    const sentAt = Date.now();
    const at = await updated('switchboard://inbox', before, 5_000);
    expect(at - sentAt).toBeLessThanOrEqual(1_000);
    const read = await b.client.readResource({ uri: 'switchboard://inbox' });
    const content = read.contents[0] as { text: string };
    expect(JSON.parse(content.text).messages[0]).toMatchObject({ subject: 'ping', body: 'pong' });

    await b.client.subscribeResource({ uri: 'switchboard://directory' });
    const provider = await registerProvider(gw.t, [goalId]);
    const reportedFrom = Date.now();
    await provider.report([{ goalId, agentId: peers[2]!.agentId, liveness: 'WORKING' }]);
    const reportedAt = Date.now();
    const dirAt = await updated('switchboard://directory', reportedFrom, 5_000);
    expect(dirAt - reportedAt).toBeLessThanOrEqual(1_000);
    const directory = JSON.parse(
      ((await b.client.readResource({ uri: 'switchboard://directory' })).contents[0] as any).text,
    );
    expect(directory.rows.find((r: any) => r.agentId === peers[2]!.agentId).presence.liveness).toBe(
      'WORKING',
    );
  }, 60_000);
});

describe('wait', () => {
  it('SATISFIED when a provider reports; progress notifications while waiting', async () => {
    const { goalId, peers, sessions } = await teamWithSessions(['a', 'b']);
    const a = sessions[0]!;
    const b = peers[1]!.agentId;
    const provider = await registerProvider(gw.t, [goalId]);
    await provider.report([{ goalId, agentId: b, liveness: 'WORKING' }]);
    let progressed!: () => void;
    const firstProgress = new Promise<void>((resolve) => {
      progressed = resolve;
    });
    const progress: number[] = [];
    const waiting = a.client.callTool(
      { name: 'wait', arguments: { agents: [b], until: ['DONE'], timeout_seconds: 60 } },
      undefined,
      {
        timeout: 90_000,
        onprogress: (p) => {
          progress.push(p.progress);
          progressed();
        },
      },
    );
    await firstProgress; // the wait is PENDING: its baseline is before the next report
    await provider.report([{ goalId, agentId: b, liveness: 'DONE' }]);
    const result = (await waiting) as CallToolResult;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({
      type: 'Wait',
      status: 'SATISFIED',
      resolution: { agentId: b, liveness: 'DONE' },
    });
    expect(progress.length).toBeGreaterThan(0);
    expect(textOf(result)).toContain('SATISFIED');
  }, 60_000);

  it('TIMED_OUT at its deadline; typed refusals for an unknown agent', async () => {
    const { goalId, peers, sessions } = await teamWithSessions(['a', 'b']);
    const a = sessions[0]!;
    const b = peers[1]!.agentId;
    const provider = await registerProvider(gw.t, [goalId]);
    await provider.report([{ goalId, agentId: b, liveness: 'WORKING' }]);
    const started = Date.now();
    const result = await a.ok('wait', { agents: [b], until: ['DONE'], timeout_seconds: 1 });
    expect(result).toMatchObject({ type: 'Wait', status: 'TIMED_OUT' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    const unknown = await a.ok('wait', { agents: ['nobody-here'], timeout_seconds: 5 });
    expect(unknown.type).toBe('UnknownAgent');
  }, 60_000);

  it('a cancelled call ends; the server keeps serving; wait_id follows the wait again', async () => {
    const { goalId, peers, sessions } = await teamWithSessions(['a', 'b']);
    const a = sessions[0]!;
    const b = peers[1]!.agentId;
    const provider = await registerProvider(gw.t, [goalId]);
    await provider.report([{ goalId, agentId: b, liveness: 'WORKING' }]);
    const controller = new AbortController();
    let progressed!: (message: string) => void;
    const firstProgress = new Promise<string>((resolve) => {
      progressed = resolve;
    });
    const waiting = a.client.callTool(
      { name: 'wait', arguments: { agents: [b], until: ['DONE'], timeout_seconds: 600 } },
      undefined,
      {
        signal: controller.signal,
        onprogress: (p) => progressed(p.message ?? ''),
        timeout: 90_000,
      },
    );
    const message = await firstProgress;
    const waitId = /^wait (\S+):/.exec(message)?.[1];
    expect(waitId).toBeTruthy();
    controller.abort('changed my mind');
    await expect(waiting).rejects.toThrow();
    await eventually(
      async () =>
        a.stderr().includes(`wait ${waitId}: cancelled; its outcome will be pushed`)
          ? true
          : undefined,
      'the server to log the cancellation',
      10_000,
    );
    expect(await a.ok('whoami')).toMatchObject({ type: 'Caller' });

    // the wait is still a row on the gateway: follow it again by id
    let resumed!: () => void;
    const resumedProgress = new Promise<void>((resolve) => {
      resumed = resolve;
    });
    const again = a.client.callTool({ name: 'wait', arguments: { wait_id: waitId } }, undefined, {
      onprogress: () => resumed(),
      timeout: 90_000,
    });
    await resumedProgress;
    await provider.report([{ goalId, agentId: b, liveness: 'DONE' }]);
    expect(((await again) as CallToolResult).structuredContent).toMatchObject({
      type: 'Wait',
      id: waitId,
      status: 'SATISFIED',
    });
    expect(await a.ok('wait', { wait_id: 'no-such-wait' })).toMatchObject({ type: 'UnknownWait' });
    const neither = await a.call('wait', { until: ['DONE'] });
    expect(neither.isError).toBe(true);
    expect(textOf(neither)).toContain('wait_id');
  }, 60_000);

  it('`until` offers exactly the liveness values the gateway accepts in a wait', async () => {
    const { goalId, peers } = await team(gw.t);
    const [a, b] = [peers[0]!, peers[1]!];
    // asked of the gateway, value by value of the schema's Liveness: not read from the client
    const { __type } = await gw.t.ok<{ __type: { enumValues: { name: string }[] } }>(
      '{ __type(name: "Liveness") { enumValues { name } } }',
      {},
      a.token,
    );
    const accepted: string[] = [];
    for (const { name } of __type.enumValues) {
      const started = await gw.t.gql(
        'mutation($input: WaitInput!) { startWait(input: $input) { __typename } }',
        { input: { goalId, agentId: b.agentId, accept: [name], timeoutMs: 1000 } },
        a.token,
      );
      if (started.errors) expect(started.errors[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      else accepted.push(name);
    }
    expect(accepted.length).toBeGreaterThan(0);
    expect(accepted.length).toBeLessThan(__type.enumValues.length);

    const session = await connect(asCaller(gw.url, a.token, goalId));
    const { tools } = await session.client.listTools();
    const until = tools.find((t) => t.name === 'wait')?.inputSchema.properties?.until as
      | { items?: { enum?: string[] } }
      | undefined;
    expect([...(until?.items?.enum ?? [])].sort()).toEqual(accepted.sort());
  });
});

describe('work', () => {
  it('frontier: at most 50 rows unless asked, runnable or held only, counts of the whole, a bad limit refused', async () => {
    const { goalId, sessions } = await teamWithSessions(['a', 'b']);
    const [a, b] = [sessions[0]!, sessions[1]!];
    const ids: string[] = [];
    for (let i = 0; i < 52; i++) ids.push(await createTodo(goalId, `todo ${i}`));
    await b.ok('claim_todo', { todo: ids[0] });

    const first = await a.call('frontier');
    expect(first.structuredContent).toMatchObject({
      type: 'Frontier',
      rowCount: 52,
      runnableCount: 51,
      omittedRowCount: 2,
    });
    expect((first.structuredContent as any).rows).toHaveLength(50);
    expect(textOf(first)).toContain('51 runnable of 52; 2 rows not shown');

    const held = await a.ok('frontier', { runnable: false });
    expect(held.rows.map((r: any) => [r.todo.id, r.runnable])).toEqual([[ids[0], false]]);
    expect(held.rows[0].guards.map((g: any) => g.kind)).toEqual(['CLAIMED_BY_OTHER']);
    const ready = await a.ok('frontier', { runnable: true, limit: 5000 });
    expect(ready.rows).toHaveLength(51);
    expect(ready.rows.every((r: any) => r.runnable)).toBe(true);
    expect(ready).toMatchObject({ rowCount: 52, runnableCount: 51, omittedRowCount: 1 });

    for (const limit of [-1, 5001]) {
      const refused = await a.call('frontier', { limit });
      expect(refused.isError, `limit ${limit}`).toBe(true);
      expect(refused.structuredContent).toBeUndefined();
    }
  });

  it('frontier, todos, claim/release/complete/defer/close, open_gate, with typed refusals', async () => {
    const { goalId, peers, sessions } = await teamWithSessions(['a', 'b']);
    const [a, b] = [sessions[0]!, sessions[1]!];
    const t1 = await createTodo(goalId, 'first');
    const t2 = await createTodo(goalId, 'second');
    const t3 = await createTodo(goalId, 'third');

    const frontier = await a.ok('frontier');
    expect(frontier.type).toBe('Frontier');
    expect(frontier.rows.map((r: any) => r.todo.id)).toEqual(expect.arrayContaining([t1, t2]));
    const todos = await a.ok('todos');
    expect(todos.type).toBe('Todos');
    expect(todos.rows.map((t: any) => t.id)).toEqual(expect.arrayContaining([t1, t2, t3]));

    expect(await a.ok('claim_todo', { todo: t1 })).toMatchObject({
      type: 'ClaimedTodo',
      todo: { id: t1, claim: { agentId: peers[0]!.agentId } },
      warnings: [],
    });
    expect(await b.ok('claim_todo', { todo: t1 })).toMatchObject({
      type: 'ClaimedByOther',
      owner: peers[0]!.agentId,
    });
    expect(await a.ok('claim_todo', { todo: 'no-such-todo' })).toMatchObject({
      type: 'UnknownTodo',
    });
    const completed = await a.ok('complete_todo', {
      todo: t1,
      evidence: ['commit:abc123'],
      successor_title: 'follow-up',
    });
    expect(completed).toMatchObject({ type: 'CompletedTodo', todo: { id: t1, status: 'DONE' } });
    expect(completed.successor.title).toBe('follow-up');
    expect(await a.ok('complete_todo', { todo: t1, evidence: ['x'] })).toMatchObject({
      type: 'IllegalTransition',
    });

    expect((await a.ok('claim_todo', { todo: t2 })).todo.claim).toBeTruthy();
    expect(await a.ok('release_claim', { todo: t2 })).toMatchObject({
      type: 'Todo',
      status: 'OPEN',
      claim: null,
    });
    const deferred = await a.ok('defer_todo', {
      todo: t2,
      resume_when: [`todo_done:${t3}`],
      reason: 'after third',
    });
    expect(deferred).toMatchObject({ type: 'Todo', status: 'DEFERRED' });
    const closed = await a.ok('close_no_follow_up', { todo: t3, reason: 'not needed' });
    expect(closed.type).toBe('Todo');

    const gate = await a.ok('open_gate', {
      kind: 'PRODUCTION',
      granularity: 'ACTION',
      scope_key: 'deploy/site',
      reason: 'ship it?',
    });
    expect(gate).toMatchObject({ type: 'Gate', state: 'OPEN' });
  }, 60_000);
});

describe('the guards a todo names', () => {
  it('create_todo with repository and write scope, set_dependencies, set_capabilities, record_merged_pr', async () => {
    const { sessions } = await teamWithSessions(['a'], ['--no-channel']);
    const a = sessions[0]!;
    const row = async (id: string) =>
      (await a.ok('frontier')).rows.find((r: any) => r.todo.id === id);

    const writes = await a.ok('create_todo', {
      title: 'fix login',
      class: 'blocker',
      repository: 'git@github.com:Acme/web.git',
      write_scope: ['src/auth/**'],
    });
    expect(writes).toMatchObject({
      type: 'Todo',
      taskClass: 'BLOCKER',
      taskRepository: 'git:github.com/Acme/web',
      writeScope: ['src/auth/**'],
    });
    const then = await a.ok('create_todo', { title: 'deploy', depends_on: [writes.id] });
    expect(then).toMatchObject({ type: 'Todo', dependsOn: [writes.id] });
    // a cycle is input the gateway refuses: an isError result the agent can read
    const cycle = await a.call('set_dependencies', { todo: writes.id, depends_on: [then.id] });
    expect(cycle.isError).toBe(true);
    expect(textOf(cycle)).toMatch(/cycle/i);
    expect(await a.ok('set_dependencies', { todo: then.id, depends_on: [] })).toMatchObject({
      type: 'Todo',
      dependsOn: [],
    });
    expect(await a.ok('set_dependencies', { todo: 'no-such-todo', depends_on: [] })).toMatchObject({
      type: 'UnknownTodo',
    });

    const gpu = await gw.t.ok(CreateTodoDocument, {
      input: {
        goalId: writes.goalId,
        title: 'train',
        taskClass: 'ADVANCEMENT_TASK',
        requiredCapability: 'gpu',
      },
    });
    expect((await row(gpu.createTodo.id)).guards.map((g: any) => g.kind)).toEqual(['CAPABILITY']);
    expect(await a.ok('set_capabilities', { capabilities: ['gpu'] })).toMatchObject({
      type: 'AgentCapabilities',
      capabilities: ['gpu'],
    });
    expect(await row(gpu.createTodo.id)).toMatchObject({ runnable: true, guards: [] });

    const waiting = await gw.t.ok(CreateTodoDocument, {
      input: {
        goalId: writes.goalId,
        title: 'after merge',
        taskClass: 'ADVANCEMENT_TASK',
        resumeWhen: ['pr_merged:acme/web#7'],
      },
    });
    const merged = await a.ok('record_merged_pr', {
      repository: 'https://github.com/acme/web',
      number: '7',
    });
    expect(merged).toMatchObject({
      type: 'ExternalEvent',
      replayed: false,
      waitingTodoIds: [waiting.createTodo.id],
      fact: { repository: 'git:github.com/acme/web', ref: '7' },
    });
    expect(await row(waiting.createTodo.id)).toMatchObject({ runnable: true, guards: [] });
    expect(
      (await a.ok('record_merged_pr', { repository: 'git:github.com/acme/web', number: '#7' }))
        .replayed,
    ).toBe(true);
  }, 60_000);
});

describe('handoffs, workspaces, replan obligations, goal closure', () => {
  it('declare_workspace, handoff_todo, handoff_packet, replan_owed, goal_closure, close_goal, with typed refusals', async () => {
    const { goalId, peers, sessions } = await teamWithSessions(['a', 'b']);
    const [a, b] = [sessions[0]!, sessions[1]!];
    const steward = (await issueCredential(gw.t, { kind: 'STEWARD', goalIds: [goalId] })).token;
    const s = await connect(asCaller(gw.url, steward, goalId), 'admin');
    const todo = await createTodo(goalId, 'port the frontier');
    expect(await a.ok('claim_todo', { todo })).toMatchObject({ type: 'ClaimedTodo' });

    expect(
      await a.ok('declare_workspace', {
        repository: 'git:github.com/acme/app',
        worktree: 'LINKED',
        revision: 'abcdef1234',
      }),
    ).toMatchObject({ type: 'AgentWorkspace', workspace: { worktree: 'LINKED' } });
    const packet = { next_action: 'finish it', validation: 'tests pass', stop_condition: 'done' };
    expect(await a.ok('handoff_todo', { todo, to: 'nobody', ...packet })).toMatchObject({
      type: 'HandoffRefused',
      refusal: 'UNKNOWN_RECEIVER',
    });
    const handed = await a.ok('handoff_todo', { todo, to: peers[1]!.agentId, ...packet });
    expect(handed).toMatchObject({ type: 'Handoff', receiver: peers[1]!.agentId });
    const read = await b.ok('handoff_packet', { handoff: handed.id });
    expect(read).toMatchObject({ type: 'HandoffRead', readFor: peers[1]!.agentId, runnable: true });
    expect(await b.ok('handoff_packet', { handoff: 'hof_missing' })).toMatchObject({
      type: 'UnknownHandoff',
    });
    const owed = await b.ok('replan_owed');
    expect(owed.type).toBe('ReplanObligations');
    expect(owed.obligations.map((o: any) => o.kind)).toContain('HANDOFF_RECEIVED');
    expect(owed.requiredReads[0].command).toBe(
      `switchboard evidence-log --agent ${peers[1]!.agentId} --limit 30`,
    );
    const closure = await a.ok('goal_closure');
    expect(closure).toMatchObject({ type: 'GoalClosure', closable: false });
    const refused = await s.ok('close_goal', { acceptance_refs: ['ci/ok.txt'], reason: 'done' });
    expect(refused.type).toBe('GoalClosureRefused');
    expect(refused.reasons.map((r: any) => r.kind)).toContain('LIVE_ADVANCEMENT_TODO');
    // a PEER may not close a goal: the gateway's FORBIDDEN is an isError result
    const forbidden = await a.call('close_goal', { acceptance_refs: ['ci/ok.txt'], reason: 'x' });
    expect(forbidden.isError).toBe(true);
  }, 60_000);
});

describe('ledger and the replan prompt', () => {
  it('record_event, evidence_log; the prompt cites a digest replan_checkpoint accepts', async () => {
    const { sessions } = await teamWithSessions(['a', 'b']);
    const a = sessions[0]!;
    expect(
      await a.ok('record_event', {
        kind: 'VALIDATION',
        summary: 'unit tests pass',
        status: 'passed',
        evidence: ['test/x.test.ts'],
      }),
    ).toMatchObject({ type: 'LedgerEvent', eventKind: 'VALIDATION' });
    const log = await a.ok('evidence_log');
    expect(log.type).toBe('EvidenceLedger');
    expect(log.events.map((e: any) => e.summary)).toContain('unit tests pass');

    const { prompts } = await a.client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['replan']);
    const prompt = await a.client.getPrompt({ name: 'replan', arguments: {} });
    const text = (prompt.messages[0]!.content as { text: string }).text;
    const digest = /Ledger digest: (\S+)/.exec(text)?.[1];
    expect(digest).toBe(log.digest);
    expect(text).toContain('replan_checkpoint');
    expect(text).toContain('close_no_follow_up');

    expect(
      await a.ok('replan_checkpoint', {
        digest: `sha256:${'0'.repeat(64)}`,
        kind: 'PRESERVED',
        summary: 's',
      }),
    ).toMatchObject({ type: 'LedgerDigestMismatch' });
    const checkpoint = await a.ok('replan_checkpoint', {
      digest,
      kind: 'PATCHED',
      summary: 'tests pass: move on to docs',
      role_scope: 'docs',
      vision: 'docs next',
      acceptance: 'README covers setup',
      replan_trigger: 'tests fail again',
    });
    expect(checkpoint).toMatchObject({ type: 'ReplanCheckpoint', event: { citedDigest: digest } });
  }, 60_000);
});

/** The JSON-RPC error a request was answered with: its code and the message as the client reads it. */
async function rpcError(request: Promise<unknown>): Promise<{ code: number; message: string }> {
  const error = await request.then(
    () => {
      throw new Error('answered without an error');
    },
    (e: { code: number; message: string }) => e,
  );
  // the client puts "MCP error <code>: " in front once; the server's own text never repeats it
  expect(error.message.match(/MCP error/g)).toHaveLength(1);
  return { code: error.code, message: error.message };
}

describe('resources, completion and error codes', () => {
  it('resources and templates read; unknown URIs are -32002; completion offers todo, goal and agent ids in scope', async () => {
    const { goalId, peers, sessions } = await teamWithSessions(['alpha', 'beta']);
    const other = await team(gw.t, ['x']);
    const a = sessions[0]!;
    const t1 = await createTodo(goalId, 'first');
    const t2 = await createTodo(goalId, 'second');

    const { resources } = await a.client.listResources();
    expect(resources.map((r) => r.uri).sort()).toEqual([
      'switchboard://directory',
      'switchboard://inbox',
    ]);
    const { resourceTemplates } = await a.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual([
      'switchboard://agents/{agent}/ledger',
      'switchboard://goals/{goal}/directory',
    ]);
    const read = async (uri: string) =>
      JSON.parse(((await a.client.readResource({ uri })).contents[0] as { text: string }).text);
    expect((await read(`switchboard://goals/${goalId}/directory`)).goalId).toBe(goalId);
    // another goal reads as a scope gap, the same as a goal that does not exist
    const outside = await read(`switchboard://goals/${other.goalId}/directory`);
    const missing = await read('switchboard://goals/no-such-goal/directory');
    expect(outside.scopeGap).toBeTruthy();
    expect(outside.scopeGap.reason).toBe(missing.scopeGap.reason);
    expect((await read(`switchboard://agents/${peers[0]!.agentId}/ledger`)).digest).toMatch(
      /^sha256:/,
    );

    expect(await rpcError(a.client.readResource({ uri: 'switchboard://nope' }))).toEqual({
      code: -32002,
      message: 'MCP error -32002: Resource not found: switchboard://nope',
    });
    expect(await rpcError(a.client.subscribeResource({ uri: 'switchboard://nope' }))).toEqual({
      code: -32002,
      message: 'MCP error -32002: Resource not found: switchboard://nope',
    });
    expect(
      (
        await rpcError(
          a.client.subscribeResource({ uri: `switchboard://goals/${goalId}/directory` }),
        )
      ).code,
    ).toBe(-32602);
    expect(await rpcError(a.client.getPrompt({ name: 'nope' }))).toMatchObject({ code: -32602 });

    const complete = async (
      ref: { type: 'ref/prompt'; name: string } | { type: 'ref/resource'; uri: string },
      name: string,
      value: string,
    ) => (await a.client.complete({ ref, argument: { name, value } })).completion;
    const todos = await complete({ type: 'ref/prompt', name: 'replan' }, 'todo', '');
    expect(todos.values).toEqual(expect.arrayContaining([t1, t2]));
    expect((await complete({ type: 'ref/prompt', name: 'replan' }, 'todo', t1)).values).toEqual([
      t1,
    ]);
    const goals = await complete(
      { type: 'ref/resource', uri: 'switchboard://goals/{goal}/directory' },
      'goal',
      '',
    );
    expect(goals.values).toEqual([goalId]);
    const agents = await complete(
      { type: 'ref/resource', uri: 'switchboard://agents/{agent}/ledger' },
      'agent',
      peers[1]!.agentId.slice(0, 4).toUpperCase(),
    );
    expect(agents.values[0]).toBe(peers[1]!.agentId);
    expect(agents.values).not.toContain(other.peers[0]!.agentId);
    expect(await complete({ type: 'ref/prompt', name: 'replan' }, 'no_such_argument', '')).toEqual({
      values: [],
      total: 0,
      hasMore: false,
    });
    expect(
      await rpcError(
        a.client.complete({
          ref: { type: 'ref/prompt', name: 'nope' },
          argument: { name: 'x', value: '' },
        }),
      ),
    ).toMatchObject({ code: -32602 });
  }, 60_000);

  it('enum arguments take either case; the schema lists the values the gateway accepts', async () => {
    const { peers, sessions } = await teamWithSessions(['a', 'b'], ['--no-channel']);
    const a = sessions[0]!;
    const sent = await a.ok('send', {
      to: peers[1]!.agentId,
      subject: 's',
      body: 'b',
      kind: 'context',
    });
    expect(sent).toMatchObject({ type: 'Delivery', kind: 'CONTEXT' });
    const waited = await a.ok('wait', {
      agents: ['nobody-here'],
      until: ['done', 'Idle'],
      timeout_seconds: 5,
    });
    expect(waited.type).toBe('UnknownAgent');
    const bad = await a.call('wait', { agents: ['x'], until: ['finished'], timeout_seconds: 5 });
    expect(bad.isError).toBe(true);
    expect(textOf(bad)).toContain('DONE');
    const { tools } = await a.client.listTools();
    const kind = tools.find((t) => t.name === 'send')?.inputSchema.properties?.kind as {
      enum?: string[];
    };
    expect(kind.enum).toEqual(['CONTEXT', 'REQUEST']);
  }, 60_000);
});

describe('failures', () => {
  it('bad arguments and transport failures are isError results with a message to act on', async () => {
    const { sessions } = await teamWithSessions(['a']);
    const a = sessions[0]!;
    const noAgents = await a.call('wait', { agents: [], timeout_seconds: 5 });
    expect(noAgents.isError).toBe(true);
    expect(textOf(noAgents)).toContain('agents');
    const noSubject = await a.call('send', { body: 'b' });
    expect(noSubject.isError).toBe(true);
    expect(textOf(noSubject)).toContain('subject');
    const badDigest = await a.call('replan_checkpoint', {
      digest: 'not-a-digest',
      kind: 'PRESERVED',
      summary: 's',
    });
    expect(badDigest.isError).toBe(true);
    expect(textOf(badDigest)).toContain('sha256');
    const tooLong = await a.call('wait', { agents: ['x'], timeout_seconds: 99_999 });
    expect(tooLong.isError).toBe(true);
    // a tool that does not exist is a protocol error, not a tool result
    expect(await rpcError(a.client.callTool({ name: 'dance', arguments: {} }))).toEqual({
      code: -32602,
      message: 'MCP error -32602: Unknown tool: dance',
    });

    const unreachable = await connect({
      SWITCHBOARD_URL: 'http://127.0.0.1:9/graphql',
      SWITCHBOARD_TOKEN: 'secret-token-xyz',
    });
    const down = await unreachable.call('whoami');
    expect(down.isError).toBe(true);
    expect(textOf(down)).toContain('cannot reach the gateway at http://127.0.0.1:9/graphql');
    const badToken = await connect({
      SWITCHBOARD_URL: gw.url,
      SWITCHBOARD_TOKEN: 'secret-token-xyz',
    });
    const refused = await badToken.call('directory');
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('SWITCHBOARD_TOKEN');
    expect(textOf(refused) + badToken.stderr()).not.toContain('secret-token-xyz');
    // still serving after failures
    expect((await a.call('whoami')).isError).toBeFalsy();

    const usage = await runCli(['mcp', '--tools', 'core,bogus'], {
      env: { SWITCHBOARD_URL: gw.url },
    });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('unknown toolset bogus');
    expect(usage.stdout).toBe('');
  }, 60_000);
});

describe('the stdio transport answers every line', () => {
  it('a line that is not JSON gets -32700, JSON that is not JSON-RPC -32600, a message over 10 MB -32600; the server lives on and the SDK client works after', async () => {
    const { goalId, peers } = await team(gw.t, ['a']);
    const child = spawn(process.execPath, [BIN, 'mcp'], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: tempHome(),
        ...asCaller(gw.url, peers[0]!.token, goalId),
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const answers: Record<string, any>[] = [];
    let pending = '';
    const onData = (chunk: Buffer) => {
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) answers.push(JSON.parse(line));
    };
    child.stdout.on('data', onData);
    try {
      child.stdin.write('this is not json\n');
      child.stdin.write('{"jsonrpc":"2.0","id":7}\n');
      child.stdin.write('[]\n');
      child.stdin.write('{"jsonrpc":"1.0","id":"a","method":"ping"}\n');
      // Over the bound, written in pieces as a pipe delivers it; then a request that must work.
      const big = `{"jsonrpc":"2.0","id":8,"method":"ping","params":{"pad":"${'x'.repeat(MAX_MESSAGE_BYTES)}"}}\n`;
      for (let i = 0; i < big.length; i += 1 << 20) child.stdin.write(big.slice(i, i + (1 << 20)));
      child.stdin.write('{"jsonrpc":"2.0","id":9,"method":"ping"}\n');
      await eventually(() => (answers.length >= 6 ? true : undefined), 'six answers', 15_000);
      const parse = { code: -32700, message: expect.stringContaining('Parse error') };
      const invalid = { code: -32600, message: expect.stringContaining('Invalid Request') };
      expect(answers).toEqual([
        { jsonrpc: '2.0', id: null, error: parse },
        { jsonrpc: '2.0', id: 7, error: invalid },
        { jsonrpc: '2.0', id: null, error: invalid },
        { jsonrpc: '2.0', id: 'a', error: invalid },
        {
          jsonrpc: '2.0',
          id: null,
          error: { code: -32600, message: expect.stringContaining(`${MAX_MESSAGE_BYTES} bytes`) },
        },
        { jsonrpc: '2.0', id: 9, result: {} },
      ]);
      expect(child.exitCode).toBeNull();
      expect(stderr).toContain('Parse error');

      // The SDK's own client, over the same process's stdio.
      child.stdout.off('data', onData);
      const client = new Client({ name: 'switchboard-test', version: '0' });
      await client.connect(childTransport(child));
      const whoami = (await client.callTool({ name: 'whoami', arguments: {} })) as CallToolResult;
      expect(whoami.isError).toBeFalsy();
      expect(whoami.structuredContent).toMatchObject({ type: 'Caller', kind: 'PEER' });
      await client.close();
    } finally {
      child.kill();
    }
  }, 60_000);
});

/** A client transport over a running child's stdio (the SDK's own spawns a process of its own). */
function childTransport(child: ReturnType<typeof spawn>): Transport {
  const buffer = new ReadBuffer();
  const transport: Transport = {
    async start() {
      child.stdout?.on('data', (chunk: Buffer) => {
        buffer.append(chunk);
        for (let message = buffer.readMessage(); message; message = buffer.readMessage())
          transport.onmessage?.(message as JSONRPCMessage);
      });
    },
    async send(message) {
      child.stdin?.write(serializeMessage(message));
    },
    async close() {
      transport.onclose?.();
    },
  };
  return transport;
}
