/**
 * The tmux provider end to end: real tmux on a private socket, a stand-in agent program in a
 * pane, the bundled `switchboard provider tmux` / `run` / `attach` / `send`, and a real gateway.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { asCaller, eventually, goalWithPeers, runCli, startGateway } from './support/cli.ts';
import {
  type Gw,
  liveness,
  presenceOf,
  presenceUntil,
  runStandin,
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

async function setup(agents = 2) {
  const box = sandbox();
  const { goalId, peers } = await goalWithPeers(gw.t, agents);
  cleanups.push(() => box.cleanup());
  const pane = await runStandin(gw, box, goalId, peers[0]!.agentId);
  const provider = await startProvider(gw, box, [goalId]);
  cleanups.push(() => provider.stop());
  return { box, goalId, peers, agentId: peers[0]!.agentId, pane, provider };
}

async function startWait(goalId: string, agentId: string, accept: string[], timeoutMs = 15_000) {
  const { startWait } = await gw.t.ok(
    `mutation($input: WaitInput!) { startWait(input: $input) { __typename ... on Wait { id status pin { occupantRef } } } }`,
    { input: { goalId, agentId, accept, timeoutMs } },
  );
  expect(startWait.__typename).toBe('Wait');
  return startWait as { id: string; status: string; pin: { occupantRef: string } };
}

function waitResolved(id: string, timeoutMs = 15_000) {
  return eventually(
    async () => {
      const { wait } = await gw.t.ok(
        `query($id: ID!) { wait(id: $id) { ... on Wait { status reason resolution { liveness } } } }`,
        { id },
      );
      return wait.status === 'PENDING' ? undefined : wait;
    },
    `wait ${id} to resolve`,
    timeoutMs,
  );
}

describe('tmux provider', { timeout: 60_000 }, () => {
  it('reports IDLE → WORKING → DONE → BLOCKED from a real pane; a delivery to the gated agent is refused AGENT_BLOCKED', async () => {
    const { box, goalId, peers, agentId, pane } = await setup();
    const idle = await presenceUntil(gw, goalId, agentId, liveness('IDLE'), 'IDLE at the prompt');
    expect(idle).toMatchObject({
      providerSessionRef: pane,
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
    const { box, goalId, agentId, pane } = await setup(1);
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
      return p?.draft === 'half a dra' ? p : undefined;
    }, 'the draft in the provider status');
    expect(status).toMatchObject({ agentId, liveness: 'DONE', kind: 'standin' });
    expect((await presenceOf(gw, goalId, agentId)).liveness).toBe('DONE');
  });

  it('a wait is satisfied by a real transition', async () => {
    const { box, goalId, agentId, pane } = await setup(1);
    await presenceUntil(gw, goalId, agentId, liveness('IDLE'), 'IDLE');
    const wait = await startWait(goalId, agentId, ['DONE']);
    expect(wait.status).toBe('PENDING');
    await type(box, pane, 'refactor');
    const resolved = await waitResolved(wait.id);
    expect(resolved).toMatchObject({ status: 'SATISFIED', resolution: { liveness: 'DONE' } });
  });

  it('the pane process exits → endPresence → a pinned wait ends NOT_RUNNING', async () => {
    const { box, goalId, agentId, pane } = await setup(1);
    await presenceUntil(gw, goalId, agentId, liveness('IDLE'), 'IDLE');
    const wait = await startWait(goalId, agentId, ['DONE']);
    await type(box, pane, 'exit');
    const resolved = await waitResolved(wait.id);
    expect(resolved).toMatchObject({ status: 'NOT_RUNNING', reason: 'PRESENCE_ENDED' });
  });

  it('the program killed and restarted in the same pane is a new occupant → PINNED_OCCUPANT_REPLACED', async () => {
    const { box, goalId, agentId, pane } = await setup(1);
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
    const { box, goalId, agentId } = await setup(1);
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

  it('a tmux server restart: a new instanceId, and the old rows read stale', async () => {
    const { box, goalId, agentId, peers } = await setup();
    const before = await presenceUntil(gw, goalId, agentId, liveness('IDLE'), 'IDLE');
    expect(before.stale).toBe(false);
    await box.tmux('kill-server');
    // A new server with only the second agent in it.
    const other = await runStandin(gw, box, goalId, peers[1]!.agentId);
    await presenceUntil(
      gw,
      goalId,
      peers[1]!.agentId,
      liveness('IDLE'),
      'the new server reporting',
    );
    const after = await presenceUntil(
      gw,
      goalId,
      agentId,
      (p) => p?.stale === true,
      'the old row stale',
    );
    expect(after.occupantRef).toBe(before.occupantRef);
    expect(other).toMatch(/^%\d+$/);
  });
});
