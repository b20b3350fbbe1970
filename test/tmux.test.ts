/**
 * The tmux provider end to end: real tmux on a private socket, a stand-in agent program in a
 * pane, the bundled `switchboard provider tmux` / `run` / `attach` / `send`, and a real gateway.
 */
import { hostname } from 'node:os';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  DeliverDocument,
  StartWaitDocument,
  WaitDocument,
} from '../src/client/generated/graphql.ts';
import { askProvider } from '../src/providers/tmux/hooks.ts';
import { noticeText } from '../src/providers/tmux/notices.ts';
import { Patterns } from '../src/providers/tmux/patterns.ts';
import { asCaller, BIN, eventually, runCli, startGateway, team } from './support/cli.ts';
import { subscribe, wsClient } from './support/harness.ts';
import { requires } from './support/requires.ts';
import {
  type Gw,
  liveness,
  presenceOf,
  presenceUntil,
  runInPane,
  runStandin,
  STANDIN,
  sandbox,
  startProvider,
  type,
} from './support/tmux.ts';

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

async function setup(names = ['a', 'b']) {
  const box = sandbox();
  const { goalId, peers } = await team(gw.t, names);
  cleanups.push(() => box.cleanup());
  const pane = await runStandin(gw, box, goalId, peers[0]!.agentId);
  const provider = await startProvider(gw, box, [goalId]);
  cleanups.push(() => provider.stop());
  return { box, goalId, peers, agentId: peers[0]!.agentId, pane, provider };
}

async function startWait(goalId: string, agentId: string, accept: string[], timeoutMs = 15_000) {
  const { startWait } = await gw.t.ok(StartWaitDocument, {
    input: { goalId, agentId, accept, timeoutMs },
  });
  expect(startWait.__typename).toBe('Wait');
  return startWait as { id: string; status: string; pin: { occupantRef: string } };
}

function waitResolved(id: string, timeoutMs = 15_000) {
  return eventually(
    async () => {
      const { wait } = await gw.t.ok(WaitDocument, { id });
      return wait.status === 'PENDING' ? undefined : wait;
    },
    `wait ${id} to resolve`,
    timeoutMs,
  );
}

requires('tmux')('tmux provider', { timeout: 60_000 }, () => {
  it('reports IDLE → WORKING → DONE → BLOCKED from a real pane; a delivery to the gated agent is refused AGENT_BLOCKED', async () => {
    const { box, goalId, peers, agentId, pane } = await setup();
    const idle = await presenceUntil(gw, goalId, agentId, liveness('IDLE'), 'IDLE at the prompt');
    expect(idle).toMatchObject({
      providerSessionRef: pane,
      // Where it runs: the provider declares this machine's host name unless told another.
      host: hostname(),
      basis: 'PROVIDER_DETECTION',
      stale: false,
    });
    expect(idle.occupantRef).toContain(pane);

    await type(box, pane, 'build the parser');
    await presenceUntil(gw, goalId, agentId, liveness('WORKING'), 'WORKING on output');
    await presenceUntil(gw, goalId, agentId, liveness('DONE'), 'DONE back at the prompt');

    await type(box, pane, 'approve');
    await presenceUntil(
      gw,
      goalId,
      agentId,
      liveness('BLOCKED'),
      'BLOCKED at the approval question',
    );
    const send = await runCli(
      ['send', '--to', agentId, '--subject', 'hello', '--body', 'are you there', '--json'],
      { env: asCaller(gw.url, peers[1]!.token, goalId) },
    );
    expect(send.code).toBe(5);
    expect(send.json()).toMatchObject({ __typename: 'DeliveryRefused', reason: 'AGENT_BLOCKED' });

    await type(box, pane, 'y');
    await presenceUntil(
      gw,
      goalId,
      agentId,
      (p) => p?.liveness === 'IDLE' || p?.liveness === 'DONE',
      'back at the prompt after the answer',
    );
  });

  it('prose that mentions approval is never BLOCKED; a half-typed draft stays at the prompt', async () => {
    const { box, goalId, agentId, pane } = await setup(['a']);
    await presenceUntil(gw, goalId, agentId, liveness('IDLE'), 'IDLE');
    await type(box, pane, 'explain why [y/n] prompts need approval');
    await presenceUntil(gw, goalId, agentId, liveness('DONE'), 'DONE after the work');
    await box.tmux('send-keys', '-t', pane, '-l', 'half a dra');
    const status = await eventually(async () => {
      const r = await runCli(
        ['provider', 'tmux', '--status', '--json', '--hook-socket', box.hookSock],
        {},
      );
      const p = r.json().panes.find((x: any) => x.paneId === pane);
      // The status says there is a draft, never what it says.
      expect(r.stdout).not.toContain('half a dra');
      return p?.draft === true ? p : undefined;
    }, 'the draft in the provider status');
    expect(status).toMatchObject({ agentId, liveness: 'DONE', kind: 'standin' });
    expect((await presenceOf(gw, goalId, agentId)).liveness).toBe('DONE');
  });

  it('a message body quoting an approval question, read in the pane, leaves its presence alone', async () => {
    const box = sandbox();
    cleanups.push(() => box.cleanup());
    const { goalId, peers } = await team(gw.t, ['a', 'b']);
    const [recipient, sender] = [peers[0]!, peers[1]!];
    const pane = await runStandin(gw, box, goalId, recipient.agentId, {
      SWITCHBOARD_URL: gw.url,
      SWITCHBOARD_TOKEN: recipient.token,
      SWITCHBOARD_GOAL: goalId,
    });
    const provider = await startProvider(gw, box, [goalId]);
    cleanups.push(() => provider.stop());
    await presenceUntil(gw, goalId, recipient.agentId, liveness('IDLE'), 'IDLE');
    const changes = subscribe(
      wsClient(gw.t.wsUrl, gw.adminToken),
      `subscription($g: ID!, $a: [ID!]) { presenceChanged(goalId: $g, agentIds: $a, after: "0") { presence { liveness } } }`,
      { g: goalId, a: [recipient.agentId] },
      'presenceChanged',
    );
    cleanups.push(async () => changes.dispose());
    const body = [
      'Do you want to proceed?',
      '❯ 1. Yes',
      '  2. No',
      'Allow the stand-in to delete build/? [y/n]',
    ].join('\n');
    const sent = await runCli(
      ['send', '--to', recipient.agentId, '--subject', 'q', '--body', body],
      {
        env: asCaller(gw.url, sender.token, goalId),
      },
    );
    expect(sent.code).toBe(0);
    // The agent reads it with a tool, as it would: the question is on its screen.
    await type(box, pane, `!${process.execPath} ${BIN} next`);
    await eventually(async () => {
      const text = await screen(box, pane);
      return text.includes('delete build/? [y/n]') && /standin>\s*$/.test(text.trimEnd())
        ? true
        : undefined;
    }, 'the body on the screen, the prompt below it');
    await presenceUntil(gw, goalId, recipient.agentId, liveness('DONE'), 'DONE at its prompt');
    const again = await runCli(
      ['send', '--to', recipient.agentId, '--subject', 'r', '--body', 'still there?', '--json'],
      { env: asCaller(gw.url, sender.token, goalId) },
    );
    expect(again.json()).toMatchObject({ __typename: 'Delivery' });
    expect(changes.items.length).toBeGreaterThan(0);
    expect(changes.items.map((c) => c.presence?.liveness)).not.toContain('BLOCKED');
  });

  it('a question answered straight from the prompt ends in DONE, not IDLE: the question was a turn', async () => {
    const { box, goalId, agentId, pane } = await setup();
    await presenceUntil(gw, goalId, agentId, liveness('IDLE'), 'IDLE at the prompt');
    const changes = subscribe(
      wsClient(gw.t.wsUrl, gw.adminToken),
      `subscription($g: ID!, $a: [ID!]) { presenceChanged(goalId: $g, agentIds: $a, after: "0") { presence { liveness } } }`,
      { g: goalId, a: [agentId] },
      'presenceChanged',
    );
    cleanups.push(async () => changes.dispose());
    // The stand-in asks at once, with no work before the question.
    await type(box, pane, 'approve');
    await presenceUntil(gw, goalId, agentId, liveness('BLOCKED'), 'BLOCKED at the question');
    // The answer and its Enter in one write: a typed answer not yet entered is another case.
    await box.tmux('send-keys', '-t', pane, 'y', 'Enter');
    await presenceUntil(gw, goalId, agentId, liveness('DONE'), 'DONE after the answer');
    // A look while the question or the answer's output prints may see it at work first:
    // WORKING between is a reading of it; IDLE after the question never is.
    const seen = changes.items.map((c) => c.presence?.liveness);
    expect(seen[0]).toBe('IDLE');
    expect(seen).toContain('BLOCKED');
    expect(seen.at(-1)).toBe('DONE');
    expect(seen.slice(1)).not.toContain('IDLE');
  });

  it('back at the prompt from a full-screen program is DONE: what ran there was a turn', async () => {
    const box = sandbox();
    cleanups.push(() => box.cleanup());
    const { goalId, peers } = await team(gw.t, ['a']);
    const agentId = peers[0]!.agentId;
    const pane = await runInPane(
      gw,
      box,
      goalId,
      agentId,
      ['env', 'PS1=$ ', 'bash', '--norc', '--noprofile'],
      'generic',
    );
    const provider = await startProvider(gw, box, [goalId]);
    cleanups.push(() => provider.stop());
    await presenceUntil(gw, goalId, agentId, liveness('IDLE'), 'IDLE at the prompt');
    // A pager in its simplest form: the alternate screen, a page, a key to leave.
    await type(
      box,
      pane,
      "printf '\\033[?1049hpage 1 of 3\\n:'; read -rsn1; printf '\\033[?1049l'",
    );
    await presenceUntil(gw, goalId, agentId, liveness('UNKNOWN'), 'UNKNOWN on the full screen');
    await box.tmux('send-keys', '-t', pane, 'q');
    await presenceUntil(gw, goalId, agentId, liveness('DONE'), 'DONE back at the prompt');
  });

  it('a command shorter than a look, in an IDLE or DONE pane, still reports the turn: WORKING, then DONE, and a new excerpt', async () => {
    const { box, goalId, agentId, pane, peers } = await setup();
    await presenceUntil(gw, goalId, agentId, liveness('IDLE'), 'IDLE');
    const changes = subscribe(
      wsClient(gw.t.wsUrl, gw.adminToken),
      `subscription($g: ID!, $a: [ID!]) { presenceChanged(goalId: $g, agentIds: $a, after: "0") { presence { liveness } } }`,
      { g: goalId, a: [agentId] },
      'presenceChanged',
    );
    cleanups.push(async () => changes.dispose());
    const seen = () => changes.items.map((c) => c.presence?.liveness);
    await type(box, pane, '!echo quick-one');
    await eventually(
      () => (seen().join() === 'IDLE,WORKING,DONE' ? true : undefined),
      'IDLE → WORKING → DONE',
      10_000,
    );
    await type(box, pane, '!echo quick-two');
    await eventually(
      () => (seen().join() === 'IDLE,WORKING,DONE,WORKING,DONE' ? true : undefined),
      'DONE → WORKING → DONE',
      10_000,
    );
    const observed: { lines: string[] } = await eventually(async () => {
      const r = await runCli(['observe', agentId, '--source', 'recent', '--lines', '5', '--json'], {
        env: asCaller(gw.url, peers[1]!.token, goalId),
      });
      return r.code === 0 && r.json().lines.some((l: string) => l === 'quick-two')
        ? r.json()
        : undefined;
    }, 'the excerpt after the short command');
    expect(observed.lines.at(-1)).toContain('standin>');
  });

  it('a wait is satisfied by a real transition', async () => {
    const { box, goalId, agentId, pane } = await setup(['a']);
    await presenceUntil(gw, goalId, agentId, liveness('IDLE'), 'IDLE');
    const wait = await startWait(goalId, agentId, ['DONE']);
    expect(wait.status).toBe('PENDING');
    await type(box, pane, 'refactor');
    const resolved = await waitResolved(wait.id);
    expect(resolved).toMatchObject({ status: 'SATISFIED', resolution: { liveness: 'DONE' } });
  });

  it('the pane process exits → endPresence → a pinned wait ends NOT_RUNNING', async () => {
    const { box, goalId, agentId, pane } = await setup(['a']);
    await presenceUntil(gw, goalId, agentId, liveness('IDLE'), 'IDLE');
    const wait = await startWait(goalId, agentId, ['DONE']);
    await type(box, pane, 'exit');
    const resolved = await waitResolved(wait.id);
    expect(resolved).toMatchObject({ status: 'NOT_RUNNING', reason: 'PRESENCE_ENDED' });
  });

  it('the program killed and restarted in the same pane is a new occupant → PINNED_OCCUPANT_REPLACED', async () => {
    const { box, goalId, agentId, pane } = await setup(['a']);
    const first = await presenceUntil(gw, goalId, agentId, liveness('IDLE'), 'IDLE');
    const wait = await startWait(goalId, agentId, ['DONE']);
    expect(wait.pin.occupantRef).toBe(first.occupantRef);
    await box.tmux('respawn-pane', '-k', '-t', pane, 'node', 'test/fixtures/standin-agent.mjs');
    const resolved = await waitResolved(wait.id);
    expect(resolved).toMatchObject({ status: 'NOT_RUNNING', reason: 'PINNED_OCCUPANT_REPLACED' });
    const second = await presenceUntil(
      gw,
      goalId,
      agentId,
      (p) => p?.occupantRef && p.occupantRef !== first.occupantRef,
      'the new occupant',
    );
    expect(second.providerSessionRef).toBe(pane);
  });

  it('observe returns a real capture-pane excerpt with its bound and limits', async () => {
    const { box, goalId, agentId, pane, peers } = await setup();
    await presenceUntil(gw, goalId, agentId, liveness('IDLE'), 'IDLE');
    await type(box, pane, 'print the plan');
    await presenceUntil(gw, goalId, agentId, liveness('DONE'), 'DONE');
    const observe = await eventually(async () => {
      const r = await runCli(['observe', agentId, '--source', 'recent', '--lines', '5', '--json'], {
        env: asCaller(gw.url, peers[1]!.token, goalId),
      });
      const o = r.code === 0 ? r.json() : undefined;
      return o?.lines?.some((l: string) => l.includes('finished')) ? o : undefined;
    }, 'an excerpt with the finished work');
    expect(observe).toMatchObject({ __typename: 'Observation', source: 'RECENT', advisory: true });
    expect(observe.lines.length).toBeLessThanOrEqual(5);
    expect(observe.lines.at(-1)).toContain('standin>');
    expect(observe.limits).toContain('ALTERNATE_SCREEN_NOT_IN_SCROLLBACK');
  });

  it('a pane naming an unregistered agent is listed as such and reported nowhere', async () => {
    const { box, goalId, agentId } = await setup(['a']);
    await presenceUntil(gw, goalId, agentId, liveness('IDLE'), 'IDLE');
    const ghost = (
      await box.tmux(
        'new-window',
        '-d',
        '-P',
        '-F',
        '#{pane_id}',
        'node',
        'test/fixtures/standin-agent.mjs',
      )
    ).trim();
    const attach = await runCli([
      'attach',
      'ghost-agent',
      '--pane',
      ghost,
      '--socket',
      box.sock,
      '--kind',
      'standin',
    ]);
    expect(attach.code).toBe(0);
    const status = await eventually(async () => {
      const r = await runCli(['provider', 'tmux', '--status', '--json', '--socket', box.sock]);
      return r.json().panes.find((p: any) => p.paneId === ghost && p.notReported);
    }, 'the ghost pane in the status');
    expect(status).toMatchObject({
      agentId: 'ghost-agent',
      notReported: 'refused: AGENT_NOT_REGISTERED',
    });
    const rows = await gw.t.ok(`query($g: ID!) { directory(goalId: $g) { rows { agentId } } }`, {
      g: goalId,
    });
    expect(rows.directory.rows.map((r: any) => r.agentId)).not.toContain('ghost-agent');
    // The real agent's reports still go through.
    expect((await presenceOf(gw, goalId, agentId)).liveness).toBe('IDLE');
  });

  it('tmux kill-server: the presence of its panes ends (a pinned wait ends PRESENCE_ENDED); a new server is a new instance', async () => {
    const { box, goalId, agentId, peers } = await setup();
    await presenceUntil(gw, goalId, agentId, liveness('IDLE'), 'IDLE');
    const wait = await startWait(goalId, agentId, ['DONE']);
    await box.tmux('kill-server');
    expect(await waitResolved(wait.id)).toMatchObject({
      status: 'NOT_RUNNING',
      reason: 'PRESENCE_ENDED',
    });
    expect((await presenceOf(gw, goalId, agentId))?.endedAt ?? 'ended').not.toBeNull();
    // A new server with only the second agent in it: found, registered, reported.
    const other = await runStandin(gw, box, goalId, peers[1]!.agentId);
    const fresh = await presenceUntil(
      gw,
      goalId,
      peers[1]!.agentId,
      liveness('IDLE'),
      'the new server reporting',
    );
    expect(fresh).toMatchObject({ providerSessionRef: other, stale: false });
  });

  it('a pane closed ends its occupant, and the last pane closed (the server exits) ends the rest', async () => {
    const box = sandbox();
    cleanups.push(() => box.cleanup());
    const { goalId, peers } = await team(gw.t, ['a', 'b']);
    const [a, b] = [peers[0]!.agentId, peers[1]!.agentId];
    // Panes bound with attach: no remain-on-exit, tmux closes them as it would anyone's.
    const paneA = (
      await box.tmux(
        'new-session',
        '-d',
        '-P',
        '-F',
        '#{pane_id}',
        '-x',
        '120',
        '-y',
        '30',
        'node',
        STANDIN,
      )
    ).trim();
    const paneB = (
      await box.tmux('split-window', '-d', '-P', '-F', '#{pane_id}', 'node', STANDIN)
    ).trim();
    for (const [agent, pane] of [
      [a, paneA],
      [b, paneB],
    ] as const) {
      const r = await runCli(
        ['attach', agent, '--pane', pane, '--socket', box.sock, '--kind', 'standin'],
        {
          env: { SWITCHBOARD_URL: gw.url, SWITCHBOARD_GOAL: goalId },
        },
      );
      expect(r.code).toBe(0);
    }
    const provider = await startProvider(gw, box, [goalId]);
    cleanups.push(() => provider.stop());
    await presenceUntil(gw, goalId, a, liveness('IDLE'), 'A IDLE');
    await presenceUntil(gw, goalId, b, liveness('IDLE'), 'B IDLE');
    await box.tmux('kill-pane', '-t', paneB);
    await presenceUntil(gw, goalId, b, (p) => p === null || p.endedAt !== null, 'B ended');
    expect(await presenceOf(gw, goalId, a)).toMatchObject({ liveness: 'IDLE', endedAt: null });
    await box.tmux('kill-pane', '-t', paneA);
    await presenceUntil(gw, goalId, a, (p) => p === null || p.endedAt !== null, 'A ended');
  });
});

requires('tmux')('durations on the command line', { timeout: 60_000 }, () => {
  it('take a unit: a bare number is refused (exit 2), the help shows the default as it is read, and --ttl 2s declares two seconds', async () => {
    for (const args of [
      ['provider', 'tmux', '--ttl', '10000'],
      ['wait', 'someone', '--timeout', '30'],
      ['attention', '--stale-claim', '5'],
      ['send', '--to', 'x', '--subject', 's', '--body', 'b', '--window', '60'],
    ]) {
      const r = await runCli(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toContain('a bare number has none');
    }
    expect((await runCli(['provider', 'tmux', '--help'])).stdout).toMatch(/\(default: 60s\)/);

    const box = sandbox();
    cleanups.push(() => box.cleanup());
    const { goalId, peers } = await team(gw.t, ['a']);
    const agentId = peers[0]!.agentId;
    await runStandin(gw, box, goalId, agentId);
    const provider = await startProvider(gw, box, [goalId], ['--ttl', '2s']);
    await presenceUntil(gw, goalId, agentId, liveness('IDLE'), 'IDLE');
    // Heartbeats keep it current past the TTL while the provider runs...
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect((await presenceOf(gw, goalId, agentId)).liveness).toBe('IDLE');
    // ...and once it stops reporting, it lapses after two seconds, not 10,000.
    await provider.stop();
    const lapsed = await presenceUntil(
      gw,
      goalId,
      agentId,
      (p) => p?.liveness === 'UNKNOWN',
      'lapsed after the 2 s TTL',
      6000,
    );
    expect(lapsed.coverageGap).toBe('PRESENCE_TTL_EXPIRED');
  });
});

// ---- delivery at safe points: typed notices for agents without hooks ----------------------

const RECEIPT = `query($id: ID!) {
  delivery(id: $id) { ... on Delivery { outcome
    receipt { notifiedAt notices { via provider providerSessionRef occupantRef text } } } }
}`;
const NOTICE = '1 unread message: run switchboard next';

async function deliverTo(goalId: string, token: string, to: string) {
  const { deliver } = await gw.t.ok(
    DeliverDocument,
    {
      input: {
        goalId,
        to,
        kind: 'REQUEST',
        subject: 'one more thing',
        body: 'please also update the changelog',
        idempotencyKey: `k-${Math.random()}`,
      },
    },
    token,
  );
  expect(deliver).toMatchObject({ __typename: 'Delivery', pin: { state: 'PINNED' } });
  return deliver.id as string;
}

const receiptOf = async (id: string, token: string) =>
  (await gw.t.ok(RECEIPT, { id }, token)).delivery as {
    outcome: string;
    receipt: { notifiedAt: string | null; notices: { via: string; providerSessionRef: string }[] };
  };

/** The provider's own view of a pane (through its hook socket), once `test` holds. */
async function paneUntil(
  box: { hookSock: string },
  pane: string,
  test: (p: any) => boolean,
  what: string,
) {
  let last: unknown;
  return eventually(
    async () => {
      const answer = await askProvider(box.hookSock, { op: 'status' });
      const p = answer.ok ? answer.status?.panes.find((x) => x.paneId === pane) : undefined;
      last = p;
      return p && test(p) ? p : undefined;
    },
    what,
    20_000,
  ).catch((error: Error) => {
    // What the provider last said of the pane: why it did not get there.
    throw new Error(`${error.message} (last status: ${JSON.stringify(last)})`);
  });
}

const screen = async (box: { tmux(...a: string[]): Promise<string> }, pane: string) =>
  box.tmux('capture-pane', '-p', '-t', pane);

requires('tmux')('delivery at safe points (tmux provider notices)', { timeout: 60_000 }, () => {
  it('types a one-line notice at an idle prompt with an empty input line, once, and the sender sees the receipt', async () => {
    const { box, goalId, peers, agentId, pane, provider } = await setup();
    await presenceUntil(gw, goalId, agentId, liveness('IDLE'), 'IDLE at the prompt');
    const sender = peers[1]!.token;
    const id = await deliverTo(goalId, sender, agentId);
    const typed = await paneUntil(
      box,
      pane,
      (p) => /^typed for/.test(p.notice ?? ''),
      'the notice typed',
    );
    expect(typed.notice).toContain(id);
    const receipt = await eventually(async () => {
      const d = await receiptOf(id, sender);
      return d.receipt.notices.length ? d : undefined;
    }, 'the receipt');
    expect(receipt.receipt.notifiedAt).not.toBeNull();
    expect(receipt.receipt.notices).toEqual([
      {
        via: 'TERMINAL_NOTICE',
        provider: provider.providerId,
        providerSessionRef: pane,
        occupantRef: expect.stringContaining(pane),
        text: NOTICE,
      },
    ]);
    expect(await screen(box, pane)).toContain(`standin> ${NOTICE}`);
    // The agent took the notice as its input and worked: activity, the weaker-but-real signal.
    await eventually(async () => {
      const d = await receiptOf(id, sender);
      return d.outcome === 'ACTIVITY_OBSERVED' ? d : undefined;
    }, 'activity observed after the notice');
    // Back at the prompt, it is not typed again: at most once per delivery.
    const after = await paneUntil(
      box,
      pane,
      (p) => p.liveness === 'DONE' && p.notice === 'nothing to notify',
      'a later decision at DONE',
    );
    expect(after.noticeChecks).toBeGreaterThan(typed.noticeChecks);
    // Typed once (the stand-in echoes it once more as the work it does).
    expect((await screen(box, pane)).split(`standin> ${NOTICE}`).length - 1).toBe(1);
    expect((await receiptOf(id, sender)).receipt.notices).toHaveLength(1);
  });

  it('never types while BLOCKED: it waits, then types once the pane settles at the prompt', async () => {
    const box = sandbox();
    cleanups.push(() => box.cleanup());
    const { goalId, peers } = await team(gw.t, ['a', 'b']);
    const agentId = peers[0]!.agentId;
    const pane = await runStandin(gw, box, goalId, agentId, { STANDIN_STEP_MS: '400' });
    const provider = await startProvider(gw, box, [goalId]);
    cleanups.push(() => provider.stop());
    await presenceUntil(gw, goalId, agentId, liveness('IDLE'), 'IDLE');
    await type(box, pane, 'work then approve');
    await presenceUntil(gw, goalId, agentId, liveness('WORKING'), 'WORKING');
    // Accepted while it works (a BLOCKED target would refuse the delivery itself).
    const id = await deliverTo(goalId, peers[1]!.token, agentId);
    const waiting = await paneUntil(
      box,
      pane,
      (p) =>
        p.liveness === 'BLOCKED' &&
        /waiting \(1 unread\): the pane is BLOCKED/.test(p.notice ?? ''),
      'the notice held back at the approval question',
    );
    expect(waiting.notice).toBe('waiting (1 unread): the pane is BLOCKED');
    expect(await screen(box, pane)).not.toContain('unread message');
    expect((await receiptOf(id, peers[1]!.token)).receipt.notices).toEqual([]);

    await type(box, pane, 'y');
    await paneUntil(box, pane, (p) => /^typed for/.test(p.notice ?? ''), 'typed after the answer');
    const d = await eventually(async () => {
      const r = await receiptOf(id, peers[1]!.token);
      return r.receipt.notices.length ? r : undefined;
    }, 'the receipt after the answer');
    expect(d.receipt.notices.map((n) => n.via)).toEqual(['TERMINAL_NOTICE']);
    const text = await screen(box, pane);
    expect(text).toContain('approved: deleting nothing');
    // The notice went to the prompt after the answer, never to the question itself.
    expect(text).not.toMatch(/\[y\/n\] .*unread message/);
    expect(text).toContain(`standin> ${NOTICE}`);
  });

  it('never types over a half-typed draft: it waits until the input line is empty again', async () => {
    const { box, goalId, peers, agentId, pane } = await setup();
    await presenceUntil(gw, goalId, agentId, liveness('IDLE'), 'IDLE');
    await box.tmux('send-keys', '-t', pane, '-l', 'half a dra');
    await paneUntil(box, pane, (p) => p.draft === true, 'the draft seen');
    const id = await deliverTo(goalId, peers[1]!.token, agentId);
    await paneUntil(
      box,
      pane,
      (p) => p.notice === 'waiting (1 unread): the input line holds a draft',
      'the notice held back by the draft',
    );
    expect(await screen(box, pane)).toContain('standin> half a dra');
    expect(await screen(box, pane)).not.toContain('unread message');
    expect((await receiptOf(id, peers[1]!.token)).receipt.notices).toEqual([]);

    // The person deletes the draft: the line is empty again, the notice goes in.
    await box.tmux('send-keys', '-t', pane, ...Array(10).fill('BSpace'));
    await paneUntil(
      box,
      pane,
      (p) => /^typed for/.test(p.notice ?? ''),
      'typed after the draft went',
    );
    await eventually(async () => {
      const r = await receiptOf(id, peers[1]!.token);
      return r.receipt.notices.length === 1 ? r : undefined;
    }, 'the receipt');
    const text = await screen(box, pane);
    expect(text).toContain(`standin> ${NOTICE}`);
    expect(text).not.toContain(`dra${NOTICE}`);
  });

  it('switched off (--no-notices): no notice is typed and no receipt recorded', async () => {
    const box = sandbox();
    cleanups.push(() => box.cleanup());
    const { goalId, peers } = await team(gw.t, ['a', 'b']);
    const agentId = peers[0]!.agentId;
    const pane = await runStandin(gw, box, goalId, agentId);
    const provider = await startProvider(gw, box, [goalId], ['--no-notices']);
    cleanups.push(() => provider.stop());
    expect(provider.stderr).toContain('notices off');
    await presenceUntil(gw, goalId, agentId, liveness('IDLE'), 'IDLE');
    const id = await deliverTo(goalId, peers[1]!.token, agentId);
    const before = await paneUntil(box, pane, () => true, 'the pane');
    // A settled state after the delivery: the provider decides, and declines.
    await type(box, pane, 'refactor');
    const decided = await paneUntil(
      box,
      pane,
      (p) => p.liveness === 'DONE' && p.noticeChecks > before.noticeChecks,
      'a decision at DONE',
    );
    expect(decided.notice).toBe('off (--no-notices)');
    expect(await screen(box, pane)).not.toContain('unread message');
    const d = await receiptOf(id, peers[1]!.token);
    expect(d.receipt).toEqual({ notifiedAt: null, notices: [] });
  });
});

requires('tmux')(
  'where typing is not safe, nothing is typed: the person is signalled',
  {
    timeout: 60_000,
  },
  () => {
    /**
     * A pane bound to the recipient runs `command`; once it waits at `prepare`'s prompt a message
     * arrives. Nothing may be typed (the screen stays as it was), the message stays unread, and
     * the receipt is a TERMINAL_SIGNAL, once, with the pane's @switchboard_unread mark.
     */
    async function neverTyped(
      command: string[],
      kind: string | undefined,
      why: string,
      prepare?: (box: ReturnType<typeof sandbox>, pane: string) => Promise<void>,
    ) {
      const box = sandbox();
      cleanups.push(() => box.cleanup());
      const { goalId, peers } = await team(gw.t, ['a', 'b']);
      const [recipient, sender] = [peers[0]!, peers[1]!];
      const pane = await runInPane(gw, box, goalId, recipient.agentId, command, kind);
      const provider = await startProvider(gw, box, [goalId]);
      cleanups.push(() => provider.stop());
      await prepare?.(box, pane);
      // Settled at its prompt, and the gateway sees what the provider sees (a delivery pins it).
      const settled = await eventually(
        async () => {
          const answer = await askProvider(box.hookSock, { op: 'status' });
          const p = answer.ok ? answer.status?.panes.find((x) => x.paneId === pane) : undefined;
          if (!p || !/^settled prompt/.test(p.screen ?? '') || p.liveness === 'WORKING') return;
          const seen = await presenceOf(gw, goalId, recipient.agentId);
          return seen?.liveness === p.liveness ? p : undefined;
        },
        'the pane settled at its prompt, as the gateway sees it',
        20_000,
      );
      const before = await screen(box, pane);
      const id = await deliverTo(goalId, sender.token, recipient.agentId);
      const decided = await paneUntil(
        box,
        pane,
        (p) => p.noticeChecks > settled.noticeChecks && /^signalled/.test(p.notice ?? ''),
        'the decision',
      );
      expect(decided.notice).toBe(`signalled, not typed (1 unread): ${why}`);
      const receipt = await eventually(async () => {
        const d = await receiptOf(id, sender.token);
        return d.receipt.notices.length ? d : undefined;
      }, 'the receipt');
      expect(receipt.receipt.notices.map((n) => n.via)).toEqual(['TERMINAL_SIGNAL']);
      expect(receipt.receipt.notifiedAt).toBeNull();
      expect(await box.tmux('show-options', '-p', '-v', '-t', pane, '@switchboard_unread')).toBe(
        '1\n',
      );
      // Later looks decide the same and add nothing: no second signal, still nothing typed.
      await paneUntil(box, pane, (p) => p.noticeChecks > decided.noticeChecks + 1, 'later looks');
      expect(await screen(box, pane)).toBe(before);
      const { delivery } = await gw.t.ok(
        `query($id: ID!) { delivery(id: $id) { ... on Delivery { receipt { readAt processedAt notices { via } } } } }`,
        { id },
        sender.token,
      );
      expect(delivery.receipt).toEqual({
        readAt: null,
        processedAt: null,
        notices: [{ via: 'TERMINAL_SIGNAL' }],
      });
    }

    it('an agent idle at a bash prompt', async () => {
      await neverTyped(
        ['bash', '--norc', '--noprofile'],
        undefined,
        "the pane's program bash is not a recognised generic agent",
      );
    });

    it('a recognised agent at a line that asks to confirm', async () => {
      await neverTyped(
        ['node', STANDIN],
        'standin-loose',
        'the prompt line asks a question',
        async (box, pane) => {
          await type(box, pane, 'deploy');
          await eventually(
            async () =>
              (await screen(box, pane)).includes('type yes to confirm>') ? true : undefined,
            'the question',
          );
        },
      );
    });

    it("an unknown program's prompt", async () => {
      const ask = `require('readline').createInterface({ input: process.stdin, output: process.stdout }).question('> ', (a) => { console.log('got ' + a); setInterval(() => {}, 1000); })`;
      await neverTyped(
        ['node', '-e', ask],
        undefined,
        "the pane's program node is not a recognised generic agent",
      );
    });

    it('the notice itself is plain words: nothing a shell or a prompt takes as syntax', () => {
      for (const n of [1, 2, 200]) expect(noticeText(n)).toMatch(/^[A-Za-z0-9 :]+$/);
    });
  },
);

describe('screen classification reads the prompt, not the page', () => {
  const patterns = new Patterns({
    kinds: {
      agent: {
        prompt: ['^agent>(?: (?<draft>.*))?$'],
        blocked: ['Do you want to proceed\\?', '\\[y/n\\]\\s*$'],
        working: ['esc to interrupt'],
      },
    },
  });
  const at = (lines: string[], cursorY = lines.length - 1) => ({
    lines,
    cursorY,
    cursorX: (lines[cursorY] ?? '').length,
    alternate: false,
  });
  it("text shown above the agent's own prompt is history, however it reads", () => {
    const quoted = ['From reviewer:', 'Do you want to proceed?', 'delete build/? [y/n]', 'agent> '];
    expect(patterns.classify('agent', at(quoted), false)).toMatchObject({ state: 'prompt' });
  });
  it('a question at the cursor, or a dialog drawn around it, is BLOCKED', () => {
    expect(patterns.classify('agent', at(['working…', 'delete build/? [y/n] ']), false).state).toBe(
      'blocked',
    );
    const dialog = [
      '╭────╮',
      '│ rm -rf build │',
      '│ Do you want to proceed? │',
      '│ ❯ 1. Yes │',
      '│   2. No │',
      '╰────╯',
    ];
    expect(patterns.classify('agent', at(dialog, 3), false).state).toBe('blocked');
  });
  it('an input line just submitted with nothing under it is work, however quiet; a full-screen program redrawing is not', () => {
    const shell = Patterns.load();
    const sleeping = ['dev@box:~/proj$ ls', 'notes.txt', 'dev@box:~/proj$ sleep 3', ''];
    expect(shell.classify('generic', at(sleeping), false)).toMatchObject({
      state: 'working',
      reason: 'input submitted, nothing after it yet',
    });
    // An empty prompt line above is no input: nothing runs that the screen can tell.
    expect(shell.classify('generic', at(['dev@box:~/proj$ ', '']), false).state).toBe('unknown');
    const pager = { ...at(['127.0.0.1 localhost', '::1 ip6-localhost', ':']), alternate: true };
    expect(shell.classify('generic', pager, true)).toMatchObject({ state: 'unknown' });
  });
  it('a question far above the cursor is not', () => {
    const page = ['Do you want to proceed?', ...Array(10).fill('output'), 'more output'];
    expect(patterns.classify('agent', at(page), false).state).toBe('unknown');
  });
});

describe("the built-in patterns read the tools' documented dialogs", () => {
  const patterns = Patterns.load();
  const at = (lines: string[], cursorY = lines.length - 1) => ({
    lines,
    cursorY,
    cursorX: (lines[cursorY] ?? '').length,
    alternate: false,
  });
  it("Gemini CLI's shell and MCP confirmations, numbered or not, are BLOCKED", () => {
    const shell = [
      '╭──────────────────────────────╮',
      '│ ?  Shell npm run lint         │',
      "│ Allow execution of: 'npm'?    │",
      '│ ● 1. Yes, allow once          │',
      '│   2. Yes, allow always ...    │',
      '│   3. No, suggest changes (esc)│',
      '╰──────────────────────────────╯',
      '~/proj (main*)   no sandbox   gemini-2.5-pro',
      '',
    ];
    expect(patterns.classify('gemini', at(shell), false).state).toBe('blocked');
    const mcp = [
      '╭──────────────────────────────────────────────╮',
      '│ Allow execution of MCP tool "x" from server "y"? │',
      '│                                              │',
      '│ ● Yes, allow once                            │',
      '│ ○ Yes, always allow tool "x" from server "y" │',
      '│ ○ Yes, always allow all tools from server "y"│',
      '│ ○ No (esc)                                   │',
      '╰──────────────────────────────────────────────╯',
      '',
    ];
    expect(patterns.classify('gemini', at(mcp), false).state).toBe('blocked');
  });
  it("Claude Code's question picker is BLOCKED however far above the cursor its selected option is, inside its box", () => {
    const picker = [
      '> also cap the retries?',
      '',
      '╭────────────────────────────────────────╮',
      '│ How many attempts at most?             │',
      '│                                        │',
      '│ ❯ 1. 3 attempts                        │',
      '│      Fails fast                        │',
      '│   2. 5 attempts                        │',
      '│      Rides out a longer outage         │',
      '│   3. Type something.                   │',
      '│                                        │',
      '│ Enter to select · Esc to cancel        │',
      '╰────────────────────────────────────────╯',
      '',
    ];
    expect(patterns.classify('claude-code', at(picker), false).state).toBe('blocked');
    // The same lines as history above the input box are not a question.
    const history = [...picker.slice(0, -1), '╭────╮', '│ >  │', '╰────╯'];
    expect(patterns.classify('claude-code', at(history, history.length - 2), false).state).toBe(
      'prompt',
    );
  });
  it("aider's question is BLOCKED while it waits; once answered, the work after it is not", () => {
    const asking = ['src/dates.py', "Add file to the chat? (Y)es/(N)o/(D)on't ask again [Yes]: "];
    expect(patterns.classify('aider', at(asking), false).state).toBe('blocked');
    const answered = [
      'src/dates.py',
      "Add file to the chat? (Y)es/(N)o/(D)on't ask again [Yes]: y",
      '░░█  Waiting for anthropic/claude-sonnet-4',
    ];
    expect(patterns.classify('aider', at(answered), true).state).toBe('working');
    expect(
      patterns.classify('aider', at(['Add the output to the chat? (y/n/instructions): ']), false)
        .state,
    ).toBe('blocked');
  });
});

describe('the input line a notice may be typed into', () => {
  it('is empty only when the prompt pattern has a draft group that matched nothing', () => {
    const patterns = new Patterns({
      kinds: {
        drafted: { prompt: ['^agent>(?: (?<draft>.*))?$'] },
        blind: { prompt: ['^agent>.*$'] },
      },
    });
    const at = (line: string) => ({
      lines: [line],
      cursorX: line.length,
      cursorY: 0,
      alternate: false,
    });
    expect(patterns.classify('drafted', at('agent> '), false)).toMatchObject({
      state: 'prompt',
      draft: '',
    });
    expect(patterns.classify('drafted', at('agent> half a dra'), false).draft).toBe('half a dra');
    // Without a draft group nobody can tell an empty line from a typed one: never "empty".
    const blind = patterns.classify('blind', at('agent> '), false);
    expect(blind.state).toBe('prompt');
    expect(blind.draft).toBeUndefined();
  });
});
