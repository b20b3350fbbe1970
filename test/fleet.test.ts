/**
 * The fleet (test/support/fleet.ts): a database host, two gateway hosts and three agent hosts
 * as network namespaces, real Postgres, real gateways, real tmux and `switchboard provider
 * tmux` on each agent host, every client configured with both gateways. One fleet for the
 * file; each fault is healed before the next test. Runs in the Postgres pass of the suite
 * (its Postgres is its own, on the database host); skipped, saying why, where namespaces
 * cannot be made.
 */

import { readFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import {
  DeliveryDocument,
  DirectoryDocument,
  directoryPresenceSeq,
  followWait,
  type PresenceChange,
  presenceChanges,
  StartWaitDocument,
} from '../src/client/index.ts';
import { askProvider } from '../src/providers/tmux/hooks.ts';
import { type AgentHost, type Fleet, startFleet } from './support/fleet.ts';
import { driver, eventually, uid } from './support/harness.ts';
import { requires } from './support/requires.ts';

const TTL_MS = 3000;
let fleet: Fleet;

async function directoryRows() {
  const { directory } = await fleet.admin.request(DirectoryDocument, { goalId: fleet.goalId });
  return directory.rows;
}

async function presence(agentId: string) {
  return (await directoryRows()).find((row) => row.agentId === agentId)?.presence ?? null;
}

/** Follows every presence change of the goal from now on, through both gateways. */
async function follow() {
  const controller = new AbortController();
  const changes: (PresenceChange & { at: number })[] = [];
  // From the cursor of a directory read: nothing committed after it is missed, even while the
  // stream moves between gateways.
  const { directory } = await fleet.admin.request(DirectoryDocument, { goalId: fleet.goalId });
  const after = directoryPresenceSeq(directory);
  const done = (async () => {
    for await (const change of presenceChanges(
      {
        url: fleet.url,
        token: fleet.adminToken,
        webSocketImpl: WebSocket,
        signal: controller.signal,
      },
      fleet.goalId,
      undefined,
      after,
    ))
      changes.push({ ...change, at: Date.now() });
  })().catch(() => {});
  return {
    changes,
    async stop() {
      controller.abort();
      await done;
    },
  };
}

/** `switchboard send` from the operator host, through both gateways unless `url` names one. */
async function deliver(to: string, timeoutMs: number, key = uid('key'), url = fleet.url) {
  const result = await fleet.cli(
    'operator',
    [
      'send',
      '--to',
      to,
      '--body',
      `fleet check ${key}`,
      '--subject',
      'fleet',
      '--timeout',
      `${timeoutMs}ms`,
      '--key',
      key,
      '--json',
    ],
    { SWITCHBOARD_TOKEN: fleet.adminToken, SWITCHBOARD_GOAL: fleet.goalId, SWITCHBOARD_URL: url },
  );
  if (result.code !== 0 && !result.stdout) throw new Error(`send: ${result.stderr}`);
  return result.json();
}

/**
 * Polls the delivery until its outcome is final, failing `graceMs` past its own deadline (the
 * gateway's keeper then needs a few round trips to the database, over whatever the links are).
 */
async function settled(deliveryId: string, graceMs: number) {
  let last = '';
  return eventually(
    async () => {
      const { delivery } = await fleet.admin.request(DeliveryDocument, { id: deliveryId });
      if (delivery.__typename !== 'Delivery') throw new Error(`delivery ${deliveryId} unknown`);
      last = `${delivery.outcome}, history ${delivery.history.map((h) => h.outcome).join(' → ')}, deadline ${delivery.deadline}`;
      if (delivery.outcomeChange.final) return delivery;
      if (Date.now() > Date.parse(delivery.deadline) + graceMs)
        throw new Error(`not final ${graceMs} ms past its deadline`);
      return undefined;
    },
    `delivery ${deliveryId} final`,
    10 * 60_000,
  ).catch((error: Error) => {
    throw new Error(`${error.message} (last read: ${last}; now ${new Date().toISOString()})`);
  });
}

/** The pane and its key, as a hook started in the agent's pane has them. */
async function hookIdentity(at: AgentHost, pane: string) {
  const pid = (await at.tmux('display-message', '-p', '-t', pane, '#{pane_pid}')).trim();
  const env = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
  const key = env.find((entry) => entry.startsWith('SWITCHBOARD_PANE_KEY='))?.split('=')[1];
  return { pane, key };
}

const host = (name: string) => fleet.agentHosts.find((h) => h.name === name) as AgentHost;

// The fleet's database is its own Postgres: the file runs once, in the suite's Postgres pass.
const suite = driver === 'postgres' ? requires('tmux', 'network namespaces') : describe.skip;

suite('a fleet of hosts (network namespaces)', () => {
  beforeAll(async () => {
    fleet = await startFleet({ ttl: `${TTL_MS / 1000}s` });
    await eventually(
      async () =>
        (await directoryRows()).every((row) => row.presence?.liveness === 'IDLE')
          ? true
          : undefined,
      'every stand-in IDLE',
      30_000,
    );
  }, 120_000);
  // A test that fails mid-fault leaves no fault behind for the next one.
  afterEach(async () => {
    if (!fleet) return;
    await fleet.impair(null);
    for (const name of ['a1', 'a2', 'a3', 'gw1', 'gw2'] as const) await fleet.heal(name);
    await fleet.healDatabase('gw1');
    await fleet.healDatabase('gw2');
  });
  afterAll(async () => {
    await fleet?.teardown();
  });

  it('keeps the host in the location: each host its provider, the same pane id on two hosts two presences', async () => {
    const rows = await directoryRows();
    expect(rows).toHaveLength(6);
    for (const row of rows) {
      const at = fleet.hostOf.get(row.agentId) as AgentHost;
      expect(row.presence?.provider).toBe(at.providerId);
      expect(row.presence?.host).toBe(at.name);
      expect(row.presence?.liveness).toBe('IDLE');
    }
    // Every tmux server numbers its panes from %0: three agents at %0, one per host.
    const atZero = rows.filter((row) => row.presence?.providerSessionRef === '%0');
    expect(atZero.map((row) => row.agentId).sort()).toEqual([
      'a1-agent-0',
      'a2-agent-0',
      'a3-agent-0',
    ]);
    expect(new Set(atZero.map((row) => row.presence?.provider)).size).toBe(3);

    // The CLI on another host shows where each runs.
    const listed = await fleet.cli('a2', ['directory', '--json'], {
      SWITCHBOARD_TOKEN: fleet.adminToken,
      SWITCHBOARD_GOAL: fleet.goalId,
    });
    expect(listed.code).toBe(0);
    const byAgent = new Map(
      listed
        .json()
        .rows.map((row: any) => [row.agentId, [row.presence.host, row.presence.provider]]),
    );
    expect(byAgent.get('a1-agent-0')).toEqual(['a1', host('a1').providerId]);
    expect(byAgent.get('a3-agent-0')).toEqual(['a3', host('a3').providerId]);

    // An agent registered once runs on another host: a new occupant, at a location of that host.
    const before = await presence('a1-agent-1');
    // A wait pinned to it on a1 (accepting IDLE, which the new occupant on a2 will be).
    const pinned = await fleet.admin.request(StartWaitDocument, {
      input: {
        goalId: fleet.goalId,
        agentId: 'a1-agent-1',
        accept: ['IDLE', 'DONE'],
        timeoutMs: 60_000,
      },
    });
    const pinnedOutcome = followWait(
      { url: fleet.url, token: fleet.adminToken, webSocketImpl: WebSocket },
      (pinned.startWait as { id: string }).id,
    );
    await host('a1').tmux('send-keys', '-t', before?.providerSessionRef as string, '-l', 'exit');
    await host('a1').tmux('send-keys', '-t', before?.providerSessionRef as string, 'Enter');
    await eventually(
      async () => ((await presence('a1-agent-1'))?.endedAt ? true : undefined),
      'a1-agent-1 ended on a1',
      15_000,
    );
    await fleet.startAgent(host('a2'), 'a1-agent-1');
    const moved = await eventually(
      async () => {
        const p = await presence('a1-agent-1');
        return p?.provider === host('a2').providerId && p.liveness === 'IDLE' ? p : undefined;
      },
      'a1-agent-1 on a2',
      20_000,
    );
    expect(moved.occupantRef).not.toBe(before?.occupantRef);
    // The pinned wait saw its occupant go, not the replacement on the other host arrive.
    expect(await pinnedOutcome).toMatchObject({ __typename: 'Wait', status: 'NOT_RUNNING' });
  }, 60_000);

  it('an agent host cut off from both gateways: UNKNOWN within TTL + 2 s, typed waits and deliveries, the current state on heal, hooks served', async () => {
    const a3 = host('a3');
    const [waited, sentTo] = ['a3-agent-0', 'a3-agent-1'];
    const pane = (await presence(waited))?.providerSessionRef as string;
    const watch = await follow();
    const started = await fleet.admin.request(StartWaitDocument, {
      input: { goalId: fleet.goalId, agentId: waited, accept: ['DONE'], timeoutMs: 60_000 },
    });
    expect(started.startWait.__typename).toBe('Wait');
    const waitId = (started.startWait as { id: string }).id;
    const waitOutcome = followWait(
      { url: fleet.url, token: fleet.adminToken, webSocketImpl: WebSocket },
      waitId,
    );
    await eventually(() => (watch.changes.length >= 0 ? true : undefined), 'stream open');

    const cutAt = Date.now();
    await fleet.cut('a3');
    // Its agents read UNKNOWN, with the gap named, within TTL + 2 s of the cut.
    for (const agentId of a3.agents) {
      const lapse = await eventually(
        () =>
          watch.changes.find(
            (c) => c.agentId === agentId && c.at > cutAt && c.presence?.liveness === 'UNKNOWN',
          ),
        `${agentId} UNKNOWN`,
        TTL_MS + 10_000,
      );
      expect(lapse.at - cutAt).toBeLessThanOrEqual(TTL_MS + 2000);
      expect((await presence(agentId))?.coverageGap).toBe('PRESENCE_TTL_EXPIRED');
    }
    // The wait ends typed: nothing can be observed of its target.
    const ended = await waitOutcome;
    expect(ended).toMatchObject({
      __typename: 'Wait',
      status: 'UNOBSERVABLE',
      reason: 'COVERAGE_LOST',
    });
    // A delivery to an agent on the cut host settles typed within its timeout + 5 s.
    const sent = await deliver(sentTo, 6000);
    expect(sent.__typename).toBe('Delivery');
    const final = await settled(sent.id, 5000);
    expect(['UNREACHABLE', 'EXPIRED', 'SUBMITTED']).toContain(final.outcome);

    // The provider keeps serving its hooks while cut off: the hook's word is queued.
    const hook = await hookIdentity(a3, pane);
    const answeredAt = Date.now();
    const answer = await askProvider(a3.hookSock, {
      op: 'report',
      ...hook,
      liveness: 'WORKING',
      event: 'PreToolUse',
    });
    expect(answer).toMatchObject({ ok: true, reported: expect.stringMatching(/^queued/) });
    expect(Date.now() - answeredAt).toBeLessThan(3000);

    // Cut for 12 s in all; then healed.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, cutAt + 12_000 - Date.now())));
    const healAt = Date.now();
    await fleet.heal('a3');
    // On heal the provider reports the current state: the hook's WORKING, once; nothing stale.
    await eventually(
      async () => ((await presence(waited))?.liveness === 'WORKING' ? true : undefined),
      `${waited} WORKING after heal`,
      20_000,
    );
    await eventually(
      async () => ((await presence(sentTo))?.coverageGap === null ? true : undefined),
      `${sentTo} covered after heal`,
      20_000,
    );
    const afterHeal = watch.changes.filter((c) => c.agentId === waited && c.at >= healAt);
    expect(afterHeal[0]?.presence?.liveness).toBe('WORKING');
    expect(afterHeal.filter((c) => c.presence?.liveness === 'WORKING')).toHaveLength(1);
    // The stream saw every change once, in order.
    const seqs = watch.changes.map((c) => BigInt(c.seq ?? 0));
    expect(seqs.every((seq, i) => i === 0 || seq > (seqs[i - 1] as bigint))).toBe(true);
    await watch.stop();
  }, 90_000);

  it('a gateway host cut off from the database: /readyz 503 within seconds, clients move to the other gateway and resume from their cursors, no delivery accepted twice', async () => {
    const [gw1, gw2] = fleet.gateways;
    const readyz = (url: string) =>
      fetch(url.replace('/graphql', '/readyz'), { signal: AbortSignal.timeout(3000) }).then(
        (r) => r.status,
        () => 0,
      );
    // Streams start on the first gateway named.
    const watch = await follow();
    const key = uid('key');
    const cutAt = Date.now();
    await fleet.cutDatabase('gw1');
    await eventually(
      async () => ((await readyz(gw1)) === 503 ? true : undefined),
      'gw1 /readyz 503',
      10_000,
    );
    expect(Date.now() - cutAt).toBeLessThan(10_000);
    expect(await readyz(gw2)).toBe(200);

    // A hook's word on a1 reaches the directory through the other gateway, and the stream
    // that was on the cut gateway sees it.
    const a1 = host('a1');
    const pane = (await presence('a1-agent-0'))?.providerSessionRef as string;
    const reportedAt = Date.now();
    const answer = await askProvider(a1.hookSock, {
      op: 'report',
      ...(await hookIdentity(a1, pane)),
      liveness: 'WORKING',
      event: 'PreToolUse',
    });
    const seen = await eventually(
      () =>
        watch.changes.find(
          (c) =>
            c.agentId === 'a1-agent-0' && c.at >= reportedAt && c.presence?.liveness === 'WORKING',
        ),
      'the stream resumed on gw2 sees a1-agent-0 WORKING',
      20_000,
    ).catch(async (error: Error) => {
      // Which side failed: the report (never written) or the stream (written, not seen).
      const written = await presence('a1-agent-0').catch((e: Error) => e.message);
      throw new Error(
        `${error.message}; hook answer ${JSON.stringify(answer)}; the directory now says ${JSON.stringify(written)}; the stream's last changes ${JSON.stringify(watch.changes.slice(-3))}; provider log: ${a1.providerLog().slice(-4000)}`,
      );
    });
    expect(seen.presence?.provider).toBe(a1.providerId);

    // A delivery sent with both gateways named lands once; the same key later, through
    // either gateway, returns the original.
    const sent = await deliver('a2-agent-0', 30_000, key);
    expect(sent).toMatchObject({ __typename: 'Delivery', replayed: false });
    expect(await deliver('a2-agent-0', 30_000, key, gw2)).toMatchObject({
      id: sent.id,
      replayed: true,
    });

    await fleet.healDatabase('gw1');
    await eventually(
      async () => ((await readyz(gw1)) === 200 ? true : undefined),
      'gw1 ready again',
      30_000,
    );
    expect(await deliver('a2-agent-0', 30_000, key, gw1)).toMatchObject({
      id: sent.id,
      replayed: true,
    });

    // The stream has every change since it opened, once, with no gap: a reference read of
    // the same range on the healed gateway is the same.
    await watch.stop();
    const seqs = watch.changes.map((c) => c.seq as string);
    const reference: string[] = [];
    const controller = new AbortController();
    for await (const change of presenceChanges(
      { url: gw1, token: fleet.adminToken, webSocketImpl: WebSocket, signal: controller.signal },
      fleet.goalId,
      undefined,
      (BigInt(seqs[0] as string) - 1n).toString(),
    )) {
      reference.push(change.seq as string);
      if (reference.length === seqs.length) break;
    }
    controller.abort();
    expect(seqs).toEqual(reference);
  }, 90_000);

  it('delay 200 ms and 5 % loss on every link: deliveries and streams still settle, slower', async () => {
    // A report now takes seconds (every hop 200 ms each way, a lost segment a retransmission
    // later): the providers' TTL is set above that, as it would be for such links.
    await Promise.all(fleet.agentHosts.map((h) => h.restartProvider('20s')));
    await fleet.impair({ delayMs: 200, lossPercent: 5 });
    try {
      const watch = await follow();
      const settledAgents = async () =>
        (await directoryRows())
          .filter((row) => row.presence?.liveness === 'IDLE' || row.presence?.liveness === 'DONE')
          .map((row) => row.agentId);
      const idle = await eventually(
        async () => {
          const agents = await settledAgents();
          return agents.length >= 3 ? agents : undefined;
        },
        'three idle stand-ins over the impaired links',
        30_000,
      );
      const targets = idle.slice(0, 3);
      const timeoutMs = 20_000;
      const sent = await Promise.all(targets.map((to) => deliver(to, timeoutMs)));
      // Past the deadline the keeper's write crosses the impaired link to the database, where a
      // lost segment costs a retransmission of a second or more.
      const finals = await Promise.all(sent.map((delivery) => settled(delivery.id, 15_000)));
      // Each settles typed; an idle stand-in typed its notice and worked on it.
      for (const final of finals) expect(final.outcomeChange.final).toBe(true);
      // Work is still seen across the impaired links. A lost frame at the wrong moment may leave
      // one burst unseen (that delivery expires) or a provider's report late past its TTL (its
      // target lapses and the delivery is UNREACHABLE): typed either way, never left pending.
      expect(finals.map((f) => f.outcome)).toContain('ACTIVITY_OBSERVED');
      for (const final of finals)
        expect(['ACTIVITY_OBSERVED', 'EXPIRED', 'UNREACHABLE']).toContain(final.outcome);
      // The stream carried each target's work to this host.
      for (const agentId of targets.filter((_, i) => finals[i]?.outcome === 'ACTIVITY_OBSERVED'))
        expect(
          watch.changes.some((c) => c.agentId === agentId && c.presence?.liveness === 'WORKING'),
        ).toBe(true);
      await watch.stop();
    } finally {
      await fleet.impair(null);
    }
  }, 120_000);
});
