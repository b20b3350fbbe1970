/**
 * The fleet (test/support/fleet.ts): a database host, two gateway hosts and three agent hosts
 * as network namespaces, real Postgres, real gateways, real tmux and `switchboard provider
 * tmux` on each agent host, every client configured with both gateways. One fleet for the
 * file; each fault is healed before the next test. Runs in the Postgres pass of the suite
 * (its Postgres is its own, on the database host); skipped, saying why, where namespaces
 * cannot be made.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { DirectoryDocument, type PresenceChange, presenceChanges } from '../src/client/index.ts';
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
function _follow() {
  const controller = new AbortController();
  const changes: (PresenceChange & { at: number })[] = [];
  const done = (async () => {
    for await (const change of presenceChanges(
      {
        url: fleet.url,
        token: fleet.adminToken,
        webSocketImpl: WebSocket,
        signal: controller.signal,
      },
      fleet.goalId,
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

async function _deliver(to: string, timeoutMs: number, key = uid('key')) {
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
    { SWITCHBOARD_TOKEN: fleet.adminToken, SWITCHBOARD_GOAL: fleet.goalId },
  );
  if (result.code !== 0 && !result.stdout) throw new Error(`send: ${result.stderr}`);
  return result.json();
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
  afterAll(async () => {
    await fleet?.teardown();
  });

  it('keeps the host in the location: each host its provider, the same pane id on two hosts two presences', async () => {
    const rows = await directoryRows();
    expect(rows).toHaveLength(6);
    for (const row of rows) {
      const at = fleet.hostOf.get(row.agentId) as AgentHost;
      expect(row.presence?.provider).toBe(at.providerId);
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
      listed.json().rows.map((row: any) => [row.agentId, row.presence.provider]),
    );
    expect(byAgent.get('a1-agent-0')).toBe(host('a1').providerId);
    expect(byAgent.get('a3-agent-0')).toBe(host('a3').providerId);

    // An agent registered once runs on another host: a new occupant, at a location of that host.
    const before = await presence('a1-agent-1');
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
  }, 60_000);
});
