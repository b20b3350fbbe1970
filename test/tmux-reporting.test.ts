/**
 * The tmux provider's reporter against a real gateway: a report the gateway rejects is dropped
 * alone with one log line while the rest of its batch goes through, and sends to a gateway that
 * cannot be reached back off and deliver what was queued once it is back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Liveness } from '../src/client/index.ts';
import { Connection } from '../src/providers/tmux/connection.ts';
import { newPane, type Pane } from '../src/providers/tmux/pane.ts';
import { Reporter } from '../src/providers/tmux/reporting.ts';
import { eventually, registerProvider, startGateway, team } from './support/cli.ts';
import { type Gw, presenceOf } from './support/tmux.ts';

let gw: Gw;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => {
  await gw?.close();
});

function pane(id: string, agentId: string, goalId: string): Pane {
  return {
    ...newPane({ id, session: 's', pid: 1, command: 'agent', dead: false, kind: 'generic' }),
    agentId,
    goalId,
    observe: false,
  };
}

async function reporterFor(names: string[]) {
  const { goalId, peers } = await team(gw.t, names);
  const provider = await registerProvider(gw.t, [goalId]);
  const panes = new Map<string, Pane>();
  for (const [i, p] of peers.entries()) panes.set(`%${i}`, pane(`%${i}`, p.agentId, goalId));
  const log: string[] = [];
  const reporter = new Reporter({
    client: createClient({ url: gw.url, token: provider.token, requestTimeoutMs: 2000 }),
    panes,
    connection: new Connection(
      { socketPath: '/nonexistent' },
      {
        output() {},
        changed() {},
        lost() {},
      },
    ),
    batchMs: 60,
    log: (line) => log.push(line),
  });
  const set = (paneId: string, liveness: string) =>
    reporter.setLiveness(
      panes.get(paneId) as Pane,
      liveness as Liveness,
      'PROVIDER_DETECTION',
      'test',
    );
  return { goalId, peers, reporter, panes, set, log };
}

describe('tmux provider reports', () => {
  it('a report the gateway rejects is dropped alone, with one log line; the rest of its batch and later reports arrive', async () => {
    const { goalId, peers, reporter, panes, set, log } = await reporterFor(['a', 'b', 'c', 'd']);
    set('%0', 'IDLE');
    set('%1', 'EXPLODED'); // not a Liveness: the gateway rejects the whole batch
    set('%2', 'WORKING');
    const long = panes.get('%3') as Pane;
    const occupantRef = long.occupantRef;
    long.occupantRef = 'x'.repeat(5000); // INVALID_REPORT: the gateway refuses that report alone
    set('%3', 'IDLE');
    await reporter.flush();
    expect((await presenceOf(gw, goalId, peers[0]!.agentId))?.liveness).toBe('IDLE');
    expect((await presenceOf(gw, goalId, peers[2]!.agentId))?.liveness).toBe('WORKING');
    expect(await presenceOf(gw, goalId, peers[1]!.agentId)).toBeNull();
    expect(await presenceOf(gw, goalId, peers[3]!.agentId)).toBeNull();
    expect(log).toHaveLength(2);
    expect(log.join('\n')).toMatch(
      new RegExp(`^report for ${peers[1]!.agentId} at %1 dropped, the gateway refused it: `, 'm'),
    );
    expect(log.join('\n')).toMatch(
      new RegExp(`^report for ${peers[3]!.agentId} at %3 dropped, the gateway refused it: `, 'm'),
    );
    long.occupantRef = occupantRef;
    set('%3', 'IDLE');
    // Nothing of it stays queued, and the pane's next report goes through.
    await reporter.flush();
    expect(log).toHaveLength(2);
    expect((await presenceOf(gw, goalId, peers[3]!.agentId))?.liveness).toBe('IDLE');
    set('%1', 'DONE');
    await reporter.flush();
    expect((await presenceOf(gw, goalId, peers[1]!.agentId))?.liveness).toBe('DONE');
    await reporter.stop();
  });

  it('while the gateway cannot be reached, sends back off; what was queued arrives once it is back', async () => {
    const { goalId, peers, reporter, set, log } = await reporterFor(['a']);
    set('%0', 'IDLE');
    await reporter.flush();
    await gw.stop();
    try {
      set('%0', 'WORKING');
      reporter.schedule();
      const started = Date.now();
      await eventually(() => (Date.now() - started > 2000 ? true : undefined), '2 s', 3000);
      // 60, 120, 240, 480, 960 ms apart: about five tries in two seconds (not one per batch).
      const tries = log.filter((l) => l.includes('failed (retrying)')).length;
      expect(tries).toBeGreaterThanOrEqual(3);
      expect(tries).toBeLessThanOrEqual(6);
    } finally {
      await gw.start();
    }
    await eventually(
      async () =>
        (await presenceOf(gw, goalId, peers[0]!.agentId))?.liveness === 'WORKING'
          ? true
          : undefined,
      'the queued report after the gateway came back',
      10_000,
    );
    await reporter.stop();
  });
});
