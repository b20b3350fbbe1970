import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  ClaimTodoDocument,
  CreateTodoDocument,
  EndPresenceDocument,
  WaitDocument,
  WaitsDocument,
} from '../src/client/generated/graphql.ts';
import { rowsOf } from '../src/db/sql.ts';
import {
  decideOutcomes,
  loadWaits,
  recordOutcomes,
  Settler,
  type Wait,
} from '../src/waits/waits.ts';
import { database, t } from './support/gateway-per-file.ts';
import {
  countingDatabase,
  createGoal,
  doorbellBus,
  driver,
  eventually,
  openTestDatabase,
  peerInNewGoal,
  registerAgent,
  registerProvider,
  startTestGateway,
  subscribe,
  type TestGateway,
  wsClient,
} from './support/harness.ts';

const WAIT_FIELDS = `
  __typename
  ... on Wait {
    id status reason baselineSeq limitations
    pin { goalId agentId todoId provider providerSessionRef occupantRef }
    targets { agentId pinned baselineSeq }
    resolution { agentId seq liveness }
  }
  ... on ScopeGap { goalId }
  ... on UnknownAgent { agentId }
  ... on UnknownWait { waitId }`;
const WAIT_FOR = `subscription($input: WaitInput, $waitId: ID) { waitForAgent(input: $input, waitId: $waitId) { ${WAIT_FIELDS} } }`;
const START = `mutation($input: WaitInput!) { startWait(input: $input) { ${WAIT_FIELDS} } }`;

/** A goal with agents alpha and beta, a provider, and alpha WORKING at w1:p1 (seq 1). */
async function world(gateway = t, declaration: Record<string, unknown> = {}) {
  const goalId = await createGoal(gateway);
  await registerAgent(gateway, goalId, 'alpha');
  await registerAgent(gateway, goalId, 'beta');
  const provider = await registerProvider(gateway, [goalId], declaration);
  await provider.report([{ goalId, agentId: 'alpha', liveness: 'WORKING' }]);
  const alpha = (liveness: string, extra: Record<string, unknown> = {}) =>
    provider.report([{ goalId, agentId: 'alpha', liveness, ...extra }]);
  return { goalId, provider, alpha };
}

function follow(
  gateway: TestGateway,
  variables: Record<string, unknown>,
  token = gateway.adminToken,
) {
  const client = wsClient(gateway.wsUrl, token);
  const stream = subscribe(client, WAIT_FOR, variables, 'waitForAgent');
  return {
    stream,
    async close() {
      stream.dispose();
      await client.dispose();
    },
  };
}

const input = (goalId: string, extra: Record<string, unknown> = {}) => ({
  goalId,
  agentId: 'alpha',
  accept: ['DONE', 'IDLE'],
  timeoutMs: 30_000,
  ...extra,
});

describe(`rule 1-2: resolve once, pin, and require observed change (${driver})`, () => {
  it('emits PENDING with the pin and baseline, ignores heartbeats, then SATISFIED once, then completes', async () => {
    const { goalId, provider, alpha } = await world();
    const { stream, close } = follow(t, { input: input(goalId) });
    const [pending] = await stream.take(1);
    expect(pending).toMatchObject({
      __typename: 'Wait',
      status: 'PENDING',
      baselineSeq: '1',
      limitations: [],
      pin: {
        goalId,
        agentId: 'alpha',
        todoId: null,
        provider: provider.providerId,
        providerSessionRef: 'w1:p1',
        occupantRef: 'pane-1/agent',
      },
    });
    await alpha('WORKING'); // heartbeat: same state
    await alpha('BLOCKED'); // a change, but not accepted
    await alpha('DONE'); // seq 3
    await stream.completed;
    expect(stream.items).toHaveLength(2);
    expect(stream.items[1]).toMatchObject({
      status: 'SATISFIED',
      reason: null,
      resolution: { agentId: 'alpha', seq: '3', liveness: 'DONE' },
    });
    await close();
  });

  it("pins the agent's current claimed todo when the caller names none, or the one named", async () => {
    const { goalId } = await world();
    const created = await t.ok(CreateTodoDocument, {
      input: { goalId, title: 'work', taskClass: 'ADVANCEMENT_TASK' },
    });
    const todoId = created.createTodo.id;
    await t.ok(ClaimTodoDocument, {
      input: { goalId, todoId, agentId: 'alpha' },
    });
    expect((await t.ok(START, { input: input(goalId) })).startWait.pin.todoId).toBe(todoId);
    const named = (
      await t.ok(CreateTodoDocument, {
        input: { goalId, title: 'named', taskClass: 'ADVANCEMENT_TASK' },
      })
    ).createTodo.id;
    expect(
      (await t.ok(START, { input: input(goalId, { todoId: named }) })).startWait.pin.todoId,
    ).toBe(named);
  });

  it('an agent already DONE at start must change again before DONE satisfies', async () => {
    const { goalId, alpha } = await world();
    await alpha('DONE'); // seq 2
    const started = await t.ok(START, { input: input(goalId, { accept: ['DONE'] }) });
    const id = started.startWait.id;
    expect(started.startWait).toMatchObject({ status: 'PENDING', baselineSeq: '2' });
    await alpha('DONE'); // heartbeat: the state the caller was already looking at
    expect((await t.ok(WaitDocument, { id })).wait.status).toBe('PENDING');
    await alpha('WORKING');
    expect((await t.ok(WaitDocument, { id })).wait.status).toBe('PENDING');
    await alpha('DONE'); // seq 4
    expect((await t.ok(WaitDocument, { id })).wait).toMatchObject({
      status: 'SATISFIED',
      resolution: { seq: '4' },
    });
  });
});

describe(`rule 3-4: replacement and disappearance are typed (${driver})`, () => {
  it('a new occupant at the pinned location ends the wait NOT_RUNNING, even when the newcomer is DONE', async () => {
    const { goalId, alpha } = await world();
    const { stream, close } = follow(t, { input: input(goalId) });
    await stream.take(1);
    await alpha('DONE', { occupantRef: 'pane-1/replacement' });
    await stream.completed;
    expect(stream.items[1]).toMatchObject({
      status: 'NOT_RUNNING',
      reason: 'PINNED_OCCUPANT_REPLACED',
    });
    await close();
  });

  it('endPresence ends it NOT_RUNNING (PRESENCE_ENDED); UNREACHABLE ends it UNREACHABLE', async () => {
    const { goalId, provider, alpha } = await world();
    const ended = await t.ok(START, { input: input(goalId) });
    await t.ok(
      EndPresenceDocument,
      {
        input: {
          goalId,
          agentId: 'alpha',
          providerSessionRef: 'w1:p1',
          observedAt: new Date().toISOString(),
          reportSeq: '1000',
        },
      },
      provider.token,
    );
    expect((await t.ok(WaitDocument, { id: ended.startWait.id })).wait).toMatchObject({
      status: 'NOT_RUNNING',
      reason: 'PRESENCE_ENDED',
    });

    const second = await world();
    const unreachable = await t.ok(START, { input: input(second.goalId) });
    await second.alpha('UNREACHABLE');
    expect((await t.ok(WaitDocument, { id: unreachable.startWait.id })).wait).toMatchObject({
      status: 'UNREACHABLE',
      reason: null,
    });
    void alpha;
  });

  it('no presence at start ends it at once NOT_RUNNING with the limitation named, after showing it PENDING', async () => {
    const { goalId } = await world();
    const { stream, close } = follow(t, { input: input(goalId, { agentId: 'beta' }) });
    await stream.completed;
    expect(stream.items).toEqual([
      expect.objectContaining({
        status: 'PENDING',
        reason: null,
        limitations: ['NO_PRESENCE_AT_START'],
        targets: [{ agentId: 'beta', pinned: false, baselineSeq: '0' }],
        resolution: null,
      }),
      expect.objectContaining({
        status: 'NOT_RUNNING',
        reason: 'NO_PRESENCE_AT_START',
        limitations: ['NO_PRESENCE_AT_START'],
      }),
    ]);
    await close();
  });

  it('the deadline ends it TIMED_OUT', async () => {
    const { goalId } = await world();
    const { stream, close } = follow(t, { input: input(goalId, { timeoutMs: 300 }) });
    await stream.completed;
    expect(stream.items.map((w) => [w.status, w.reason])).toEqual([
      ['PENDING', null],
      ['TIMED_OUT', 'DEADLINE_PASSED'],
    ]);
    await close();
  });

  it('waits of one goal with different deadlines each end TIMED_OUT at their own, whatever the order they started in', async () => {
    const { goalId } = await world();
    const started = performance.now();
    const follows = [900, 300, 600].map((timeoutMs) => ({
      timeoutMs,
      ...follow(t, { input: input(goalId, { timeoutMs }) }),
    }));
    const ended = await Promise.all(
      follows.map(async ({ timeoutMs, stream }) => {
        await stream.completed;
        return { timeoutMs, at: performance.now() - started, statuses: stream.items };
      }),
    );
    for (const { timeoutMs, at, statuses } of ended) {
      expect(statuses.map((w) => w.status)).toEqual(['PENDING', 'TIMED_OUT']);
      expect(at).toBeGreaterThanOrEqual(timeoutMs);
    }
    const order = [...ended].sort((a, b) => a.at - b.at).map((e) => e.timeoutMs);
    expect(order).toEqual([300, 600, 900]);
    for (const { close } of follows) await close();
  });

  it('a provider without pinned-wait support yields a typed gap, not a silent wait', async () => {
    const { goalId } = await world(t, { supportsPinnedWaits: false });
    const started = await t.ok(START, { input: input(goalId) });
    expect(started.startWait).toMatchObject({
      status: 'UNOBSERVABLE',
      reason: 'PROVIDER_WITHOUT_PINNED_WAITS',
      limitations: ['PROVIDER_WITHOUT_PINNED_WAITS'],
    });
  });

  it('rejects bad input with a clear error: timeout missing or above the maximum, unsettled accept states', async () => {
    const { goalId } = await world();
    const cases: [Record<string, unknown>, string][] = [
      [{ timeoutMs: 3_600_001 }, 'timeoutMs must be an integer from 1 to 3600000'],
      [{ accept: ['UNREACHABLE'] }, 'accept may not include UNREACHABLE'],
      [{ accept: [] }, 'accept must name at least one liveness'],
      [{ agentIds: ['alpha'] }, 'name exactly one of agentId or agentIds'],
    ];
    for (const [extra, message] of cases) {
      const result = await t.gql(START, { input: input(goalId, extra) });
      expect(result.errors?.[0]?.message).toContain(message);
      expect(result.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    }
    const { timeoutMs: _omitted, ...noTimeout } = input(goalId);
    expect((await t.gql(START, { input: noTimeout })).errors?.[0]?.message).toContain('timeoutMs');
  });
});

describe(`rule 5: durable and instance-independent (${driver})`, () => {
  it('an outcome decided and not recorded (its write failed) is decided again by the next settle', async () => {
    const { goalId, alpha } = await world();
    const started = await t.ok(START, { input: input(goalId) });
    const waitId = started.startWait.id as string;
    const settler = new Settler((await loadWaits(database.db, [waitId])).get(waitId) as Wait);
    await alpha('IDLE'); // seq 2 decides it
    const satisfied = {
      status: 'SATISFIED',
      reason: null,
      agentId: 'alpha',
      seq: 2n,
      liveness: 'IDLE',
    };
    expect([...(await decideOutcomes(database.db, goalId, [settler])).values()]).toEqual([
      satisfied,
    ]);
    // Its record failed: nothing was written. The change that decided it is behind the settler
    // now; the next settle decides it again rather than leaving it to its deadline.
    expect([...(await decideOutcomes(database.db, goalId, [settler])).values()]).toEqual([
      satisfied,
    ]);
  });

  it('a client that re-subscribes with waitId gets changes that happened while it was away', async () => {
    const { goalId, alpha } = await world();
    const first = follow(t, { input: input(goalId) });
    const [pending] = await first.stream.take(1);
    await first.close(); // drops mid-wait
    await alpha('IDLE'); // seq 2, while nobody listens
    const again = follow(t, { waitId: pending.id });
    await again.stream.completed;
    expect(again.stream.items).toEqual([
      expect.objectContaining({
        id: pending.id,
        status: 'SATISFIED',
        resolution: { agentId: 'alpha', seq: '2', liveness: 'IDLE' },
      }),
    ]);
    await again.close();

    const pendingAgain = follow(t, { input: input(goalId) });
    const [second] = await pendingAgain.stream.take(1);
    await pendingAgain.close();
    const rejoin = follow(t, { waitId: second.id });
    expect((await rejoin.stream.take(1))[0].status).toBe('PENDING');
    await alpha('WORKING');
    await alpha('DONE');
    await rejoin.stream.completed;
    expect(rejoin.stream.items.map((w) => w.status)).toEqual(['PENDING', 'SATISFIED']);
    await rejoin.close();
  });

  it('two instances: a wait on A is settled by a report sent to B', async () => {
    const other = driver === 'postgres' ? await openTestDatabase() : database;
    const b = await startTestGateway(other, { adminToken: t.adminToken });
    const { goalId, provider } = await world();
    const { stream, close } = follow(t, { input: input(goalId) });
    await stream.take(1);
    const viaB = await b.ok(
      `mutation($r: [PresenceReportInput!]!) { reportPresence(reports: $r) { __typename } }`,
      {
        r: [
          {
            goalId,
            agentId: 'alpha',
            providerSessionRef: 'w1:p1',
            occupantRef: 'pane-1/agent',
            liveness: 'DONE',
            observedAt: new Date().toISOString(),
            basis: 'LIFECYCLE_HOOK',
            reportSeq: '500',
          },
        ],
      },
      provider.token,
    );
    expect(viaB.reportPresence.__typename).toBe('PresenceAccepted');
    await stream.completed;
    expect(stream.items[1]).toMatchObject({ status: 'SATISFIED', resolution: { seq: '2' } });
    await close();
    await b.stop();
    if (other !== database) await other.close();
  });

  it('survives a gateway restart: pending waits continue, changes made meanwhile count, deadlines still fire', async () => {
    const first = await startTestGateway(database, { adminToken: t.adminToken });
    const { goalId, provider } = await world(first);
    const satisfied = follow(first, { input: input(goalId) });
    const [pending] = await satisfied.stream.take(1);
    const expiring = (await first.ok(START, { input: input(goalId, { timeoutMs: 300 }) }))
      .startWait;
    await first.stop(); // the subscriber's socket closes with it
    await satisfied.close();

    // While it is down, the expiring wait's deadline passes, then alpha changes (via another instance).
    const deadline = Date.parse(
      (
        await t.ok(WaitDocument, {
          id: expiring.id,
        })
      ).wait.deadline,
    );
    await eventually(
      () => (Date.now() > deadline + 20 ? true : undefined),
      'the short deadline to pass',
    );
    const report = `mutation($r: [PresenceReportInput!]!) { reportPresence(reports: $r) { __typename } }`;
    const at = {
      goalId,
      agentId: 'alpha',
      providerSessionRef: 'w1:p1',
      occupantRef: 'pane-1/agent',
      basis: 'PROVIDER_DETECTION',
    };
    await t.ok(
      report,
      { r: [{ ...at, liveness: 'DONE', observedAt: new Date().toISOString(), reportSeq: '900' }] },
      provider.token,
    );

    const restarted = await startTestGateway(database, { adminToken: t.adminToken });
    const resumed = follow(restarted, { waitId: pending.id });
    await resumed.stream.completed;
    expect(resumed.stream.items).toEqual([
      expect.objectContaining({
        status: 'SATISFIED',
        resolution: { agentId: 'alpha', seq: '2', liveness: 'DONE' },
      }),
    ]);
    await resumed.close();
    // The change came after the short wait's deadline: it timed out, whenever that is computed.
    const late = follow(restarted, { waitId: expiring.id });
    await late.stream.completed;
    expect(late.stream.items).toEqual([
      expect.objectContaining({
        status: 'TIMED_OUT',
        reason: 'DEADLINE_PASSED',
        resolution: { agentId: 'alpha', seq: null, liveness: null },
      }),
    ]);
    await late.close();
    await restarted.stop();
  });

  it('a deadline fires for a wait whose instance went away, when read or followed later', async () => {
    const { goalId } = await world();
    const started = await t.ok(START, { input: input(goalId, { timeoutMs: 200 }) });
    const followed = follow(t, { waitId: started.startWait.id });
    await followed.stream.completed;
    expect(followed.stream.items.at(-1)).toMatchObject({
      status: 'TIMED_OUT',
      reason: 'DEADLINE_PASSED',
    });
    await followed.close();
  });

  it('records exactly one terminal outcome when two instances race to settle it', async () => {
    const other = driver === 'postgres' ? await openTestDatabase() : database;
    const b = await startTestGateway(other, { adminToken: t.adminToken });
    const { goalId, alpha } = await world();
    const started = await t.ok(START, { input: input(goalId) });
    const id = started.startWait.id;
    const onA = follow(t, { waitId: id });
    const onB = follow(b, { waitId: id });
    await onA.stream.take(1);
    await onB.stream.take(1);
    await alpha('DONE');
    await onA.stream.completed;
    await onB.stream.completed;
    expect(onA.stream.items[1]).toEqual(onB.stream.items[1]);
    await onA.close();
    await onB.close();

    // Two writers with different outcomes at once: the first recorded wins for both.
    const raced = await t.ok(START, { input: input(goalId) });
    const outcomes = [
      { status: 'SATISFIED', reason: null, agentId: 'alpha', seq: 99n, liveness: 'DONE' },
      {
        status: 'TIMED_OUT',
        reason: 'DEADLINE_PASSED',
        agentId: 'alpha',
        seq: null,
        liveness: null,
      },
    ] as const;
    const [x, y] = await Promise.all(
      [database, other].map((db, i) =>
        recordOutcomes(db.db, [{ waitId: raced.startWait.id, outcome: outcomes[i] as never }]),
      ),
    );
    expect(x?.[0]?.status).toBe(y?.[0]?.status);
    expect(x?.[0]?.resolvedAt).toEqual(y?.[0]?.resolvedAt);
    await b.stop();
    if (other !== database) await other.close();
  });
});

describe(`lost coverage (${driver})`, () => {
  it("ends UNOBSERVABLE (COVERAGE_LOST) at the lapse when the target's provider stops reporting: streamed at once, never PENDING to the deadline", async () => {
    const TTL = 1000;
    const { goalId } = await world(t, { presenceTtlMs: TTL });
    const { stream, close } = follow(t, { input: input(goalId, { accept: ['WORKING', 'DONE'] }) });
    const [pending] = await stream.take(1);
    expect(pending).toMatchObject({ status: 'PENDING', baselineSeq: '1' });
    const pendingAt = Date.now();
    await stream.completed;
    expect(Date.now() - pendingAt).toBeLessThan(TTL + 2000);
    expect(stream.items).toHaveLength(2);
    expect(stream.items[1]).toMatchObject({
      status: 'UNOBSERVABLE',
      reason: 'COVERAGE_LOST',
      resolution: { agentId: 'alpha', seq: '2', liveness: 'UNKNOWN' },
    });
    await close();
    // Recorded like every outcome: a read says the same.
    expect((await t.ok(WaitDocument, { id: pending.id })).wait).toMatchObject({
      status: 'UNOBSERVABLE',
      reason: 'COVERAGE_LOST',
    });
    // A wait started now, on the lapsed presence, ends at once and says why.
    const late = await t.ok(START, { input: input(goalId) });
    expect(late.startWait).toMatchObject({
      status: 'UNOBSERVABLE',
      reason: 'COVERAGE_LOST',
      limitations: ['COVERAGE_LOST'],
      targets: [{ agentId: 'alpha', pinned: false }],
    });
  });

  it('a wait on several agents drops the target that lost coverage and settles on another', async () => {
    // alpha: its provider goes silent.
    const { goalId, alpha } = await world(t, { presenceTtlMs: 1000 });
    const live = await registerProvider(t, [goalId]); // beta: a provider that keeps reporting
    const beta = (liveness: string) =>
      live.report([{ goalId, agentId: 'beta', liveness, providerSessionRef: 'p2' }]);
    await beta('WORKING');
    const started = await t.ok(START, {
      input: { goalId, agentIds: ['alpha', 'beta'], accept: ['DONE'], timeoutMs: 30_000 },
    });
    const id = started.startWait.id;
    expect(started.startWait.targets).toEqual([
      { agentId: 'alpha', pinned: true, baselineSeq: '1' },
      { agentId: 'beta', pinned: true, baselineSeq: '2' },
    ]);
    await eventually(
      async () => {
        const [row] = rowsOf<{ lapse: string | null }>(
          await database.db.execute(
            sql`select lapse from presence where goal_id = ${goalId} and agent_id = 'alpha'`,
          ),
        );
        return row?.lapse ? true : undefined;
      },
      "alpha's presence to lapse",
      3000,
    );
    expect((await t.ok(WaitDocument, { id })).wait.status).toBe('PENDING');
    // alpha's provider comes back with alpha DONE: a dropped target stays dropped.
    await alpha('DONE');
    expect((await t.ok(WaitDocument, { id })).wait.status).toBe('PENDING');
    await beta('DONE');
    expect((await t.ok(WaitDocument, { id })).wait).toMatchObject({
      status: 'SATISFIED',
      resolution: { agentId: 'beta', liveness: 'DONE' },
    });
  });
});

describe(`rule 6-7: several agents, and scope (${driver})`, () => {
  it('settles on the first agent to satisfy its own pin, naming it; a dropped target does not end it', async () => {
    const { goalId, provider, alpha } = await world();
    await provider.report([
      {
        goalId,
        agentId: 'beta',
        liveness: 'WORKING',
        providerSessionRef: 'w1:p2',
        occupantRef: 'pane-2/agent',
      },
    ]);
    const { stream, close } = follow(t, {
      input: { goalId, agentIds: ['alpha', 'beta'], accept: ['DONE'], timeoutMs: 30_000 },
    });
    const [pending] = await stream.take(1);
    expect(pending.targets).toEqual([
      { agentId: 'alpha', pinned: true, baselineSeq: '1' },
      { agentId: 'beta', pinned: true, baselineSeq: '2' },
    ]);
    await alpha('DONE', { occupantRef: 'pane-1/someone-else' }); // alpha replaced: dropped, not the end
    await provider.report([
      {
        goalId,
        agentId: 'beta',
        liveness: 'DONE',
        providerSessionRef: 'w1:p2',
        occupantRef: 'pane-2/agent',
      },
    ]);
    await stream.completed;
    expect(stream.items[1]).toMatchObject({
      status: 'SATISFIED',
      resolution: { agentId: 'beta', seq: '4' },
    });
    await close();
  });

  it('ends with the first drop once every pinned target is dropped; an unpinned target is not waited on', async () => {
    const { goalId, provider, alpha } = await world();
    await registerAgent(t, goalId, 'gamma'); // no presence: not pinned
    const beta = (liveness: string) =>
      provider.report([
        {
          goalId,
          agentId: 'beta',
          liveness,
          providerSessionRef: 'w1:p2',
          occupantRef: 'pane-2/agent',
        },
      ]);
    await beta('WORKING');
    const { stream, close } = follow(t, {
      input: { goalId, agentIds: ['alpha', 'beta', 'gamma'], accept: ['DONE'], timeoutMs: 30_000 },
    });
    const [pending] = await stream.take(1);
    expect(pending.targets).toEqual([
      { agentId: 'alpha', pinned: true, baselineSeq: '1' },
      { agentId: 'beta', pinned: true, baselineSeq: '2' },
      { agentId: 'gamma', pinned: false, baselineSeq: '0' },
    ]);
    await beta('UNREACHABLE'); // seq 3: the first drop, alpha still pinned
    expect((await t.ok(WaitDocument, { id: pending.id })).wait.status).toBe('PENDING');
    await alpha('DONE', { occupantRef: 'pane-1/someone-else' }); // seq 4: the last pinned one
    await stream.completed;
    expect(stream.items[1]).toMatchObject({
      status: 'UNREACHABLE',
      resolution: { agentId: 'beta', seq: '3', liveness: 'UNREACHABLE' },
    });
    await close();
  });

  it('only callers whose scope covers the goal may wait, or read a wait', async () => {
    const { goalId } = await world();
    const outsider = await peerInNewGoal(t);
    const refused = await t.ok(START, { input: input(goalId) }, outsider.token);
    expect(refused.startWait).toEqual({ __typename: 'ScopeGap', goalId });
    const started = await t.ok(START, { input: input(goalId) });
    const read = await t.ok(WaitDocument, { id: started.startWait.id }, outsider.token);
    expect(read.wait).toEqual({ __typename: 'UnknownWait', waitId: started.startWait.id });
    const unknown = await t.ok(START, { input: input(goalId, { agentId: 'ghost' }) });
    expect(unknown.startWait).toEqual({ __typename: 'UnknownAgent', agentId: 'ghost' });
  });
});

describe(`the keeper settles by agent, from a per-goal cursor (${driver})`, () => {
  /** World plus beta WORKING at its own location (seq 2); `report` sends several at once. */
  async function twoAgents() {
    const { goalId, provider, alpha } = await world();
    const at = {
      alpha: { providerSessionRef: 'w1:p1', occupantRef: 'pane-1/agent' },
      beta: { providerSessionRef: 'w1:p2', occupantRef: 'pane-2/agent' },
    };
    const report = (...states: [agentId: 'alpha' | 'beta', liveness: string][]) =>
      provider.report(
        states.map(([agentId, liveness]) => ({ goalId, agentId, liveness, ...at[agentId] })),
      );
    await report(['beta', 'WORKING']);
    return { goalId, alpha, report };
  }

  /**
   * A wait started by mutation and followed through the gateway's own keeper, as a
   * subscription would: its first item (PENDING) is read, and the second awaited.
   */
  async function kept(extra: Record<string, unknown>) {
    const started = await t.ok(START, { input: extra });
    const waitId = started.startWait.id as string;
    const wait = (await loadWaits(database.db, [waitId])).get(waitId) as Wait;
    return follow(wait);
  }

  async function follow(wait: Wait) {
    const stream = t.gateway.deps.waits.watch(wait);
    expect((await stream.next()).value?.row.status).toBe('PENDING');
    let ended: Wait | undefined;
    const end = stream.next().then((r) => {
      ended = r.value as Wait;
      return ended;
    });
    return { end, ended: () => ended, stop: () => stream.return?.() };
  }

  const input2 = (goalId: string, agentIds: string[], accept: string[], timeoutMs = 30_000) => ({
    goalId,
    agentIds,
    accept,
    timeoutMs,
  });
  const waitsFor = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it("a change of A settles A's waits and leaves B's pending and intact; B's later change still settles them", async () => {
    const { goalId, report } = await twoAgents();
    const onAlpha = await kept(input2(goalId, ['alpha'], ['IDLE']));
    const onBeta = await kept(input2(goalId, ['beta'], ['DONE']));
    const onBoth = await kept(input2(goalId, ['alpha', 'beta'], ['DONE']));
    // One report, one page: alpha IDLE settles alpha's wait; beta IDLE is not accepted.
    await report(['alpha', 'IDLE'], ['beta', 'IDLE']); // seq 3, 4
    expect((await onAlpha.end).row).toMatchObject({ status: 'SATISFIED', resolvedSeq: 3n });
    await waitsFor(50);
    expect([onBeta.ended(), onBoth.ended()]).toEqual([undefined, undefined]);
    // The cursor moves on with alpha's changes only; beta's waits are not read again.
    await report(['alpha', 'WORKING']); // seq 5
    await report(['alpha', 'IDLE']); // seq 6
    await waitsFor(50);
    expect([onBeta.ended(), onBoth.ended()]).toEqual([undefined, undefined]);
    await report(['beta', 'DONE']);
    const beta = await onBeta.end;
    expect(beta.row).toMatchObject({ status: 'SATISFIED', resolvedAgentId: 'beta' });
    expect((await onBoth.end).row).toMatchObject({
      status: 'SATISFIED',
      resolvedAgentId: 'beta',
      resolvedSeq: beta.row.resolvedSeq,
    });
  });

  it("a newcomer whose baseline is behind the goal's cursor is caught up: a change between its start and its first read counts", async () => {
    const { goalId, alpha } = await twoAgents();
    // Keeps the goal's group (and its cursor) alive throughout.
    const keeper = await kept(input2(goalId, ['beta'], ['DONE']));
    const first = await kept(input2(goalId, ['alpha'], ['IDLE']));
    // Started, not yet followed: its baseline is alpha's seq 1.
    const started = await t.ok(START, { input: input2(goalId, ['alpha'], ['IDLE']) });
    const waitId = started.startWait.id as string;
    const wait = (await loadWaits(database.db, [waitId])).get(waitId) as Wait;
    await alpha('IDLE'); // seq 3
    // The group read it: the cursor is past seq 3 before the newcomer joins.
    expect((await first.end).row).toMatchObject({ status: 'SATISFIED', resolvedSeq: 3n });
    const late = await follow(wait);
    const settled = await Promise.race([late.end, waitsFor(3_000)]);
    expect((settled as Wait | undefined)?.row).toMatchObject({
      status: 'SATISFIED',
      resolvedSeq: 3n,
    });
    expect(keeper.ended()).toBeUndefined();
    await keeper.stop();
  });

  it('any-of waits spanning agents settle on whichever of their agents moves; the others stay', async () => {
    const { goalId, report } = await twoAgents();
    const both = await Promise.all(
      Array.from({ length: 3 }, () => kept(input2(goalId, ['alpha', 'beta'], ['DONE']))),
    );
    const betaFirst = await kept(input2(goalId, ['beta', 'alpha'], ['IDLE']));
    const alphaOnly = await kept(input2(goalId, ['alpha'], ['IDLE']));
    await report(['beta', 'DONE']); // seq 3
    for (const wait of both) {
      expect((await wait.end).row).toMatchObject({
        status: 'SATISFIED',
        resolvedAgentId: 'beta',
        resolvedSeq: 3n,
      });
    }
    await waitsFor(50);
    expect([betaFirst.ended(), alphaOnly.ended()]).toEqual([undefined, undefined]);
    await report(['alpha', 'IDLE']); // seq 4
    for (const wait of [betaFirst, alphaOnly]) {
      expect((await wait.end).row).toMatchObject({
        status: 'SATISFIED',
        resolvedAgentId: 'alpha',
        resolvedSeq: 4n,
      });
    }
  });

  it('a deadline expires only the waits that are due; the rest stay pending and settle later', async () => {
    const { goalId, alpha } = await twoAgents();
    const soon = await Promise.all(
      [200, 250].map((ms) => kept(input2(goalId, ['alpha'], ['IDLE'], ms))),
    );
    const later = await Promise.all(
      [30_000, 60_000].map((ms) => kept(input2(goalId, ['alpha'], ['IDLE'], ms))),
    );
    for (const wait of soon) {
      expect((await wait.end).row).toMatchObject({
        status: 'TIMED_OUT',
        reason: 'DEADLINE_PASSED',
      });
    }
    await waitsFor(100);
    expect(later.map((w) => w.ended())).toEqual([undefined, undefined]);
    await alpha('IDLE');
    for (const wait of later) {
      expect((await wait.end).row).toMatchObject({ status: 'SATISFIED', resolvedAgentId: 'alpha' });
    }
  });
});

describe(`the waits on one agent (${driver})`, () => {
  it('lists the waits that target an agent, newest first, by status, settled when read', async () => {
    const { goalId, alpha } = await world();
    const start = async (extra: Record<string, unknown>) =>
      (await t.ok(START, { input: input(goalId, extra) })).startWait.id as string;
    const first = await start({ accept: ['BLOCKED'] });
    const both = await start({ agentId: undefined, agentIds: ['beta', 'alpha'] });
    const onBeta = await start({ agentId: 'beta' });
    const ids = async (vars: Record<string, unknown>) =>
      (await t.ok(WaitsDocument, { goalId, ...vars })).waits.rows.map((r: { id: string }) => r.id);
    expect(await ids({ agentId: 'alpha' })).toEqual([both, first]);
    expect(await ids({ agentId: 'alpha', status: 'PENDING' })).toEqual([both, first]);
    // beta had no presence: its own wait ended at once; the shared one waits on alpha.
    expect(await ids({ agentId: 'beta', status: 'NOT_RUNNING' })).toEqual([onBeta]);
    await alpha('DONE');
    // Nobody follows or reads these waits: listing them settles them from the change log.
    expect(await ids({ agentId: 'alpha', status: 'PENDING' })).toEqual([first]);
    const { waits } = await t.ok(WaitsDocument, { goalId, agentId: 'alpha', limit: 1 });
    expect(waits).toMatchObject({ omittedRowCount: 1, scopeGap: null });
    expect(waits.rows[0]).toMatchObject({ id: both, status: 'SATISFIED' });
  });

  it('out of scope: a scope gap and no rows; bad input and providers get clear errors', async () => {
    const { goalId, provider } = await world();
    await t.ok(START, { input: input(goalId) });
    const outsider = await peerInNewGoal(t);
    expect((await t.ok(WaitsDocument, { goalId, agentId: 'alpha' }, outsider.token)).waits).toEqual(
      {
        goalId,
        agentId: 'alpha',
        omittedRowCount: 0,
        rows: [],
        scopeGap: { goalId, reason: 'AUDIENCE_NOT_AUTHORIZED' },
      },
    );
    const cases: [Record<string, unknown>, string][] = [
      [{ agentId: 'nobody' }, 'no agent nobody is registered to goal'],
      [{ agentId: 'alpha', limit: 0 }, 'limit must be an integer from 1 to 100'],
      [{ agentId: 'alpha', limit: 1000 }, 'limit must be an integer from 1 to 100'],
    ];
    for (const [vars, message] of cases) {
      const result = await t.gql(WaitsDocument, { goalId, ...vars });
      expect(result.errors?.[0]?.message, message).toContain(message);
      expect(result.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    }
    const asProvider = await t.gql(WaitsDocument, { goalId, agentId: 'alpha' }, provider.token);
    expect(asProvider.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });

  it('is read in a constant number of SQL statements, however many waits are pending', async () => {
    const counting = countingDatabase(database);
    const gateway = await startTestGateway(counting.database, { adminToken: t.adminToken });
    try {
      const measure = async (count: number) => {
        const { goalId } = await world(gateway);
        for (let i = 0; i < count; i++) await gateway.ok(START, { input: input(goalId) });
        counting.reset();
        const { waits } = await gateway.ok(WaitsDocument, {
          goalId,
          agentId: 'alpha',
          status: 'PENDING',
        });
        expect(waits.rows).toHaveLength(count);
        return counting.statements();
      };
      const small = await measure(2);
      const large = await measure(15);
      expect(large).toBe(small);
      expect(large).toBeLessThanOrEqual(12);
    } finally {
      await gateway.stop();
    }
  });
});

describe(`the waits on one agent, 20,000 pending (${driver})`, () => {
  const COUNT = 20_000;
  const total = (waits: { rows: unknown[]; omittedRowCount: number }) =>
    waits.rows.length + waits.omittedRowCount;

  it('lists each wait with the status wait(id) gives it, in the rows and the count, however many are decided at once', async () => {
    // An hour's TTL: the seeding may outlast the default one, and a lapse would end every wait.
    const { goalId, alpha } = await world(t, { presenceTtlMs: 3_600_000 });
    // One wait started through the API, then COUNT copies of it written in SQL: half accept
    // DONE (the next change satisfies them), half BLOCKED (they stay pending).
    const model = (
      await t.ok(START, { input: input(goalId, { accept: ['DONE'], timeoutMs: 3_600_000 }) })
    ).startWait;
    await database.db.execute(sql`
      insert into waits (id, goal_id, accept, timeout_ms, deadline, created_by_kind, created_at)
      select ${model.id} || '-' || n, goal_id,
        case when n % 2 = 0 then '{DONE}'::text[] else '{BLOCKED}'::text[] end,
        timeout_ms, deadline, created_by_kind, created_at - n * interval '1 microsecond'
      from waits, generate_series(1, ${COUNT}) as n where id = ${model.id}`);
    await database.db.execute(sql`
      insert into wait_targets (wait_id, position, goal_id, agent_id, todo_id, state, provider,
        provider_session_ref, occupant_ref, baseline_seq)
      select ${model.id} || '-' || n, position, goal_id, agent_id, todo_id, state, provider,
        provider_session_ref, occupant_ref, baseline_seq
      from wait_targets, generate_series(1, ${COUNT}) as n where wait_id = ${model.id}`);
    const list = async (status: string) =>
      (await t.ok(WaitsDocument, { goalId, agentId: 'alpha', status, limit: 100 })).waits;
    expect(total(await list('PENDING'))).toBe(COUNT + 1);

    await alpha('DONE'); // decides COUNT / 2 + 1 waits at once; nobody follows or reads them
    const pending = await list('PENDING');
    expect(total(pending)).toBe(COUNT / 2);
    expect(pending.rows).toHaveLength(100);
    for (const row of pending.rows) expect(row.status).toBe('PENDING');
    const satisfied = await list('SATISFIED');
    expect(total(satisfied)).toBe(COUNT / 2 + 1);
    // Each read of one wait agrees with the listing.
    for (const [row, status] of [
      [pending.rows[99], 'PENDING'],
      [satisfied.rows[99], 'SATISFIED'],
    ] as const) {
      expect((await t.ok(WaitDocument, { id: row.id })).wait.status).toBe(status);
    }
    const [left] = rowsOf<{ n: number }>(
      await database.db.execute(
        sql`select count(*)::int as n from waits where goal_id = ${goalId} and status = 'PENDING'`,
      ),
    );
    expect(left?.n).toBe(COUNT / 2);
  }, 120_000);
});

describe(`the doorbell going deaf (${driver})`, () => {
  // Kills the LISTEN connection; test/doorbell-nats.test.ts has the NATS connection's faults.
  it.runIf(driver === 'postgres' && doorbellBus === 'postgres')(
    'while its LISTEN connection keeps dying, /readyz says 503 with the reason and a wait still resolves by polling',
    async () => {
      const gateway = await startTestGateway(database, { doorbellProbeMs: 200 });
      const bell = gateway.gateway.deps.doorbell;
      const { goalId, alpha } = await world(gateway);
      const { stream, close } = follow(gateway, { input: input(goalId) });
      await stream.take(1); // PENDING
      const kill = () =>
        database.db.execute(
          sql`select pg_terminate_backend(pid) from pg_stat_activity
              where application_name = ${bell.connectionName}`,
        );
      const readyz = `${gateway.url.replace(/\/graphql$/, '')}/readyz`;
      // Keep killing every listening connection until the instance reports itself deaf.
      const deaf = await eventually(
        async () => {
          await kill();
          const response = await fetch(readyz);
          return response.status === 503 ? response.json() : undefined;
        },
        '/readyz to answer 503',
        10_000,
      );
      expect(deaf).toMatchObject({ status: 'doorbell not listening', reason: expect.any(String) });
      // Still deaf (kills continue): the change reaches the wait through the poll.
      let killing = true;
      const killer = (async () => {
        while (killing) await kill();
      })();
      await alpha('DONE');
      const [, done] = await stream.take(2, 5_000);
      expect(done).toMatchObject({ status: 'SATISFIED' });
      killing = false;
      await killer;
      await eventually(
        async () => ((await fetch(readyz)).status === 200 ? true : undefined),
        '/readyz to answer 200 again',
      );
      await close();
      await gateway.stop();
    },
  );
});
