/**
 * The `switchboard` binary, run as a subprocess against a real gateway: each verb's happy
 * path, its typed failures with their documented exit codes, and --json equal to the packet
 * the API answers.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asCaller, goalWithPeers, runCli, startGateway, tempHome } from './support/cli.ts';

let gw: Awaited<ReturnType<typeof startGateway>>;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => {
  await gw?.close();
});

describe('connection and identity', () => {
  it('whoami: --json is the `me` packet; human output is a table', async () => {
    const { goalId, peers } = await goalWithPeers(gw.t, 1);
    const peer = peers[0]!;
    const env = asCaller(gw.url, peer.token);
    const json = await runCli(['whoami', '--json'], { env });
    expect(json.code).toBe(0);
    const { me } = await gw.t.ok(
      '{ me { kind goalId agentId providerId credentialId goalIds } }',
      {},
      peer.token,
    );
    expect(json.json()).toEqual(me);
    const human = await runCli(['whoami'], { env });
    expect(human.code).toBe(0);
    expect(human.stdout).toContain(peer.agentId);
    expect(human.stdout).toContain(goalId);
  });

  it('fails with one line and the documented code: unreachable 10, bad token 3, no token 3, usage 2', async () => {
    const unreachable = await runCli(['whoami'], {
      env: { SWITCHBOARD_URL: 'http://127.0.0.1:9/graphql', SWITCHBOARD_TOKEN: 'secret-token-xyz' },
    });
    expect(unreachable.code).toBe(10);
    expect(unreachable.stderr.trim().split('\n')).toHaveLength(1);
    expect(unreachable.stderr).toContain('cannot reach http://127.0.0.1:9/graphql');
    expect(unreachable.stderr).toContain('SWITCHBOARD_URL');

    const bad = await runCli(['whoami', '--debug'], {
      env: { SWITCHBOARD_URL: gw.url, SWITCHBOARD_TOKEN: 'secret-token-xyz' },
    });
    expect(bad.code).toBe(3);
    expect(bad.stderr).not.toContain('secret-token-xyz');
    expect(bad.stderr).not.toMatch(/\n\s+at /); // no stack trace

    const none = await runCli(['whoami'], { env: { SWITCHBOARD_URL: gw.url } });
    expect(none.code).toBe(3);
    expect(none.stderr).toContain('switchboard login');

    const usage = await runCli(['directory', '--limit', 'many'], {
      env: { SWITCHBOARD_URL: gw.url },
    });
    expect(usage.code).toBe(2);
    const unknown = await runCli(['dance'], {});
    expect(unknown.code).toBe(2);
  });

  it('login stores a 0600 profile that later verbs use; the token is never printed', async () => {
    const { goalId, peers } = await goalWithPeers(gw.t, 1);
    const peer = peers[0]!;
    const home = tempHome();
    const login = await runCli(['login', 'builder', '--token-stdin', '--url', gw.url, '--json'], {
      env: { HOME: home },
      input: `${peer.token}\n`,
    });
    expect(login.code).toBe(0);
    expect(login.stdout).not.toContain(peer.token);
    const file = path.join(home, '.config', 'switchboard', 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const whoami = await runCli(['whoami', '--json'], { env: { HOME: home } });
    expect(whoami.json()).toMatchObject({ agentId: peer.agentId, goalId });
    const list = await runCli(['login', '--list', '--json'], { env: { HOME: home } });
    expect(list.stdout).not.toContain(peer.token);
    expect(list.json()).toMatchObject({
      current: 'builder',
      profiles: { builder: { url: gw.url, goal: goalId } },
    });
    const missing = await runCli(['whoami', '--profile', 'nobody'], { env: { HOME: home } });
    expect(missing.code).toBe(2);
  });
});

describe('directory', () => {
  it('--json equals the API packet; out of scope is a scope gap (4)', async () => {
    const { goalId, peers } = await goalWithPeers(gw.t, 3);
    const env = asCaller(gw.url, peers[0]!.token, goalId);
    const result = await runCli(['directory', '--json'], { env });
    expect(result.code).toBe(0);
    const packet = result.json();
    expect(packet.schemaVersion).toBe('peer_agent_directory_v0');
    expect(packet.rows.map((r: any) => r.agentId).sort()).toEqual(
      peers.map((p) => p.agentId).sort(),
    );
    const { directory } = await gw.t.ok(
      `query($goalId: ID!) { directory(goalId: $goalId) { goalId registeredAgentCount omittedRowCount limitations rows { agentId agentModel hostSurface work { todoId claimed lease } presence { liveness } } } }`,
      { goalId },
      peers[0]!.token,
    );
    expect(packet).toMatchObject(directory);

    const human = await runCli(['directory'], { env });
    expect(human.code).toBe(0);
    expect(human.stdout).toContain('3 registered agents');
    expect(human.stdout).toContain('not seen');
    expect(human.stdout).toMatch(/no presence provider/);

    const truncated = await runCli(['directory', '--limit', '1'], { env });
    expect(truncated.stdout).toContain('2 more rows omitted');

    const other = await goalWithPeers(gw.t, 1);
    const gap = await runCli(['directory', '--json', '--goal', other.goalId], { env });
    expect(gap.code).toBe(4);
    expect(gap.json().scopeGap).toMatchObject({ goalId: other.goalId });
    expect(gap.stderr).toContain('scope gap');
  });
});
