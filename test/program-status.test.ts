/**
 * Programs' own status (OSC 7501): the parser on its own, then real tmux — a stand-in agent
 * announcing its state in a bound pane, read from control mode's %output by the real provider,
 * one status authority per target, and what a program that queries for the protocol gets.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ControlClient } from '../src/providers/tmux/connection.ts';
import {
  parseReport,
  programLiveness,
  StatusScanner,
  unescapeOutput,
} from '../src/providers/tmux/program-status.ts';
import { asCaller, eventually, runCli, startGateway, team } from './support/cli.ts';
import { subscribe, wsClient } from './support/harness.ts';
import { requires } from './support/requires.ts';
import {
  type Gw,
  liveness,
  paneEnv,
  presenceOf,
  presenceUntil,
  runInPane,
  runStandin,
  sandbox,
  startProvider,
  type,
} from './support/tmux.ts';

const esc = (text: string) => text.replaceAll('\x1b', '\\033').replaceAll('\x07', '\\007');
const b64 = (text: string) => Buffer.from(text).toString('base64');

describe('reading OSC 7501', () => {
  it('undoes tmux escaping and reads a sequence split across outputs, with either terminator', () => {
    expect(unescapeOutput('a\\033]7501;state=idle\\033\\134b')).toBe(
      'a\x1b]7501;state=idle\x1b\\b',
    );
    const scanner = new StatusScanner();
    expect(scanner.feed('text \\033]75').reports).toEqual([]);
    expect(scanner.feed('01;state=working:app=pi\\007 more').reports).toEqual([
      { state: 'working', app: 'pi' },
    ]);
    expect(scanner.feed(esc('\x1b]7501;state=done\x1b\\')).reports).toEqual([{ state: 'done' }]);
    expect(scanner.feed(esc('\x1b]7501;?\x1b\\\x1b[c'))).toEqual({ reports: [], queries: 1 });
    expect(scanner.feed('plain output').reports).toEqual([]);
  });

  it('keeps blocked with its kind, skips malformed pairs, lets the last duplicate win, and discards what the protocol discards', () => {
    expect(parseReport('state=blocked:kind=permission:app=claude-code')).toEqual({
      state: 'blocked',
      kind: 'permission',
      app: 'claude-code',
    });
    expect(programLiveness({ state: 'blocked', kind: 'question' })).toEqual({
      liveness: 'BLOCKED',
      blockedKind: 'QUESTION',
      explain: 'OSC 7501 blocked(question)',
    });
    expect(programLiveness({ state: 'blocked' })).toMatchObject({ liveness: 'BLOCKED' });
    expect(programLiveness({ state: 'error' })).toMatchObject({ liveness: 'DONE' });
    expect(programLiveness({ state: 'clear' })).toBeUndefined();
    expect(parseReport('state=idle:junk:BAD=1:state=working')).toEqual({ state: 'working' });
    expect(parseReport(`state=done:msg=${b64('All tests pass')}`)).toEqual({
      state: 'done',
      msg: 'All tests pass',
    });
    expect(parseReport('state=sleeping')).toBeUndefined();
    expect(parseReport('app=x')).toBeUndefined();
    expect(parseReport('state=done:msg=abc')).toBeUndefined(); // not base64
    expect(parseReport('state=done:msg=!!')).toEqual({ state: 'done' }); // a malformed pair, skipped
    expect(parseReport(`state=done:msg=${b64('a\x1b[2Jb')}`)).toBeUndefined();
    expect(parseReport('state=working:id=subagent-1')).toBeUndefined(); // a child record
    const scanner = new StatusScanner();
    expect(
      scanner.feed(esc('\x1b]7501;state=blocked\x18\x1b]7501;state=idle\x07')).reports,
    ).toEqual([{ state: 'idle' }]);
  });
});

let gw: Gw;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => {
  await gw?.close();
});
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(extra: string[] = []) {
  const box = sandbox();
  cleanups.push(() => box.cleanup());
  const { goalId, peers } = await team(gw.t, ['a', 'b']);
  const agentId = peers[0]!.agentId;
  const pane = await runStandin(gw, box, goalId, agentId);
  const provider = await startProvider(gw, box, [goalId], extra);
  cleanups.push(() => provider.stop());
  await presenceUntil(gw, goalId, agentId, liveness('IDLE'), 'IDLE from the screen');
  const changes = subscribe(
    wsClient(gw.t.wsUrl, gw.adminToken),
    `subscription($g: ID!, $a: [ID!]) { presenceChanged(goalId: $g, agentIds: $a, after: "0") {
      presence { liveness basis explain blockedKind } } }`,
    { g: goalId, a: [agentId] },
    'presenceChanged',
  );
  cleanups.push(() => changes.dispose());
  const hook = async (value: string) => {
    const { SWITCHBOARD_PANE_KEY } = await paneEnv(box, pane);
    const r = await runCli(['hook', 'report', value], {
      env: { TMUX_PANE: pane, SWITCHBOARD_HOOK_SOCKET: box.hookSock, SWITCHBOARD_PANE_KEY },
    });
    expect(r.code).toBe(0);
  };
  const status = () =>
    eventually(async () => {
      const r = await runCli([
        'provider',
        'tmux',
        '--status',
        '--json',
        '--hook-socket',
        box.hookSock,
      ]);
      return r.json().panes.find((p: any) => p.paneId === pane);
    }, 'the pane status');
  return { box, goalId, peers, agentId, pane, changes, hook, status };
}

requires('tmux')('programs announce their own state (OSC 7501)', { timeout: 60_000 }, () => {
  it('blocked(permission) printed in a pane reads BLOCKED on the stream, and a delivery to it is refused AGENT_BLOCKED before any byte is written', async () => {
    const { box, goalId, peers, agentId, pane, changes } = await setup();
    // How fast is bench:presence-accuracy's to measure; here, that it arrives, from the program.
    await type(box, pane, 'osc blocked permission');
    await eventually(
      () => changes.items.find((c) => c.presence?.liveness === 'BLOCKED'),
      'BLOCKED on the stream',
    );
    expect(await presenceOf(gw, goalId, agentId)).toMatchObject({
      liveness: 'BLOCKED',
      basis: 'PROGRAM_STATUS',
      explain: 'OSC 7501 blocked(permission) from standin',
      blockedKind: 'PERMISSION',
    });
    const before = await box.tmux('capture-pane', '-p', '-t', pane);
    const send = await runCli(
      ['send', '--to', agentId, '--subject', 'hi', '--body', 'are you there', '--json'],
      { env: asCaller(gw.url, peers[1]!.token, goalId) },
    );
    expect(send.code).toBe(5);
    expect(send.json()).toMatchObject({ __typename: 'DeliveryRefused', reason: 'AGENT_BLOCKED' });
    expect(await box.tmux('capture-pane', '-p', '-t', pane)).toBe(before);
    // The program says it moved on: the program, not the screen, says so.
    await type(box, pane, 'osc idle');
    const idle = await presenceUntil(gw, goalId, agentId, liveness('IDLE'), 'IDLE again');
    expect(idle).toMatchObject({ basis: 'PROGRAM_STATUS', blockedKind: null });
    // It stops reporting (state=clear): the screen decides again.
    await type(box, pane, 'osc clear');
    await presenceUntil(
      gw,
      goalId,
      agentId,
      (p) => p?.basis === 'PROVIDER_DETECTION',
      'the screen deciding after clear',
    );
  });

  it('hooks and OSC 7501 for one pane: one authority at a time, named in basis and explain', async () => {
    const { box, goalId, agentId, pane, changes, hook, status } = await setup();
    await type(box, pane, 'osc working');
    await presenceUntil(
      gw,
      goalId,
      agentId,
      (p) => p?.basis === 'PROGRAM_STATUS',
      'the program decides',
    );
    await hook('done');
    expect(await presenceOf(gw, goalId, agentId)).toMatchObject({
      liveness: 'DONE',
      basis: 'LIFECYCLE_HOOK',
      explain: 'hook: report done',
    });
    const heard = changes.items.length;
    // The program's later word is heard, and does not decide while the hooks report.
    await type(box, pane, 'osc blocked question');
    await eventually(async () => {
      const p = await status();
      return p.program === 'OSC 7501 blocked(question) from standin' && p.screen ? p : undefined;
    }, 'the provider hearing the program');
    expect(await presenceOf(gw, goalId, agentId)).toMatchObject({
      liveness: 'DONE',
      basis: 'LIFECYCLE_HOOK',
    });
    expect(changes.items.slice(heard).map((c) => c.presence?.basis)).not.toContain(
      'PROGRAM_STATUS',
    );
    // Never two at once: every change on the stream names one source.
    const bases = changes.items.map((c) => c.presence?.basis);
    expect(bases).toEqual(['PROVIDER_DETECTION', 'PROGRAM_STATUS', 'LIFECYCLE_HOOK']);
  });

  it('a source that goes quiet while the pane keeps writing hands over after the declared time', async () => {
    const { box, goalId, agentId, pane, hook } = await setup(['--quiet-after', '300ms']);
    await hook('working');
    expect((await presenceOf(gw, goalId, agentId)).basis).toBe('LIFECYCLE_HOOK');
    // The hooks say nothing more while the agent works on (its task writes for ~900 ms, all of
    // it after the hook's word, so past the 300 ms) and settles at its prompt.
    await type(box, pane, 'a long task');
    const screen = await presenceUntil(
      gw,
      goalId,
      agentId,
      (p) => p?.basis === 'PROVIDER_DETECTION' && p.liveness === 'DONE',
      'the screen deciding once the hooks went quiet',
    );
    expect(screen.explain).toContain('(the hooks and OSC 7501 quiet)');
    // The hooks speak again: they decide again.
    await hook('idle');
    expect(await presenceOf(gw, goalId, agentId)).toMatchObject({
      liveness: 'IDLE',
      basis: 'LIFECYCLE_HOOK',
    });
  });

  it('a recorded byte stream replayed into a real pane is read as the live program was (the seam for recorded sessions)', async () => {
    const box = sandbox();
    cleanups.push(() => box.cleanup());
    const { goalId, peers } = await team(gw.t, ['a']);
    const agentId = peers[0]!.agentId;
    const recording = 'test/fixtures/recordings/osc-blocked.jsonl';
    const pane = await runInPane(
      gw,
      box,
      goalId,
      agentId,
      ['node', 'test/fixtures/replay.mjs', recording, '--on-enter'],
      'standin',
    );
    const provider = await startProvider(gw, box, [goalId]);
    cleanups.push(() => provider.stop());
    await presenceUntil(gw, goalId, agentId, (p) => p !== null, 'the pane seen');
    const changes = subscribe(
      wsClient(gw.t.wsUrl, gw.adminToken),
      `subscription($g: ID!, $a: [ID!]) { presenceChanged(goalId: $g, agentIds: $a, after: "0") {
        presence { liveness basis blockedKind } } }`,
      { g: goalId, a: [agentId] },
      'presenceChanged',
    );
    cleanups.push(() => changes.dispose());
    await box.tmux('send-keys', '-t', pane, 'Enter');
    await eventually(
      () => (changes.items.some((c) => c.presence?.liveness === 'BLOCKED') ? true : undefined),
      'BLOCKED at the replayed question, on the stream',
      10_000,
    );
    const programs = changes.items
      .map((c) => c.presence)
      .filter((p) => p?.basis === 'PROGRAM_STATUS')
      .map((p) => `${p.liveness}${p.blockedKind ? `(${p.blockedKind})` : ''}`);
    expect(programs).toEqual(['WORKING', 'BLOCKED(PERMISSION)']);
  });

  it("a program that queries gets tmux's DA1 reply first: an answer sent through tmux as soon as the query shows in %output comes too late", async () => {
    const box = sandbox();
    cleanups.push(() => box.cleanup());
    await box.tmux('new-session', '-d', '-s', 'q', '-x', '120', '-y', '20', 'sleep', '30');
    let answered = false;
    const scanner = new StatusScanner();
    const control: ControlClient = new ControlClient({ socketPath: box.sock }, 'q', {
      output: (paneId, data) => {
        // The fastest answer a provider can give: on the %output that carries the query.
        if (!answered && scanner.feed(data).queries > 0) {
          answered = true;
          void control.command(`send-keys -H -t ${paneId} 1b 5d 37 35 30 31 3b 3f 1b 5c`);
        }
      },
      changed: () => {},
      exit: () => {},
    });
    cleanups.push(() => control.close());
    await control.command('display-message -p ok');
    const pane = (
      await box.tmux(
        'new-window',
        '-d',
        '-P',
        '-F',
        '#{pane_id}',
        '-t',
        'q:',
        'node',
        'test/fixtures/osc-query.mjs',
      )
    ).trim();
    const line = await eventually(async () => {
      const text = await box.tmux('capture-pane', '-p', '-t', pane);
      return /first reply: .*/.exec(text)?.[0];
    }, 'the program reporting its replies');
    expect(answered).toBe(true);
    expect(line).toMatch(/^first reply: DA1; replies: "ESC\[\?1;2c(ESC\]7501;\?ESC\\\\)?"/);
  });
});
