/**
 * Lifecycle hooks end to end: Claude Code's documented hook payloads (test/fixtures/claude-code)
 * fed to the bundled `switchboard hook claude-code` in a real tmux pane's environment, reaching
 * the running tmux provider through its socket; presence read back from the gateway, and the
 * Stop hook's decision output (a message, no message, agent blocked, never the same one twice).
 */
import { readFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DeliveryDocument } from '../src/client/generated/graphql.ts';
import { askProvider, HOOK_IDLE_MS } from '../src/providers/tmux/hooks.ts';
import { asCaller, BIN, runCli, startGateway, team, tempHome } from './support/cli.ts';
import { requires } from './support/requires.ts';
import {
  type Gw,
  liveness,
  paneEnv,
  presenceOf,
  presenceUntil,
  runStandin,
  sandbox,
  startProvider,
} from './support/tmux.ts';

const payload = (name: string) =>
  readFileSync(path.resolve('test/fixtures/claude-code', `${name}.json`), 'utf8');

let gw: Gw;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => {
  await gw?.close();
});

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup() {
  const box = sandbox();
  cleanups.push(() => box.cleanup());
  const { goalId, peers } = await team(gw.t, ['a', 'b']);
  const agent = peers[0]!;
  const pane = await runStandin(gw, box, goalId, agent.agentId);
  const provider = await startProvider(gw, box, [goalId]);
  cleanups.push(() => provider.stop());
  await presenceUntil(gw, goalId, agent.agentId, liveness('IDLE'), 'screen detection first');
  const { SWITCHBOARD_PANE_KEY } = await paneEnv(box, pane);
  /** Runs `switchboard hook <args>` as the agent's hook would run, in its pane's environment. */
  const hook = (args: string[], input = '') =>
    runCli(['hook', ...args], {
      input,
      env: {
        ...asCaller(gw.url, agent.token, goalId),
        TMUX_PANE: pane,
        SWITCHBOARD_HOOK_SOCKET: box.hookSock,
        SWITCHBOARD_PANE_KEY,
      },
    });
  const claude = (name: string) => hook(['claude-code'], payload(name));
  return { box, goalId, peers, agent, pane, hook, claude, provider };
}

/** The provider's view of the pane (through its socket), once `test` holds. */
async function paneStatus(socket: string, pane: string, test: (p: any) => boolean) {
  for (const deadline = Date.now() + 15_000; Date.now() < deadline; ) {
    const answer = await askProvider(socket, { op: 'status' });
    const p = answer.ok ? answer.status?.panes.find((x) => x.paneId === pane) : undefined;
    if (p && test(p)) return p;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`pane ${pane} never reached the expected notice state`);
}

async function send(goalId: string, fromToken: string, to: string, body: string) {
  const r = await runCli(['send', '--to', to, '--subject', 'next step', '--body', body, '--json'], {
    env: asCaller(gw.url, fromToken, goalId),
  });
  expect(r.code).toBe(0);
  return r.json();
}

requires('tmux')('switchboard hook claude-code', { timeout: 60_000 }, () => {
  it('maps SessionStart, UserPromptSubmit, PreToolUse, Notification, Stop, SessionEnd to presence with basis LIFECYCLE_HOOK', async () => {
    const { goalId, agent, claude } = await setup();
    const id = agent.agentId;
    const start = await claude('SessionStart');
    expect(start.code).toBe(0);
    expect(start.stdout).toBe(''); // no unread messages: nothing added to the context
    const idle = await presenceUntil(
      gw,
      goalId,
      id,
      (p) => p?.basis === 'LIFECYCLE_HOOK',
      'hook basis',
    );
    expect(idle.liveness).toBe('IDLE');

    expect((await claude('UserPromptSubmit')).code).toBe(0);
    expect(await presenceOf(gw, goalId, id)).toMatchObject({
      liveness: 'WORKING',
      basis: 'LIFECYCLE_HOOK',
    });
    expect((await claude('PreToolUse')).code).toBe(0);
    expect((await presenceOf(gw, goalId, id)).liveness).toBe('WORKING');

    expect((await claude('Notification-idle')).code).toBe(0);
    expect((await presenceOf(gw, goalId, id)).liveness).toBe('IDLE'); // a reminder, not a question
    expect((await claude('Notification')).code).toBe(0);
    expect(await presenceOf(gw, goalId, id)).toMatchObject({
      liveness: 'BLOCKED',
      blockedKind: 'PERMISSION',
      explain: 'hook: Notification',
    });

    await claude('PreToolUse');
    const stop = await claude('Stop');
    expect(stop.code).toBe(0);
    expect(stop.stdout).toBe(''); // no message: Claude may stop
    expect(await presenceOf(gw, goalId, id)).toMatchObject({
      liveness: 'DONE',
      basis: 'LIFECYCLE_HOOK',
    });

    const end = await claude('SessionEnd');
    expect(end.code).toBe(0);
    await presenceUntil(gw, goalId, id, (p) => p === null || p.endedAt !== null, 'presence ended');
  });

  it('Stop hands over the next message with decision: block, once; never while BLOCKED', async () => {
    const { goalId, peers, agent, claude, pane } = await setup();
    const id = agent.agentId;
    await claude('SessionStart');
    await claude('UserPromptSubmit');
    const sent = await send(goalId, peers[1]!.token, id, 'please also update the changelog');

    // At a permission prompt: the message stays in the inbox.
    await claude('Notification');
    const blocked = await claude('Stop');
    expect(blocked.code).toBe(0);
    expect(blocked.stdout).toBe('');
    expect(blocked.stderr).toContain('BLOCKED');
    expect((await presenceOf(gw, goalId, id)).liveness).toBe('BLOCKED');
    const none = await gw.t.ok(DeliveryDocument, { id: sent.id }, peers[1]!.token);
    expect(none.delivery.receipt.notices).toEqual([]);

    await claude('PreToolUse');
    const stop = await claude('Stop');
    expect(stop.code).toBe(0);
    const decision = JSON.parse(stop.stdout);
    expect(decision.decision).toBe('block');
    expect(decision.reason).toContain('please also update the changelog');
    expect(decision.reason).toMatch(/switchboard resolve \S+/);
    expect((await presenceOf(gw, goalId, id)).liveness).toBe('WORKING'); // it carries on

    // The hand-over is a receipt the sender sees, recorded through the provider's socket.
    const { delivery } = await gw.t.ok(
      `query($id: ID!) { delivery(id: $id) { ... on Delivery { outcome
        receipt { notifiedAt readAt notices { via providerSessionRef text } } } } }`,
      { id: sent.id },
      peers[1]!.token,
    );
    expect(delivery.receipt.notifiedAt).not.toBeNull();
    expect(delivery.receipt.notices).toEqual([
      {
        via: 'LIFECYCLE_HOOK',
        providerSessionRef: pane,
        text: 'handed over by the Stop hook (decision: block)',
      },
    ]);

    // The same message is never handed over twice: the next Stop lets Claude stop.
    const again = await claude('Stop');
    expect(again.stdout).toBe('');
    expect(again.stderr).toContain('still active');
    expect((await presenceOf(gw, goalId, id)).liveness).toBe('DONE');
  });

  it('SessionStart and UserPromptSubmit add "N unread messages" as context', async () => {
    const { goalId, peers, agent, claude } = await setup();
    await send(goalId, peers[1]!.token, agent.agentId, 'one');
    await send(goalId, peers[1]!.token, agent.agentId, 'two');
    const start = await claude('SessionStart');
    expect(JSON.parse(start.stdout)).toEqual({
      hookSpecificOutput: {
        hookEventName: 'SessionStart',
        additionalContext: '2 unread messages — `switchboard next`',
      },
    });
    const prompt = await claude('UserPromptSubmit');
    expect(JSON.parse(prompt.stdout).hookSpecificOutput.hookEventName).toBe('UserPromptSubmit');
  });

  it('hooks are the authority: screen detection no longer reports for that occupant', async () => {
    const { goalId, agent, claude, box, pane } = await setup();
    await claude('UserPromptSubmit');
    await box.tmux('send-keys', '-t', pane, 'work', 'Enter');
    const status = await (async () => {
      for (const deadline = Date.now() + 10_000; Date.now() < deadline; ) {
        const r = await runCli([
          'provider',
          'tmux',
          '--status',
          '--json',
          '--hook-socket',
          box.hookSock,
        ]);
        const p = r.json().panes.find((x: any) => x.paneId === pane);
        if (p?.screen?.startsWith('settled prompt')) return p;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error('the screen never settled');
    })();
    expect(status.basis).toBe('LIFECYCLE_HOOK');
    expect(await presenceOf(gw, goalId, agent.agentId)).toMatchObject({
      liveness: 'WORKING',
      basis: 'LIFECYCLE_HOOK',
    });
  });

  it('a pane whose hooks report never gets a typed notice: one status authority per target', async () => {
    const { goalId, peers, agent, claude, box, pane } = await setup();
    await claude('SessionStart');
    const before = await paneStatus(box.hookSock, pane, () => true);
    const sent = await send(goalId, peers[1]!.token, agent.agentId, 'a message for the hooks');
    // The provider looks at the settled pane again and declines: its hooks hand messages over.
    const decided = await paneStatus(
      box.hookSock,
      pane,
      (p) => p.noticeChecks > before.noticeChecks && /hooks/.test(p.notice ?? ''),
    );
    expect(decided).toMatchObject({ basis: 'LIFECYCLE_HOOK', liveness: 'IDLE' });
    expect(await box.tmux('capture-pane', '-p', '-t', pane)).not.toContain('unread message');
    const { delivery } = await gw.t.ok(DeliveryDocument, { id: sent.id }, peers[1]!.token);
    expect(delivery.receipt.notices).toEqual([]);
  });

  it('codex notify and `hook report` reach the provider; no provider is a note, never a failure', async () => {
    const { goalId, agent, hook } = await setup();
    expect((await hook(['report', 'blocked'])).code).toBe(0);
    expect((await presenceOf(gw, goalId, agent.agentId)).liveness).toBe('BLOCKED');
    const codex = await hook([
      'codex',
      JSON.stringify({ type: 'agent-turn-complete', 'turn-id': '1' }),
    ]);
    expect(codex.code).toBe(0);
    expect((await presenceOf(gw, goalId, agent.agentId)).liveness).toBe('DONE');
    const lost = await runCli(['hook', 'claude-code'], {
      input: payload('PreToolUse'),
      env: { SWITCHBOARD_HOOK_SOCKET: '/nonexistent/sock', TMUX_PANE: '%0' },
    });
    expect(lost.code).toBe(0);
    expect(lost.stderr).toContain('no provider');
  });
});

describe('switchboard hooks install|uninstall claude-code', () => {
  it('writes the hooks idempotently and removes exactly what it wrote', async () => {
    const home = tempHome();
    const file = path.join(home, '.claude', 'settings.json');
    const { mkdirSync, writeFileSync } = await import('node:fs');
    mkdirSync(path.dirname(file), { recursive: true });
    const foreign = {
      model: 'opus',
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }] },
    };
    writeFileSync(file, JSON.stringify(foreign));
    const install = await runCli(['hooks', 'install', 'claude-code', '--user', '--json'], {
      env: { HOME: home },
    });
    expect(install.code).toBe(0);
    expect(install.json().events).toEqual([
      'SessionStart',
      'UserPromptSubmit',
      'PreToolUse',
      'Notification',
      'Stop',
      'SessionEnd',
    ]);
    const written = JSON.parse(readFileSync(file, 'utf8'));
    expect(written.model).toBe('opus');
    expect(written.hooks.Stop).toHaveLength(2);
    expect(written.hooks.PreToolUse[0].hooks[0]).toMatchObject({
      type: 'command',
      command: `${BIN} hook claude-code`,
    });
    const again = await runCli(['hooks', 'install', 'claude-code', '--user', '--json'], {
      env: { HOME: home },
    });
    expect(again.json().events).toEqual([]);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(written);

    const uninstall = await runCli(['hooks', 'uninstall', 'claude-code', '--user'], {
      env: { HOME: home },
    });
    expect(uninstall.code).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(foreign);
  });
});

describe('help', () => {
  it('every presence verb has help with an example', async () => {
    const verbs = [
      'provider tmux',
      'attach',
      'run',
      'hook claude-code',
      'hook codex',
      'hook report',
      'hooks install',
      'hooks uninstall',
    ];
    const missing: string[] = [];
    for (const verb of verbs) {
      const help = await runCli([...verb.split(' '), '--help']);
      if (help.code !== 0 || !/Examples?:\n\s+\$ switchboard/.test(help.stdout)) missing.push(verb);
    }
    expect(missing).toEqual([]);
  }, 60_000);
});

/** One raw line to the hook socket, as any local process could write it; the answer parsed. */
function rawAsk(socketPath: string, line: string): Promise<any> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(socketPath);
    let buffer = '';
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.write(`${line}\n`));
    socket.on('data', (chunk: string) => {
      buffer += chunk;
    });
    socket.on('error', reject);
    socket.on('end', () => resolve(JSON.parse(buffer)));
  });
}

requires('tmux')('hooks prove their pane', { timeout: 60_000 }, () => {
  it('a report, end or notice for another pane, from a pane of the same server or from outside tmux, is refused and changes nothing', async () => {
    const { box, goalId, peers, agent: a, pane: paneA } = await setup();
    const b = peers[1]!;
    const paneB = await runStandin(gw, box, goalId, b.agentId);
    const before = await presenceUntil(gw, goalId, b.agentId, liveness('IDLE'), 'B IDLE');
    const keyA = (await paneEnv(box, paneA)).SWITCHBOARD_PANE_KEY!;
    const keyB = (await paneEnv(box, paneB)).SWITCHBOARD_PANE_KEY!;
    expect(keyA).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(keyB).not.toBe(keyA);
    // The pane option keeps only the occupant's pid and the key's hash, never the key.
    const option = await box.tmux('show-options', '-p', '-v', '-t', paneB, '@switchboard_key');
    expect(option).toMatch(/^\d+:[0-9a-f]{64}\n$/);
    expect(option).not.toContain(keyB);

    const { startWait: wait } = await gw.t.ok(
      `mutation($input: WaitInput!) { startWait(input: $input) { ... on Wait { id } } }`,
      { input: { goalId, agentId: b.agentId, accept: ['DONE'], timeoutMs: 60_000 } },
    );
    const sent = await send(goalId, a.token, b.agentId, 'for B only');

    // From agent A's pane (its own key, B's pane id), from outside tmux (no key, a made-up key).
    const forgeries = [
      { op: 'report', pane: paneB, key: keyA, liveness: 'DONE' },
      { op: 'end', pane: paneB, key: keyA },
      { op: 'notice', pane: paneB, key: keyA, deliveryId: sent.id },
      { op: 'report', pane: paneB, liveness: 'DONE' },
      { op: 'end', pane: paneB },
      { op: 'notice', pane: paneB, deliveryId: sent.id },
      { op: 'report', pane: paneB, key: 'x'.repeat(32), liveness: 'DONE' },
      { op: 'state', pane: paneB, key: keyA },
    ];
    for (const forged of forgeries) {
      const answer = await rawAsk(box.hookSock, JSON.stringify(forged));
      expect(answer, JSON.stringify(forged)).toEqual({
        ok: false,
        error: `refused: the request does not prove it comes from pane ${paneB} (SWITCHBOARD_PANE_KEY)`,
      });
    }
    // The CLI's own verb, run in A's environment with B's pane id, is refused the same way.
    const cli = await runCli(['hook', 'report', 'done'], {
      env: {
        ...asCaller(gw.url, a.token, goalId),
        TMUX_PANE: paneB,
        SWITCHBOARD_HOOK_SOCKET: box.hookSock,
        SWITCHBOARD_PANE_KEY: keyA,
      },
    });
    expect(cli.code).toBe(8);
    expect(cli.stderr).toContain('refused');

    // Nothing changed: B's presence, its authority (the screen), its wait and its receipts.
    expect(await presenceOf(gw, goalId, b.agentId)).toEqual(before);
    const status = await askProvider(box.hookSock, { op: 'status' });
    const bStatus = status.ok ? status.status?.panes.find((p) => p.paneId === paneB) : undefined;
    expect(bStatus).toMatchObject({ basis: 'PROVIDER_DETECTION', liveness: 'IDLE' });
    const { wait: w } = await gw.t.ok(
      `query($id: ID!) { wait(id: $id) { ... on Wait { status } } }`,
      { id: wait.id },
    );
    expect(w.status).toBe('PENDING');
    const { delivery } = await gw.t.ok(
      `query($id: ID!) { delivery(id: $id) { ... on Delivery { receipt { notifiedAt notices { via } } } } }`,
      { id: sent.id },
      a.token,
    );
    // The provider's own signal may come (the stand-in is not an agent it types into); a
    // hook's notice, which only B's key may give, did not.
    expect(delivery.receipt.notifiedAt).toBeNull();
    expect(delivery.receipt.notices.map((n: { via: string }) => n.via)).not.toContain(
      'LIFECYCLE_HOOK',
    );

    // B's own key speaks for B.
    const own = await rawAsk(
      box.hookSock,
      JSON.stringify({ op: 'report', pane: paneB, key: keyB, liveness: 'WORKING' }),
    );
    expect(own).toMatchObject({ ok: true, paneId: paneB, liveness: 'WORKING' });
    expect(await presenceOf(gw, goalId, b.agentId)).toMatchObject({
      liveness: 'WORKING',
      basis: 'LIFECYCLE_HOOK',
    });

    // A new occupant of B's pane does not inherit the key.
    await box.tmux('respawn-pane', '-k', '-t', paneB, 'node', 'test/fixtures/standin-agent.mjs');
    await presenceUntil(
      gw,
      goalId,
      b.agentId,
      (p) => p?.occupantRef && p.occupantRef !== before.occupantRef,
      'the new occupant',
    );
    const stale = await rawAsk(
      box.hookSock,
      JSON.stringify({ op: 'report', pane: paneB, key: keyB, liveness: 'DONE' }),
    );
    expect(stale.ok).toBe(false);
    expect(stale.error).toContain('has no hook key');
  });

  it('a malformed message is refused on its own connection; later reports still arrive', async () => {
    const { box, goalId, agent, pane, hook } = await setup();
    const key = (await paneEnv(box, pane)).SWITCHBOARD_PANE_KEY!;
    const bad: [string, string][] = [
      [
        JSON.stringify({ op: 'report', pane, key, liveness: 'EXPLODED' }),
        'liveness must be one of',
      ],
      ['{"op":"report"', 'not JSON'],
      ['[1,2]', 'not a JSON object'],
      [JSON.stringify({ op: 'explode', pane, key }), 'op must be one of'],
      [JSON.stringify({ op: 'report', pane, key, liveness: 'DONE', x: 1 }), 'unknown field x'],
      [JSON.stringify({ op: 'report', pane: 'pane-1', key, liveness: 'DONE' }), 'pane is not'],
      [
        JSON.stringify({ op: 'report', pane, key, liveness: 'DONE', event: 'a\u001b[2Jb' }),
        'event is not',
      ],
      [JSON.stringify({ op: 'report', pane, key }), 'needs a liveness'],
      [
        JSON.stringify({ op: 'report', pane, key, liveness: 'BLOCKED', blockedKind: 'LUNCH' }),
        'blockedKind must be one of',
      ],
      [
        JSON.stringify({ op: 'report', pane, key, liveness: 'DONE', blockedKind: 'QUESTION' }),
        'blockedKind goes with liveness BLOCKED only',
      ],
      [JSON.stringify({ op: 'notice', pane, key }), 'needs a deliveryId'],
    ];
    for (const [line, error] of bad) {
      const answer = await rawAsk(box.hookSock, line);
      expect(answer.ok, line).toBe(false);
      expect(answer.error, line).toContain(error);
    }
    expect(await presenceOf(gw, goalId, agent.agentId)).toMatchObject({
      liveness: 'IDLE',
      basis: 'PROVIDER_DETECTION',
    });
    // The screen's reports go on, and so do the hooks' own.
    await box.tmux('send-keys', '-t', pane, 'work', 'Enter');
    await presenceUntil(gw, goalId, agent.agentId, liveness('DONE'), 'DONE from the screen');
    expect((await hook(['report', 'blocked'])).code).toBe(0);
    expect(await presenceOf(gw, goalId, agent.agentId)).toMatchObject({
      liveness: 'BLOCKED',
      basis: 'LIFECYCLE_HOOK',
    });
  });

  it('closes a connection that says nothing', async () => {
    const { box } = await setup();
    const socket = createConnection(box.hookSock);
    const started = Date.now();
    const closed = await new Promise<string>((resolve) => {
      let data = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        data += chunk;
      });
      socket.on('error', () => {});
      socket.on('close', () => resolve(data));
    });
    expect(closed).toBe('');
    expect(Date.now() - started).toBeLessThan(HOOK_IDLE_MS + 2000);
  });
});
