/**
 * The `switchboard` binary, run as a subprocess against a real gateway: each verb's happy
 * path, its typed failures with their documented exit codes, and --json equal to the packet
 * the API answers.
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DeliveryDocument,
  DiscoverDocument,
  EvidenceLedgerDocument,
  InboxDocument,
  ReportObservationDocument,
  RosterDocument,
  WhoamiDocument,
} from '../src/client/index.ts';
import {
  asCaller,
  eventually,
  issueCredential,
  registerProvider,
  runCli,
  startGateway,
  team,
  tempHome,
} from './support/cli.ts';

let gw: Awaited<ReturnType<typeof startGateway>>;
beforeAll(async () => {
  gw = await startGateway();
});
afterAll(async () => {
  await gw?.close();
});

describe('connection and identity', () => {
  it('whoami: --json is the `me` packet; human output is a table', async () => {
    const { goalId, peers } = await team(gw.t, ['a']);
    const peer = peers[0]!;
    const env = asCaller(gw.url, peer.token);
    const json = await runCli(['whoami', '--json'], { env });
    expect(json.code).toBe(0);
    const { me } = await gw.t.ok(WhoamiDocument, {}, peer.token);
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
    const { goalId, peers } = await team(gw.t, ['a']);
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
    const { goalId, peers } = await team(gw.t, ['a', 'b', 'c']);
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

    const other = await team(gw.t, ['a']);
    const gap = await runCli(['directory', '--json', '--goal', other.goalId], { env });
    expect(gap.code).toBe(4);
    expect(gap.json().scopeGap).toMatchObject({ goalId: other.goalId });
    expect(gap.stderr).toContain('scope gap');
  });
});

/** The API's own answer to `document`, for comparing with --json. */
const api = (document: { toString(): string }, variables: Record<string, unknown>, token: string) =>
  gw.t.ok(String(document), variables, token);

/** Waits (with a deadline) until `predicate` holds of the child's stderr. */
function stderrSays(predicate: (stderr: string) => boolean) {
  let resolve: () => void = () => {};
  const seen = new Promise<void>((r) => {
    resolve = r;
  });
  return { onStderr: (all: string) => predicate(all) && resolve(), seen };
}

/** A report to the restarted gateway (the first try may hit a pooled socket of the old one). */
const reportAfterRestart = (report: () => Promise<unknown>) =>
  eventually(
    () =>
      report().then(
        () => true,
        () => undefined,
      ),
    'a report to the restarted gateway',
  );

async function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

describe('send, inbox, next, read, resolve, release, delivery', () => {
  it('a request travels from sender to recipient; --json equals the API packets', async () => {
    const { goalId, peers } = await team(gw.t, ['a', 'b']);
    const [a, b] = [peers[0]!, peers[1]!];
    const asA = asCaller(gw.url, a.token, goalId);
    const asB = asCaller(gw.url, b.token, goalId);

    const sent = await runCli(
      ['send', '--to', b.agentId, '--subject', 'review please', '--body', 'see src/x.ts', '--json'],
      { env: asA },
    );
    expect(sent.code).toBe(0);
    const delivery = sent.json();
    expect(delivery).toMatchObject({
      __typename: 'Delivery',
      outcome: 'SUBMITTED',
      to: b.agentId,
      from: a.agentId,
    });
    expect(delivery.limitations).toContain('ACTIVITY_NOT_OBSERVABLE');

    const shown = await runCli(['delivery', delivery.id, '--json'], { env: asA });
    expect(shown.code).toBe(0);
    expect(shown.json()).toEqual(
      (await api(DeliveryDocument, { id: delivery.id }, a.token)).delivery,
    );
    const human = await runCli(['delivery', delivery.id], { env: asA });
    expect(human.stdout).toContain('SUBMITTED');
    expect(human.stdout).toContain('activity cannot be observed');

    // body from standard input, with `-`
    const piped = await runCli(['send', '--to', b.agentId, '--subject', 'piped', '-', '--json'], {
      env: asA,
      input: 'body from stdin',
    });
    expect(piped.code).toBe(0);

    const inbox = await runCli(['inbox', '--json'], { env: asB });
    expect(inbox.code).toBe(0);
    expect(inbox.json()).toEqual((await api(InboxDocument, { goalId }, b.token)).inbox);
    expect(inbox.json().messages.map((m: any) => m.subject)).toEqual(['piped', 'review please']);
    expect((await runCli(['inbox'], { env: asB })).stdout).toContain('2 unread, 2 unprocessed');

    const next = await runCli(['next', '--json'], { env: asB });
    expect(next.code).toBe(0);
    expect(next.json()).toMatchObject({
      __typename: 'TakenMessage',
      repeated: false,
      message: { id: delivery.id, body: 'see src/x.ts' },
    });
    const again = await runCli(['next'], { env: asB });
    expect(again.stdout).toContain('still active');
    expect((await runCli(['release', delivery.id], { env: asB })).code).toBe(0);
    expect((await runCli(['resolve', '--active'], { env: asB })).code).toBe(12); // released: none active
    expect((await runCli(['read', delivery.id, '--json'], { env: asB })).code).toBe(0);
    expect((await runCli(['next', '--json'], { env: asB })).json().message.id).toBe(delivery.id);
    expect((await runCli(['resolve', '--active'], { env: asB })).stdout).toContain('processed');
    const second = await runCli(['next', '--json'], { env: asB });
    expect(second.json().message.body).toBe('body from stdin');
    expect((await runCli(['resolve', second.json().message.id], { env: asB })).code).toBe(0);
    const empty = await runCli(['next', '--json'], { env: asB });
    expect(empty.code).toBe(12);
    expect(empty.json()).toMatchObject({ __typename: 'InboxEmpty' });

    const receipt = (await runCli(['delivery', delivery.id, '--json'], { env: asA })).json();
    expect(receipt.receipt.processedAt).not.toBeNull();
  });

  it('typed refusals: NOT_READY and AMBIGUOUS_TARGET 5, UNKNOWN_TARGET 11, conflict 9, BLOCKED 5, scope gap 4', async () => {
    const { goalId, peers } = await team(gw.t, ['a', 'b', 'c']);
    const [a, b, c] = [peers[0]!, peers[1]!, peers[2]!];
    const asA = asCaller(gw.url, a.token, goalId);
    const send = (...extra: string[]) =>
      runCli(['send', '--subject', 's', '--body', 'b', '--json', ...extra], { env: asA });

    const notReady = await send();
    expect(notReady.code).toBe(5);
    expect(notReady.json()).toMatchObject({
      reason: 'NOT_READY',
      notReadyReason: 'NO_CONNECTED_PEER',
    });
    expect(notReady.stderr).toContain('NOT_READY');

    expect((await runCli(['peer', 'add', b.agentId], { env: asA })).code).toBe(0);
    expect((await runCli(['peer', 'add', c.agentId], { env: asA })).code).toBe(0);
    const ambiguous = await send();
    expect(ambiguous.code).toBe(5);
    expect(ambiguous.json().choices.sort()).toEqual([b.agentId, c.agentId].sort());
    expect(ambiguous.stderr).toContain('--to');

    const primary = await runCli(['peer', 'primary', c.agentId, '--json'], { env: asA });
    expect(primary.json()).toMatchObject({ __typename: 'Roster', primaryPeer: c.agentId });
    const peersOut = await runCli(['peers', '--json'], { env: asA });
    expect(peersOut.json()).toEqual((await api(RosterDocument, { goalId }, a.token)).roster);
    const toPrimary = await send();
    expect(toPrimary.code).toBe(0);
    expect(toPrimary.json().to).toBe(c.agentId);

    const unknown = await send('--to', 'nobody-here');
    expect(unknown.code).toBe(11);

    await send('--to', b.agentId, '--key', 'same-key');
    const conflict = await runCli(
      [
        'send',
        '--to',
        b.agentId,
        '--subject',
        'other',
        '--body',
        'b',
        '--key',
        'same-key',
        '--json',
      ],
      { env: asA },
    );
    expect(conflict.code).toBe(9);
    expect(conflict.json()).toMatchObject({
      __typename: 'IdempotencyConflict',
      differingFields: ['SUBJECT'],
    });
    const replay = await send('--to', b.agentId, '--key', 'same-key');
    expect(replay.code).toBe(0);
    expect(replay.json().replayed).toBe(true);

    const provider = await registerProvider(gw.t, [goalId]);
    await provider.report([{ goalId, agentId: b.agentId, liveness: 'BLOCKED' }]);
    const blocked = await send('--to', b.agentId);
    expect(blocked.code).toBe(5);
    expect(blocked.json()).toMatchObject({ reason: 'AGENT_BLOCKED' });

    const other = await team(gw.t, ['a']);
    const gap = await send('--to', other.peers[0]!.agentId, '--goal', other.goalId);
    expect(gap.code).toBe(4);

    const discover = await runCli(['discover', '--json'], { env: asA });
    expect(discover.json()).toEqual((await api(DiscoverDocument, { goalId }, a.token)).discover);
    expect((await runCli(['peer', 'remove', b.agentId], { env: asA })).code).toBe(0);
    expect((await runCli(['delivery', 'no-such-delivery'], { env: asA })).code).toBe(11);
    expect((await runCli(['send', '--to', b.agentId, '--subject', 's'], { env: asA })).code).toBe(
      2,
    );
  });

  it('send --wait: ACTIVITY_OBSERVED 0, STALLED 7, EXPIRED 6', async () => {
    const { goalId, peers } = await team(gw.t, ['a', 'b']);
    const [a, b] = [peers[0]!, peers[1]!];
    const asA = asCaller(gw.url, a.token, goalId);
    const provider = await registerProvider(gw.t, [goalId]);
    await provider.report([{ goalId, agentId: b.agentId, liveness: 'IDLE' }]);
    const sendWait = (...extra: string[]) =>
      runCli(
        ['send', '--to', b.agentId, '--subject', 's', '--body', 'b', '--wait', '--json', ...extra],
        {
          env: asA,
        },
      );

    const stalled = await sendWait('--window', '300ms', '--timeout', '60s');
    expect(stalled.code).toBe(7);
    expect(stalled.json()).toMatchObject({ __typename: 'Delivery', outcome: 'STALLED' });
    expect(stalled.stderr).toContain('STALLED');

    const expired = await sendWait('--timeout', '400ms');
    expect(expired.code).toBe(6);
    expect(expired.json()).toMatchObject({ outcome: 'EXPIRED' });

    const observed = sendWait('--window', '60s', '--timeout', '60s');
    // once the request is in b's inbox (submitted, pinned), b starts working
    await eventually(
      async () => {
        const { inbox } = await api(InboxDocument, { goalId, unprocessed: true }, b.token);
        return inbox.messages.length === 3 ? true : undefined;
      },
      'the third delivery in the inbox',
      10_000,
    );
    await provider.report([{ goalId, agentId: b.agentId, liveness: 'WORKING' }]);
    const result = await withDeadline(observed, 15_000, 'send --wait to see activity');
    expect(result.code).toBe(0);
    expect(result.json()).toMatchObject({ outcome: 'ACTIVITY_OBSERVED' });
  }, 30_000);
});

describe('wait', () => {
  it('keeps waiting across a gateway restart, then exits SATISFIED (0) naming the agent', async () => {
    const { goalId, peers } = await team(gw.t, ['a', 'b']);
    const [a, b] = [peers[0]!, peers[1]!];
    const provider = await registerProvider(gw.t, [goalId]);
    await provider.report([{ goalId, agentId: b.agentId, liveness: 'WORKING' }]);
    // each says "waiting for … (wait <id>)" on stderr once its wait is pending
    const jsonWaiting = stderrSays((s) => s.includes('waiting for'));
    const humanWaiting = stderrSays((s) => s.includes('waiting for'));
    const child = runCli(['wait', b.agentId, '--until', 'done', '--timeout', '60s', '--json'], {
      env: asCaller(gw.url, a.token, goalId),
      onStderr: jsonWaiting.onStderr,
      timeoutMs: 30_000,
    });
    const human = runCli(['wait', b.agentId, '--until', 'done', '--timeout', '60s'], {
      env: asCaller(gw.url, a.token, goalId),
      onStderr: humanWaiting.onStderr,
      timeoutMs: 30_000,
    });
    const waiting = { seen: Promise.all([jsonWaiting.seen, humanWaiting.seen]) };
    await withDeadline(waiting.seen, 10_000, 'the wait to be pending');
    await gw.stop();
    await gw.start();
    await reportAfterRestart(() =>
      provider.report([{ goalId, agentId: b.agentId, liveness: 'DONE' }]),
    );
    const result = await child;
    expect(result.code).toBe(0);
    expect(result.json()).toMatchObject({
      __typename: 'Wait',
      status: 'SATISFIED',
      resolution: { agentId: b.agentId, liveness: 'DONE' },
    });
    const humanResult = await human;
    expect(humanResult.code).toBe(0);
    expect(humanResult.stdout).toContain(`SATISFIED: ${b.agentId} is DONE`);
  }, 40_000);

  it('TIMED_OUT 6, NOT_RUNNING 8, several agents (the first wins), usage 2', async () => {
    const { goalId, peers } = await team(gw.t, ['a', 'b', 'c']);
    const [a, b, c] = [peers[0]!, peers[1]!, peers[2]!];
    const env = asCaller(gw.url, a.token, goalId);
    const provider = await registerProvider(gw.t, [goalId]);
    await provider.report([{ goalId, agentId: b.agentId, liveness: 'IDLE' }]);

    const timedOut = await runCli(
      ['wait', b.agentId, '--until', 'done', '--timeout', '500ms', '--json'],
      { env },
    );
    expect(timedOut.code).toBe(6);
    expect(timedOut.json()).toMatchObject({ status: 'TIMED_OUT' });

    const notRunning = await runCli(['wait', c.agentId, '--timeout', '5s'], { env });
    expect(notRunning.code).toBe(8);
    expect(notRunning.stderr).toContain('NO_PRESENCE_AT_START');

    await provider.report([
      {
        goalId,
        agentId: c.agentId,
        liveness: 'IDLE',
        providerSessionRef: 'w1:p2',
        occupantRef: 'pane-2/agent',
      },
    ]);
    const waiting = stderrSays((s) => s.includes('waiting for'));
    const both = runCli(['wait', b.agentId, c.agentId, '--until', 'working', '--timeout', '30s'], {
      env,
      onStderr: waiting.onStderr,
    });
    await withDeadline(waiting.seen, 10_000, 'the wait to be pending');
    await provider.report([
      {
        goalId,
        agentId: c.agentId,
        liveness: 'WORKING',
        providerSessionRef: 'w1:p2',
        occupantRef: 'pane-2/agent',
      },
    ]);
    const won = await both;
    expect(won.code).toBe(0);
    expect(won.stdout).toContain(`SATISFIED: ${c.agentId} is WORKING`);

    expect((await runCli(['wait', b.agentId], { env })).code).toBe(2);
    expect(
      (await runCli(['wait', b.agentId, '--timeout', '1s', '--until', 'asleep'], { env })).code,
    ).toBe(2);
    expect((await runCli(['wait', 'nobody', '--timeout', '1s'], { env })).code).toBe(11);
  }, 30_000);

  it('--until offers exactly the liveness values the gateway accepts in a wait', async () => {
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

    const refused = await runCli(['wait', b.agentId, '--until', 'asleep', '--timeout', '1s'], {
      env: asCaller(gw.url, a.token, goalId),
    });
    expect(refused.code).toBe(2);
    const offered = /--until takes liveness values \(([^)]*)\)/.exec(refused.stderr)?.[1];
    expect(offered?.toUpperCase().split(',').sort()).toEqual(accepted.sort());
  });

  it('every enum flag offers the values of its gateway enum and takes them in either case', async () => {
    const { goalId, peers } = await team(gw.t);
    const env = asCaller(gw.url, peers[0]!.token, goalId);
    const values = async (type: string) => {
      const { __type } = await gw.t.ok<{ __type: { enumValues: { name: string }[] } }>(
        `{ __type(name: "${type}") { enumValues { name } } }`,
      );
      return __type.enumValues.map((v) => v.name).sort();
    };
    for (const [args, flag, type] of [
      [['send', '--subject', 's', '--body', 'b'], '--kind', 'DeliveryKind'],
      [['observe', peers[1]!.agentId], '--source', 'ObservationSource'],
      [['todo', 'create', '--title', 't'], '--class', 'TaskClass'],
      [
        ['gate', 'open', '--granularity', 'action', '--key', 'k', '--reason', 'r'],
        '--kind',
        'GateKind',
      ],
      [
        ['workspace', 'declare', '--repository', 'git:github.com/a/b', '--revision', 'abc'],
        '--worktree',
        'WorktreeKind',
      ],
      [['admin', 'token', 'list'], '--kind', 'CallerKind'],
    ] as const) {
      const refused = await runCli([...args, flag, 'no-such-value'], { env });
      expect(refused.code, `${args.join(' ')} ${flag}`).toBe(2);
      const offered = /expected one of ([^\n]*)/.exec(refused.stderr)?.[1];
      expect(offered?.toUpperCase().split(', ').sort(), `${args[0]} ${flag}`).toEqual(
        await values(type),
      );
      // either case: the flag takes it (whatever the gateway then answers)
      const [first] = await values(type);
      for (const value of [first!.toLowerCase(), first!]) {
        const taken = await runCli([...args, flag, value, '--json'], { env });
        expect(taken.json().error?.reason ?? '', `${flag} ${value}`).not.toMatch(/^commander\./);
      }
    }
  }, 60_000);
});

describe('evidence-log, record, checkpoint', () => {
  it('own ledger with --json equal to the packet; typed failures', async () => {
    const { goalId, peers } = await team(gw.t, ['a', 'b']);
    const [a, b] = [peers[0]!, peers[1]!];
    const env = asCaller(gw.url, a.token, goalId);
    const recorded = await runCli(
      [
        'record',
        '--kind',
        'validation',
        '--status',
        'passed',
        '--summary',
        'unit tests green',
        '--ref',
        'test/x.test.ts',
        '--json',
      ],
      { env },
    );
    expect(recorded.code).toBe(0);
    expect(recorded.json()).toMatchObject({ __typename: 'LedgerEvent', eventKind: 'VALIDATION' });

    const log = await runCli(['evidence-log', '--json'], { env });
    expect(log.code).toBe(0);
    const packet = log.json();
    const { evidenceLedger } = await api(
      EvidenceLedgerDocument,
      { goalId, agentId: a.agentId, limit: 30, includeOtherAgentFrontier: true },
      a.token,
    );
    expect({ ...packet, generatedAt: null }).toEqual({ ...evidenceLedger, generatedAt: null });
    expect(packet.events.map((e: any) => e.summary)).toContain('unit tests green');
    const thin = await runCli(['evidence-log', '--thin', '--limit', '30'], { env });
    expect(thin.stdout).toContain('VALIDATION/passed');
    expect(thin.stdout).toContain(packet.digest);

    const checkpoint = await runCli(
      ['checkpoint', '--digest', packet.digest, '--kind', 'preserved', '--delta', 'plan holds'],
      { env },
    );
    expect(checkpoint.code).toBe(0);
    const mismatch = await runCli(
      ['checkpoint', '--digest', `sha256:${'0'.repeat(64)}`, '--kind', 'preserved'],
      { env },
    );
    expect(mismatch.code).toBe(5);

    const foreign = await runCli(['evidence-log', '--agent', b.agentId, '--json'], { env });
    expect(foreign.code).toBe(4);
    expect(foreign.json().scopeGap).toMatchObject({ reason: 'NOT_OWN_LEDGER' });
    const vague = await runCli(['evidence-log', '--agent', 'codex'], { env });
    expect(vague.code).toBe(2);
    expect(vague.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('work graph: todo, frontier, gate, lease, vision', () => {
  it('a todo through its life, with typed refusals and their codes', async () => {
    const { goalId, peers } = await team(gw.t, ['a', 'b']);
    const [a, b] = [peers[0]!, peers[1]!];
    const asA = asCaller(gw.url, a.token, goalId);
    const asB = asCaller(gw.url, b.token, goalId);
    const admin = asCaller(gw.url, gw.adminToken, goalId);

    const created = await runCli(
      ['todo', 'create', '--title', 'write the CLI', '--priority', '5', '--json'],
      { env: asA },
    );
    expect(created.code).toBe(0);
    const todoId = created.json().id;
    const gated = await runCli(
      ['todo', 'create', '--title', 'ship it', '--scope', 'PRODUCTION:LANE:deploy', '--json'],
      { env: asA },
    );
    expect(gated.code).toBe(0);

    expect((await runCli(['todo', 'claim', todoId], { env: asA })).code).toBe(0);
    const taken = await runCli(['todo', 'claim', todoId, '--json'], { env: asB });
    expect(taken.code).toBe(5);
    expect(taken.json()).toMatchObject({ __typename: 'ClaimedByOther', owner: a.agentId });
    expect((await runCli(['todo', 'claim', 'no-such-todo'], { env: asA })).code).toBe(11);

    const list = await runCli(['todo', 'list', '--status', 'open', '--json'], { env: asA });
    expect(list.json().rows.map((t: any) => t.id)).toContain(todoId);
    const show = await runCli(['todo', 'show', todoId], { env: asA });
    expect(show.stdout).toContain('CLAIM');

    const lease = await runCli(['lease', 'acquire', todoId, '--ttl', '10m', '--json'], {
      env: asA,
    });
    expect(lease.code).toBe(0);
    const fence = lease.json().fence;
    expect(
      (await runCli(['lease', 'renew', todoId, '--fence', fence, '--ttl', '10m'], { env: asA }))
        .code,
    ).toBe(0);
    expect(
      (await runCli(['lease', 'release', todoId, '--fence', `${fence}0`], { env: asA })).code,
    ).toBe(5);
    expect((await runCli(['lease', 'release', todoId, '--fence', fence], { env: asA })).code).toBe(
      0,
    );

    const opened = await runCli(
      [
        'gate',
        'open',
        '--kind',
        'production',
        '--granularity',
        'lane',
        '--key',
        'deploy',
        '--reason',
        'ship v2?',
        '--json',
      ],
      { env: asA },
    );
    expect(opened.code).toBe(0);
    const frontier = await runCli(['frontier', '--json'], { env: asA });
    const row = frontier.json().rows.find((r: any) => r.todo.id === gated.json().id);
    expect(row).toMatchObject({ runnable: false });
    expect(row.guards.map((g: any) => g.kind)).toContain('DECISION_SCOPE');
    expect((await runCli(['gate', 'list'], { env: asA })).stdout).toContain('ship v2?');
    expect(
      (await runCli(['gate', 'resolve', opened.json().id, '--decision', 'granted'], { env: asA }))
        .code,
    ).toBe(4);
    expect(
      (await runCli(['gate', 'resolve', opened.json().id, '--decision', 'granted'], { env: admin }))
        .code,
    ).toBe(0);

    expect(
      (
        await runCli(
          [
            'vision',
            'set',
            '--role-scope',
            'src/cli',
            '--vision',
            'ship the CLI',
            '--acceptance',
            'tests green',
            '--replan-trigger',
            'schema change',
          ],
          { env: asA },
        )
      ).code,
    ).toBe(0);
    expect(
      (await runCli(['vision', 'show', '--agent', a.agentId, '--json'], { env: asB })).json()
        .rows[0],
    ).toMatchObject({
      roleScope: 'src/cli',
    });

    const done = await runCli(['todo', 'complete', todoId, '--ref', 'test/cli.test.ts', '--json'], {
      env: asA,
    });
    expect(done.json()).toMatchObject({ __typename: 'CompletedTodo', todo: { status: 'DONE' } });
    const again = await runCli(['todo', 'complete', todoId, '--ref', 'x'], { env: asA });
    expect(again.code).toBe(5);
    expect(again.stderr).toContain('refused');
    const closed = await runCli(['todo', 'close', gated.json().id, '--reason', 'not needed'], {
      env: asA,
    });
    expect(closed.code).toBe(0);
    expect((await runCli(['attention', '--json'], { env: asA })).code).toBe(0);
  }, 120_000); // some twenty CLI runs: generous on a loaded machine
});

describe('admin, observe, help, completion', () => {
  it('an operator sets up a goal, agents and a token the agent then uses', async () => {
    const goalId = `goal-${Math.random().toString(36).slice(2, 10)}`;
    const admin = { SWITCHBOARD_URL: gw.url, SWITCHBOARD_TOKEN: gw.adminToken };
    expect(
      (await runCli(['admin', 'goal', 'create', goalId, '--title', 'CLI goal'], { env: admin }))
        .code,
    ).toBe(0);
    expect(
      (await runCli(['admin', 'goal', 'create', goalId, '--title', 'again'], { env: admin })).code,
    ).toBe(5);
    expect(
      (await runCli(['admin', 'agent', 'register', 'builder', '--goal', goalId], { env: admin }))
        .code,
    ).toBe(0);
    expect(
      (await runCli(['admin', 'agent', 'register', 'watcher', '--goal', goalId], { env: admin }))
        .code,
    ).toBe(0);
    const issued = await runCli(
      ['admin', 'token', 'issue', '--kind', 'peer', '--goal', goalId, '--agent', 'builder'],
      {
        env: admin,
      },
    );
    expect(issued.code).toBe(0);
    const token = issued.stdout.trim();
    expect(token).not.toContain('\n');
    expect(issued.stderr).not.toContain(token);
    const me = await runCli(['whoami', '--json'], {
      env: { SWITCHBOARD_URL: gw.url, SWITCHBOARD_TOKEN: token },
    });
    expect(me.json()).toMatchObject({ kind: 'PEER', agentId: 'builder', goalId });
    const agents = await runCli(['admin', 'agent', 'list', '--goal', goalId, '--json'], {
      env: admin,
    });
    expect(
      agents
        .json()
        .rows.map((r: any) => r.agentId)
        .sort(),
    ).toEqual(['builder', 'watcher']);
    expect(
      (await runCli(['admin', 'goal', 'list', '--json'], { env: admin }))
        .json()
        .map((g: any) => g.id),
    ).toContain(goalId);

    // a PEER may not register agents: FORBIDDEN → 4
    const forbidden = await runCli(['admin', 'agent', 'register', 'x', '--goal', goalId], {
      env: { SWITCHBOARD_URL: gw.url, SWITCHBOARD_TOKEN: token },
    });
    expect(forbidden.code).toBe(4);

    const observe = await runCli(['observe', 'watcher', '--json'], {
      env: { SWITCHBOARD_URL: gw.url, SWITCHBOARD_TOKEN: token },
    });
    expect(observe.code).toBe(8);
    expect(observe.json()).toMatchObject({ __typename: 'ObservationGap', reason: 'NO_PROVIDER' });

    const credential = (
      await runCli(
        [
          'admin',
          'token',
          'issue',
          '--kind',
          'peer',
          '--goal',
          goalId,
          '--agent',
          'watcher',
          '--json',
        ],
        { env: admin },
      )
    ).json();
    expect(
      (await runCli(['admin', 'token', 'revoke', credential.credential.id], { env: admin })).code,
    ).toBe(0);
    const revoked = await runCli(['whoami'], {
      env: { SWITCHBOARD_URL: gw.url, SWITCHBOARD_TOKEN: credential.token },
    });
    expect(revoked.code).toBe(3);
    expect(
      (await runCli(['admin', 'agent', 'retire', 'watcher', '--goal', goalId], { env: admin }))
        .code,
    ).toBe(0);
  });

  it('help on every verb carries an example; exit codes and completion scripts print', async () => {
    const codes = await runCli(['help', 'exit-codes', '--json']);
    expect(codes.json().map((c: any) => c.code)).toEqual([
      0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
    ]);
    const completion = await runCli(['completion', 'bash']);
    expect(completion.stdout).toContain('complete -o default -F _switchboard_complete switchboard');
    expect((await runCli(['completion', 'zsh'])).stdout).toContain('bashcompinit');
    const verbs = [
      'whoami',
      'login',
      'logout',
      'directory',
      'attention',
      'observe',
      'discover',
      'peers',
      'peer',
      'send',
      'delivery',
      'inbox',
      'next',
      'read',
      'resolve',
      'release',
      'wait',
      'evidence-log',
      'record',
      'checkpoint',
      'todo list',
      'todo show',
      'todo create',
      'todo claim',
      'todo release',
      'todo complete',
      'todo supersede',
      'todo defer',
      'todo resume',
      'todo close',
      'frontier',
      'gate list',
      'gate open',
      'gate resolve',
      'lease acquire',
      'lease renew',
      'lease release',
      'vision show',
      'vision set',
      'admin goal create',
      'admin goal list',
      'admin agent register',
      'admin agent list',
      'admin agent retire',
      'admin token issue',
      'admin token revoke',
      'admin delegate',
      'todo handoff',
      'todo packet',
      'workspace declare',
      'replan owed',
      'goal closure',
      'goal close',
      'completion',
    ];
    const missing: string[] = [];
    // a few at a time: the machine has 2 cores
    for (let i = 0; i < verbs.length; i += 4)
      await Promise.all(
        verbs.slice(i, i + 4).map(async (verb) => {
          const help = await runCli([...verb.split(' '), '--help']);
          if (help.code !== 0 || !/Examples?:\n\s+\$ switchboard/.test(help.stdout))
            missing.push(verb);
        }),
      );
    expect(missing).toEqual([]);
  }, 60_000);
});

describe('frontier --runnable, --held and --limit', () => {
  it('select rows of the whole frontier, say how many are left out, and refuse a bad limit', async () => {
    const { goalId, a, b } = await team(gw.t, ['a', 'b']);
    const asA = asCaller(gw.url, a.token, goalId);
    const asB = asCaller(gw.url, b.token, goalId);
    const create = async (title: string) =>
      (await runCli(['todo', 'create', '--title', title, '--json'], { env: asA })).json().id;
    const ids = [await create('one'), await create('two'), await create('three')];
    expect((await runCli(['todo', 'claim', ids[0]], { env: asB })).code).toBe(0);

    const ready = await runCli(['frontier', '--runnable', '--limit', '1', '--json'], { env: asA });
    expect(ready.code).toBe(0);
    expect(ready.json()).toMatchObject({ rowCount: 3, runnableCount: 2, omittedRowCount: 2 });
    expect(ready.json().rows.map((r: any) => r.runnable)).toEqual([true]);
    const held = await runCli(['frontier', '--held'], { env: asA });
    expect(held.stdout).toContain(ids[0]);
    expect(held.stdout).not.toContain(ids[1]);
    expect(held.stdout).toContain('2 runnable of 3');
    expect(held.stdout).toContain('2 more rows left out');
    const both = await runCli(['frontier', '--runnable', '--held'], { env: asA });
    expect(both.code).not.toBe(0);
    expect(both.stderr).toContain('cannot be used with');
    const tooMany = await runCli(['frontier', '--limit', '5001'], { env: asA });
    expect(tooMany.code).not.toBe(0);
    expect(tooMany.stderr).toContain('limit must be an integer from 0 to 5000');
  });
});

describe('the guards a todo names: repository, write scope, capability, dependency, merged PR', () => {
  it('todo create --repository, todo depends, capabilities set and pr merged, each read back by the frontier', async () => {
    const { goalId, a } = await team(gw.t, ['a']);
    const env = asCaller(gw.url, a.token, goalId);
    const cli = (...args: string[]) => runCli([...args, '--json'], { env });
    const frontierRow = async (id: string) =>
      (await cli('frontier')).json().rows.find((r: any) => r.todo.id === id);

    const writes = await cli(
      'todo',
      'create',
      '--title',
      'fix login',
      '--repository',
      'https://github.com/Acme/web.git',
      '--write-scope',
      'src/auth',
    );
    expect(writes.code).toBe(0);
    expect(writes.json()).toMatchObject({
      taskRepository: 'git:github.com/Acme/web',
      writeScope: ['src/auth'],
    });
    const first = writes.json().id;
    const secret = await cli(
      'todo',
      'create',
      '--title',
      'x',
      '--repository',
      'https://me:pw@github.com/a/b',
    );
    expect(secret.code).toBe(2);
    expect(secret.json().error).toMatchObject({ code: 'USAGE', reason: 'BAD_USER_INPUT' });

    const second = (await cli('todo', 'create', '--title', 'then deploy')).json().id;
    const depends = await cli('todo', 'depends', second, first);
    expect(depends.code).toBe(0);
    expect(depends.json()).toMatchObject({ id: second, dependsOn: [first] });
    expect((await frontierRow(second)).guards.map((g: any) => g.kind)).toContain('DEPENDENCY');
    const cycle = await cli('todo', 'depends', first, second);
    expect(cycle.code).toBe(2);
    expect((await cli('todo', 'show', first)).json().todo.dependsOn).toEqual([]);
    expect((await cli('todo', 'depends', second)).code).toBe(2); // neither todos nor --none
    expect((await cli('todo', 'depends', 'no-such-todo', first)).code).toBe(11);
    expect((await cli('todo', 'depends', second, '--none')).json().dependsOn).toEqual([]);

    const gpu = (await cli('todo', 'create', '--title', 'train', '--capability', 'gpu')).json().id;
    expect((await frontierRow(gpu)).guards.map((g: any) => g.kind)).toEqual(['CAPABILITY']);
    const caps = await cli('capabilities', 'set', 'gpu', 'typescript');
    expect(caps.code).toBe(0);
    expect(caps.json()).toMatchObject({
      __typename: 'AgentCapabilities',
      capabilities: ['gpu', 'typescript'],
    });
    expect(await frontierRow(gpu)).toMatchObject({ runnable: true, guards: [] });
    expect((await cli('capabilities', 'set', 'not a name')).code).toBe(2);
    expect((await cli('capabilities', 'set', '--none')).json().capabilities).toEqual([]);

    const waiting = (
      await cli(
        'todo',
        'create',
        '--title',
        'after merge',
        '--resume-when',
        'pr_merged:acme/web#42',
      )
    ).json().id;
    expect((await frontierRow(waiting)).guards.map((g: any) => g.kind)).toEqual([
      'RESUME_CONDITION',
    ]);
    const merged = await cli('pr', 'merged', 'git:github.com/acme/web', '42');
    expect(merged.code).toBe(0);
    expect(merged.json()).toMatchObject({
      __typename: 'ExternalEvent',
      replayed: false,
      waitingTodoIds: [waiting],
      fact: { kind: 'PR_MERGED', repository: 'git:github.com/acme/web', ref: '42' },
    });
    expect(await frontierRow(waiting)).toMatchObject({ runnable: true, guards: [] });
    expect((await cli('pr', 'merged', 'git:github.com/acme/web', '#42')).json().replayed).toBe(
      true,
    );
    const badTime = await cli(
      'pr',
      'merged',
      'git:github.com/acme/web',
      '43',
      '--observed-at',
      'yesterday',
    );
    expect(badTime.code).toBe(2);
    const human = await runCli(['pr', 'merged', 'git:github.com/acme/web', '42'], { env });
    expect(human.stdout).toContain('git:github.com/acme/web#42 merged (recorded before');
  }, 60_000);
});

describe('handoffs, workspaces, replan obligations, goal closure', () => {
  it('todo handoff and packet, workspace declare, replan owed, goal closure and close, with their codes', async () => {
    const { goalId, peers } = await team(gw.t, ['a', 'b']);
    const [a, b] = [peers[0]!, peers[1]!];
    const asA = asCaller(gw.url, a.token, goalId);
    const asB = asCaller(gw.url, b.token, goalId);
    const steward = (await issueCredential(gw.t, { kind: 'STEWARD', goalIds: [goalId] })).token;
    const asSteward = asCaller(gw.url, steward, goalId);
    const created = await runCli(
      ['todo', 'create', '--title', 'port the frontier', '--capability', 'node', '--json'],
      { env: asA },
    );
    const todoId = created.json().id;
    expect((await runCli(['todo', 'claim', todoId], { env: asA })).code).toBe(0);

    const declared = await runCli(
      [
        'workspace',
        'declare',
        '--repository',
        'https://github.com/acme/app.git',
        '--worktree',
        'linked',
        '--revision',
        'abcdef1234',
        '--json',
      ],
      { env: asA },
    );
    expect(declared.code).toBe(0);
    expect(declared.json()).toMatchObject({
      agentId: a.agentId,
      workspace: { repository: 'git:github.com/acme/app', worktree: 'LINKED' },
    });
    const badRevision = await runCli(
      [
        'workspace',
        'declare',
        '--repository',
        'git:github.com/acme/app',
        '--worktree',
        'linked',
        '--revision',
        'main',
      ],
      { env: asA },
    );
    expect(badRevision.code).toBe(2);

    const handoff = ['todo', 'handoff', todoId, '--to', b.agentId, '--next', 'finish the port'];
    const packet = [
      '--validation',
      'both drivers green',
      '--stop',
      'done',
      '--omitted',
      'the vendor notes',
    ];
    const lacking = await runCli([...handoff, ...packet, '--json'], { env: asA });
    expect(lacking.code).toBe(5);
    expect(lacking.json()).toMatchObject({
      __typename: 'HandoffRefused',
      refusal: 'RECEIVER_LACKS_CAPABILITY',
      capability: 'node',
    });
    await gw.t.ok(
      `mutation($input: SetCapabilitiesInput!) { setCapabilities(input: $input) { __typename } }`,
      { input: { goalId, capabilities: ['node'] } },
      b.token,
    );
    const handed = await runCli([...handoff, ...packet, '--json'], { env: asA });
    expect(handed.code).toBe(0);
    const h = handed.json();
    expect(h).toMatchObject({
      __typename: 'Handoff',
      receiver: b.agentId,
      leaseTransferred: false,
      omitted: ['the vendor notes'],
      senderWorkspace: { revision: 'abcdef1234' },
    });

    const read = await runCli(['todo', 'packet', h.id, '--json'], { env: asB });
    expect(read.code).toBe(0);
    expect(read.json()).toMatchObject({ readFor: b.agentId, live: true, runnable: true });
    const human = await runCli(['todo', 'packet', h.id], { env: asB });
    expect(human.stdout).toContain('runnable for');
    expect(human.stdout).toContain('next: finish the port');
    expect((await runCli(['todo', 'packet', 'hof_missing'], { env: asB })).code).toBe(11);

    const owed = await runCli(['replan', 'owed', '--json'], { env: asB });
    expect(owed.code).toBe(0);
    expect(owed.json().obligations.map((o: any) => o.kind)).toContain('HANDOFF_RECEIVED');
    const owedText = await runCli(['replan', 'owed'], { env: asB });
    expect(owedText.stdout).toContain(`switchboard evidence-log --agent ${b.agentId} --limit 30`);
    expect((await runCli(['replan', 'owed', '--agent', a.agentId], { env: asB })).code).toBe(4);

    const closure = await runCli(['goal', 'closure', '--json'], { env: asA });
    expect(closure.code).toBe(0);
    expect(closure.json()).toMatchObject({ closable: false });
    expect(closure.json().reasons.map((r: any) => r.kind)).toContain('LIVE_ADVANCEMENT_TODO');
    const closureText = await runCli(['goal', 'closure'], { env: asA });
    expect(closureText.stdout).toContain('may not be closed');
    const close = ['goal', 'close', '--ref', 'ci/acceptance.txt', '--reason', 'shipped'];
    expect((await runCli(close, { env: asA })).code).toBe(4); // a PEER may not
    const refused = await runCli([...close, '--json'], { env: asSteward });
    expect(refused.code).toBe(5);
    expect(refused.json().__typename).toBe('GoalClosureRefused');
    expect(refused.stderr).toContain('LIVE_ADVANCEMENT_TODO');
  }, 60_000);
});

describe('more verbs', () => {
  it('delivery --follow streams each outcome change to the end; --quiet prints nothing', async () => {
    const { goalId, peers } = await team(gw.t, ['a', 'b']);
    const [a, b] = [peers[0]!, peers[1]!];
    const env = asCaller(gw.url, a.token, goalId);
    const provider = await registerProvider(gw.t, [goalId]);
    await provider.report([{ goalId, agentId: b.agentId, liveness: 'IDLE' }]);
    const quiet = await runCli(
      [
        'send',
        '--to',
        b.agentId,
        '--subject',
        's',
        '--body',
        'b',
        '--window',
        '200ms',
        '--timeout',
        '600ms',
        '--quiet',
      ],
      { env },
    );
    expect(quiet.code).toBe(0);
    expect(quiet.stdout).toBe('');
    const { inbox } = await api(InboxDocument, { goalId }, b.token);
    const id = inbox.messages[0].id;
    const followed = await runCli(['delivery', id, '--follow', '--json'], { env });
    expect(followed.code).toBe(6);
    const lines = followed.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    // JSON lines: each change, then the failure's own line
    const changes = lines.slice(0, -1);
    expect(lines.at(-1).error).toMatchObject({ code: 'TIMED_OUT', exitCode: 6, reason: 'EXPIRED' });
    expect(changes.map((c) => c.outcome).filter((o) => o !== 'SUBMITTED')).toEqual([
      'STALLED',
      'EXPIRED',
    ]);
    expect(changes.at(-1).final).toBe(true);
  });

  it('todo supersede, defer, resume; admin delegate; observe an excerpt', async () => {
    const { goalId, peers } = await team(gw.t, ['a', 'b']);
    const [a, b] = [peers[0]!, peers[1]!];
    const env = asCaller(gw.url, a.token, goalId);
    const first = (await runCli(['todo', 'create', '--title', 'first', '--json'], { env })).json();
    const second = (
      await runCli(['todo', 'create', '--title', 'second', '--json'], { env })
    ).json();
    const deferred = await runCli(
      ['todo', 'defer', second.id, '--resume-when', `todo_done:${first.id}`, '--json'],
      { env },
    );
    expect(deferred.json()).toMatchObject({ status: 'DEFERRED' });
    expect((await runCli(['todo', 'resume', second.id, '--json'], { env })).json()).toMatchObject({
      status: 'OPEN',
    });
    const superseded = await runCli(
      ['todo', 'supersede', first.id, '--reason', 'split', '--title', 'first, part one', '--json'],
      { env },
    );
    expect(superseded.json()).toMatchObject({
      __typename: 'SupersededTodo',
      todo: { status: 'SUPERSEDED' },
    });
    expect((await runCli(['todo', 'supersede', first.id, '--reason', 'x'], { env })).code).toBe(2);

    const other = await team(gw.t, []);
    const delegated = await runCli(
      ['admin', 'delegate', a.agentId, '--from', goalId, '--to', other.goalId, '--json'],
      {
        env: { SWITCHBOARD_URL: gw.url, SWITCHBOARD_TOKEN: gw.adminToken },
      },
    );
    expect(delegated.json()).toMatchObject({ __typename: 'Delegation', goalId: other.goalId });
    expect((await runCli(['whoami', '--json'], { env })).json().goalIds).toContain(other.goalId);

    const provider = await registerProvider(gw.t, [goalId]);
    await provider.report([{ goalId, agentId: b.agentId, liveness: 'WORKING' }]);
    await gw.t.ok(
      ReportObservationDocument,
      {
        input: {
          goalId,
          agentId: b.agentId,
          source: 'RECENT',
          lines: ['$ npm test', 'ok 12 tests'],
          capturedAt: new Date().toISOString(),
        },
      },
      provider.token,
    );
    const observed = await runCli(['observe', b.agentId, '--source', 'recent', '--lines', '5'], {
      env,
    });
    expect(observed.code).toBe(0);
    expect(observed.stdout).toContain('ok 12 tests');
    expect(observed.stdout).toContain('advisory');
    const directory = await runCli(['directory'], { env });
    expect(directory.stdout).toMatch(new RegExp(`${b.agentId}.*WORKING`));
  });

  it('ends quietly when its reader closes the pipe early (| head)', async () => {
    const { spawn } = await import('node:child_process');
    const child = spawn(process.execPath, ['bin/switchboard.js', '--help'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // Closed before the child has started: its first write meets a pipe with no reader.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  });

  it('the bin says how to build when dist/ is missing', async () => {
    const { cpSync, mkdirSync, mkdtempSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { spawnSync } = await import('node:child_process');
    const root = mkdtempSync(path.join(tmpdir(), 'switchboard-nodist-'));
    mkdirSync(path.join(root, 'bin'));
    cpSync('bin/switchboard.js', path.join(root, 'bin', 'switchboard.js'));
    const run = spawnSync(process.execPath, [path.join(root, 'bin', 'switchboard.js'), 'whoami'], {
      encoding: 'utf8',
    });
    expect(run.status).toBe(1);
    expect(run.stderr.trim()).toBe(
      'switchboard: not built yet: run `npm run build:cli` (or `npm install`) in the repository',
    );
  });
});
