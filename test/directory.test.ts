import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  AcquireLeaseDocument,
  ClaimTodoDocument,
  CreateTodoDocument,
  DeliverDocument,
  DirectoryDocument,
  EndPresenceDocument,
  IssueCredentialDocument,
  OpenGateDocument,
} from '../src/client/generated/graphql.ts';
import { rowsOf } from '../src/db/sql.ts';
import { database, t } from './support/gateway-per-file.ts';
import {
  countingDatabase,
  createGoal,
  driver,
  eventually,
  peerInNewGoal,
  registerAgent,
  registerProvider,
  startTestGateway,
} from './support/harness.ts';

const ATTENTION = `query($goalId: ID!, $staleClaimMs: Int) {
  attention(goalId: $goalId, staleClaimMs: $staleClaimMs) {
    rows { reason agentId todoId gateId deliveryId since liveness blockedKind }
    scopeGap { reason }
  }
}`;

async function createTodo(goalId: string, input: Record<string, unknown> = {}) {
  const data = await t.ok(CreateTodoDocument, {
    input: { goalId, title: 'work', taskClass: 'ADVANCEMENT_TASK', ...input },
  });
  expect(data.createTodo.__typename).toBe('Todo');
  return data.createTodo.id as string;
}

async function claim(goalId: string, todoId: string, agentId: string) {
  const data = await t.ok(ClaimTodoDocument, { input: { goalId, todoId, agentId } });
  expect(data.claimTodo.__typename).toBe('ClaimedTodo');
}

async function openGate(goalId: string, input: Record<string, unknown>) {
  const data = await t.ok(OpenGateDocument, { input: { goalId, reason: 'may we?', ...input } });
  return data.openGate.id as string;
}

/** Everything the work graph holds for a goal, to show that reads change none of it. */
async function workSnapshot(goalId: string) {
  return rowsOf(
    await database.db.execute(sql`
      select (select coalesce(json_agg(t order by t.id)::text, '[]') from todos t where t.goal_id = ${goalId}) as todos,
             (select coalesce(json_agg(g order by g.id)::text, '[]') from gates g where g.goal_id = ${goalId}) as gates,
             (select count(*)::int from todo_transitions where goal_id = ${goalId}) as transitions`),
  );
}

describe(`directory packet (${driver})`, () => {
  it('two registered agents and one live session: two rows, the live one with presence, the other with identity only', async () => {
    const goalId = await createGoal(t);
    await registerAgent(t, goalId, 'alpha');
    await registerAgent(t, goalId, 'beta');
    const provider = await registerProvider(t, [goalId]);
    await provider.report([
      { goalId, agentId: 'alpha', liveness: 'WORKING', basis: 'LIFECYCLE_HOOK' },
    ]);
    const { directory } = await t.ok(DirectoryDocument, { goalId });
    expect(directory).toMatchObject({
      schemaVersion: 'peer_agent_directory_v0',
      goalId,
      scope: 'GOAL_REGISTERED_AGENTS',
      audience: 'ADMIN',
      registeredAgentCount: 2,
      omittedRowCount: 0,
      limitations: ['PRESENCE_IS_ADVISORY', 'CALLER_IDENTITY_NOT_SUPPLIED'],
      scopeGap: null,
    });
    const [alpha, beta] = directory.rows;
    expect(alpha).toMatchObject({
      agentId: 'alpha',
      registered: true,
      work: { todoId: null, claimed: false, lease: 'NONE' },
      observationLimits: ['ALTERNATE_SCREEN_NOT_IN_SCROLLBACK'],
      presence: {
        provider: provider.providerId,
        providerSessionRef: 'w1:p1',
        liveness: 'WORKING',
        basis: 'LIFECYCLE_HOOK',
        observedAt: expect.any(String),
        stateChangeSeq: '1',
        stale: false,
        coverageGap: null,
      },
    });
    expect(beta).toEqual({
      agentId: 'beta',
      registered: true,
      agentModel: 'model-x',
      hostSurface: 'cli',
      observationLimits: [],
      work: { todoId: null, claimed: false, lease: 'NONE' },
      presence: null,
    });
  });

  it('with no provider at all, still lists every registered agent and says presence is unavailable', async () => {
    const goalId = await createGoal(t);
    for (const id of ['a', 'b', 'c']) await registerAgent(t, goalId, id);
    const peer = await t.ok(IssueCredentialDocument, {
      input: { kind: 'PEER', goalId, agentId: 'a' },
    });
    const { directory } = await t.ok(DirectoryDocument, { goalId }, peer.issueCredential.token);
    expect(directory.rows.map((r: any) => [r.agentId, r.presence])).toEqual([
      ['a', null],
      ['b', null],
      ['c', null],
    ]);
    expect(directory.audience).toBe('PEER');
    expect(directory.limitations).toEqual([
      'PRESENCE_PROVIDER_UNAVAILABLE',
      'PRESENCE_IS_ADVISORY',
    ]);
  });

  it('reads UNKNOWN with a named coverage gap when the provider cannot classify, the TTL expired, or the provider restarted', async () => {
    const goalId = await createGoal(t);
    for (const id of ['unsure', 'old', 'restarted']) await registerAgent(t, goalId, id);
    const provider = await registerProvider(t, [goalId], { presenceTtlMs: 60_000 });
    // Another provider with a short TTL that reports once and never again.
    const silent = await registerProvider(t, [goalId], { presenceTtlMs: 1000 });
    await provider.report([
      { goalId, agentId: 'unsure', liveness: 'UNKNOWN', providerSessionRef: 'w1:p1' },
      { goalId, agentId: 'restarted', liveness: 'IDLE', providerSessionRef: 'w1:p3' },
    ]);
    await silent.report([{ goalId, agentId: 'old', liveness: 'WORKING' }]);
    const gapOf = async () =>
      Object.fromEntries(
        (await t.ok(DirectoryDocument, { goalId })).directory.rows.map((r: any) => [
          r.agentId,
          [
            r.presence.liveness,
            r.presence.reportedLiveness,
            r.presence.coverageGap,
            r.presence.stale,
          ],
        ]),
      );
    // The TTL counts from the report's arrival: until the sweep records the lapse, a read says
    // what the last change said.
    expect((await gapOf()).old).toEqual(['WORKING', 'WORKING', null, false]);
    await eventually(
      async () => ((await gapOf()).old[2] === 'PRESENCE_TTL_EXPIRED' ? true : undefined),
      'the silent provider to lapse',
      3000,
    );
    expect(await gapOf()).toEqual({
      unsure: ['UNKNOWN', 'UNKNOWN', 'PROVIDER_CANNOT_CLASSIFY', false],
      old: ['UNKNOWN', 'WORKING', 'PRESENCE_TTL_EXPIRED', false],
      restarted: ['IDLE', 'IDLE', null, false],
    });
    // The provider restarts: everything its earlier instance reported is stale.
    await provider.register('instance-2');
    expect((await gapOf()).restarted).toEqual(['UNKNOWN', 'IDLE', 'PROVIDER_RESTARTED', true]);
    const { directory } = await t.ok(DirectoryDocument, { goalId });
    expect(directory.limitations).toContain('PRESENCE_STALE_AFTER_PROVIDER_RESTART');
  });

  it('gives a caller whose membership cannot be established a scope gap, not a listing', async () => {
    const goalId = await createGoal(t);
    await registerAgent(t, goalId, 'alpha');
    const outsider = await peerInNewGoal(t);
    const { directory } = await t.ok(DirectoryDocument, { goalId }, outsider.token);
    expect(directory).toMatchObject({
      rows: [],
      registeredAgentCount: 0,
      limitations: [],
      rollup: [],
      scopeGap: { goalId, reason: 'AUDIENCE_NOT_AUTHORIZED' },
    });
  });

  it('caps rows at `limit`, says so, and rejects a limit out of range', async () => {
    const goalId = await createGoal(t);
    for (const id of ['a', 'b', 'c']) await registerAgent(t, goalId, id);
    const { directory } = await t.ok(DirectoryDocument, { goalId, limit: 2 });
    expect(directory.rows.map((r: any) => r.agentId)).toEqual(['a', 'b']);
    expect(directory).toMatchObject({ registeredAgentCount: 3, omittedRowCount: 1 });
    expect(directory.limitations).toContain('ROWS_TRUNCATED_AT_CAP');
    for (const limit of [0, 1001]) {
      const bad = await t.gql(DirectoryDocument, { goalId, limit });
      expect(bad.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    }
  });

  it("shows each agent's claimed work and lease from the work graph", async () => {
    const goalId = await createGoal(t);
    await registerAgent(t, goalId, 'alpha');
    await registerAgent(t, goalId, 'beta');
    const todoId = await createTodo(goalId, { priority: 5 });
    await claim(goalId, todoId, 'alpha');
    await t.ok(AcquireLeaseDocument, {
      input: { goalId, todoId, agentId: 'alpha', ttlMs: 600_000 },
    });
    const { directory } = await t.ok(DirectoryDocument, { goalId });
    expect(directory.rows.map((r: any) => [r.agentId, r.work])).toEqual([
      ['alpha', { todoId, claimed: true, lease: 'ACTIVE' }],
      ['beta', { todoId: null, claimed: false, lease: 'NONE' }],
    ]);
  });

  it('reading the directory, the rollup and excerpts changes no todo, claim, lease or gate', async () => {
    const goalId = await createGoal(t);
    await registerAgent(t, goalId, 'alpha');
    const provider = await registerProvider(t, [goalId]);
    await provider.report([{ goalId, agentId: 'alpha', liveness: 'BLOCKED' }]);
    const todoId = await createTodo(goalId, {
      requiredDecisionScopes: ['production:action:deploy'],
    });
    await claim(goalId, todoId, 'alpha');
    await openGate(goalId, { kind: 'PRODUCTION', granularity: 'ACTION', scopeKey: 'deploy' });
    const before = await workSnapshot(goalId);
    await t.ok(DirectoryDocument, { goalId });
    await t.ok(ATTENTION, { goalId, staleClaimMs: 1 });
    await t.ok(
      `query($g: ID!) { observe(goalId: $g, agentId: "alpha", source: RECENT, lines: 5) { __typename } }`,
      { g: goalId },
    );
    expect(await workSnapshot(goalId)).toEqual(before);
  });

  it('is built in a constant number of SQL statements, however many agents the goal has', async () => {
    const counting = countingDatabase(database);
    const gateway = await startTestGateway(counting.database, { adminToken: t.adminToken });
    try {
      const measure = async (agents: number) => {
        const goalId = await createGoal(t);
        const provider = await registerProvider(t, [goalId]);
        const ids = Array.from({ length: agents }, (_, i) => `agent-${i}`);
        for (const id of ids) await registerAgent(t, goalId, id);
        await provider.report(
          ids.map((agentId, i) => ({
            goalId,
            agentId,
            liveness: 'WORKING',
            providerSessionRef: `w1:p${i}`,
          })),
        );
        for (const id of ids.slice(0, 3)) await claim(goalId, await createTodo(goalId), id);
        counting.reset();
        const { directory } = await gateway.ok(DirectoryDocument, { goalId });
        expect(directory.rows).toHaveLength(agents);
        return counting.statements();
      };
      const small = await measure(3);
      const large = await measure(40);
      expect(large).toBe(small);
      expect(large).toBeLessThanOrEqual(8);
    } finally {
      await gateway.stop();
    }
  });
});

describe(`attention rollup (${driver})`, () => {
  it('lists first a provider that stopped reporting, naming the agents it covered; one that reports again leaves it', async () => {
    const goalId = await createGoal(t);
    for (const id of ['a', 'b', 'c']) await registerAgent(t, goalId, id);
    const silent = await registerProvider(t, [goalId], { presenceTtlMs: 1000 });
    const live = await registerProvider(t, [goalId]);
    await silent.report([
      { goalId, agentId: 'a', liveness: 'WORKING', providerSessionRef: 'p1' },
      { goalId, agentId: 'b', liveness: 'IDLE', providerSessionRef: 'p2' },
    ]);
    await live.report([{ goalId, agentId: 'c', liveness: 'WORKING', providerSessionRef: 'p3' }]);
    const waitingOnOwner = await createTodo(goalId, { taskClass: 'USER_ACTION' });
    const PROVIDERS = `query($goalId: ID!) {
      attention(goalId: $goalId) { rows { reason agentId todoId provider agentIds coverageGap since liveness } }
    }`;
    const rows = async () => (await t.ok(PROVIDERS, { goalId })).attention.rows;
    expect((await rows()).map((r: any) => r.reason)).toEqual(['WAITING_ON_OWNER']);
    const listed = await eventually(
      async () => {
        const now = await rows();
        return now.length === 2 ? now : undefined;
      },
      'the silent provider in the rollup',
      3000,
    );
    expect(listed).toEqual([
      {
        reason: 'PROVIDER_SILENT',
        agentId: null,
        todoId: null,
        provider: silent.providerId,
        agentIds: ['a', 'b'],
        coverageGap: 'PRESENCE_TTL_EXPIRED',
        since: expect.any(String),
        liveness: null,
      },
      {
        reason: 'WAITING_ON_OWNER',
        agentId: null,
        todoId: waitingOnOwner,
        provider: null,
        agentIds: [],
        coverageGap: null,
        since: expect.any(String),
        liveness: null,
      },
    ]);
    // The directory packet carries the same rollup.
    const { directory } = await t.ok(
      `query($goalId: ID!) { directory(goalId: $goalId) { rollup { reason provider agentIds } } }`,
      { goalId },
    );
    expect(directory.rollup[0]).toEqual({
      reason: 'PROVIDER_SILENT',
      provider: silent.providerId,
      agentIds: ['a', 'b'],
    });
    // It reports one of them again: no longer silent.
    await silent.report([{ goalId, agentId: 'a', liveness: 'WORKING', providerSessionRef: 'p1' }]);
    expect((await rows()).map((r: any) => r.reason)).toEqual(['WAITING_ON_OWNER']);
  });

  /** alpha claims a gated todo, beta claims an ungated one, and a user action waits on a person. */
  async function scenario() {
    const goalId = await createGoal(t);
    for (const id of ['alpha', 'beta', 'gamma']) await registerAgent(t, goalId, id);
    const gated = await createTodo(goalId, {
      requiredDecisionScopes: ['public_claim:action:bilingual_homepage'],
    });
    const free = await createTodo(goalId);
    const userAction = await createTodo(goalId, { taskClass: 'USER_ACTION' });
    await claim(goalId, gated, 'alpha');
    await claim(goalId, free, 'beta');
    const gateId = await openGate(goalId, {
      kind: 'PUBLIC_CLAIM',
      granularity: 'ACTION',
      scopeKey: 'bilingual_homepage',
    });
    return { goalId, gated, free, userAction, gateId };
  }

  it('lists typed reasons, most urgent first', async () => {
    const { goalId, gated, free, userAction, gateId } = await scenario();
    const fresh = await t.ok(ATTENTION, { goalId });
    expect(fresh.attention.rows.map((r: any) => [r.reason, r.agentId, r.todoId, r.gateId])).toEqual(
      [
        ['BLOCKED_ON_GATE', 'alpha', gated, gateId],
        ['WAITING_ON_OWNER', null, userAction, null],
      ],
    );
    // With a 1 ms threshold both claims are stale as soon as a millisecond has passed.
    const stale = await eventually(async () => {
      const rows = (await t.ok(ATTENTION, { goalId, staleClaimMs: 1 })).attention.rows;
      return rows.length === 4 ? rows : undefined;
    }, 'claims to go stale');
    expect(stale.map((r: any) => [r.reason, r.todoId])).toEqual([
      ['BLOCKED_ON_GATE', gated],
      ['WAITING_ON_OWNER', userAction],
      ['STALE_CLAIM', gated],
      ['STALE_CLAIM', free],
    ]);
    const { directory } = await t.ok(DirectoryDocument, { goalId });
    expect(directory.rollup.map((r: any) => r.reason)).toEqual([
      'BLOCKED_ON_GATE',
      'WAITING_ON_OWNER',
    ]);
  });

  it('presence annotates rows but cannot create, promote or remove one', async () => {
    const { goalId } = await scenario();
    const provider = await registerProvider(t, [goalId]);
    const rowsWithout = async () =>
      (await t.ok(ATTENTION, { goalId })).attention.rows.map(
        ({ liveness: _l, blockedKind: _k, since: _s, ...row }: any) => row,
      );
    const baseline = await rowsWithout();
    // gamma (no rows) at a gate, alpha (blocked on a gate) asking a question, beta blocked:
    // none of it is typed state.
    await provider.report([
      { goalId, agentId: 'gamma', liveness: 'BLOCKED', providerSessionRef: 'g' },
      {
        goalId,
        agentId: 'alpha',
        liveness: 'BLOCKED',
        blockedKind: 'QUESTION',
        providerSessionRef: 'a',
      },
      { goalId, agentId: 'beta', liveness: 'BLOCKED', providerSessionRef: 'b' },
    ]);
    expect(await rowsWithout()).toEqual(baseline);
    const annotated = (await t.ok(ATTENTION, { goalId })).attention.rows;
    expect(annotated[0]).toMatchObject({
      reason: 'BLOCKED_ON_GATE',
      agentId: 'alpha',
      liveness: 'BLOCKED',
      blockedKind: 'QUESTION',
    });
    await t.ok(
      EndPresenceDocument,
      {
        input: {
          goalId,
          agentId: 'alpha',
          providerSessionRef: 'a',
          observedAt: new Date().toISOString(),
          reportSeq: '99',
        },
      },
      provider.token,
    );
    expect(await rowsWithout()).toEqual(baseline);
  });

  it('lists a delivery that saw no activity inside its window as STALLED_DELIVERY', async () => {
    const { goalId } = await scenario();
    const provider = await registerProvider(t, [goalId]);
    await provider.report([{ goalId, agentId: 'gamma', liveness: 'IDLE' }]);
    const delivered = await t.ok(DeliverDocument, {
      input: {
        goalId,
        to: 'gamma',
        kind: 'REQUEST',
        subject: 'please review',
        body: 'the French variant is ready',
        idempotencyKey: 'stall-1',
        activityWindowMs: 50,
        timeoutMs: 60_000,
      },
    });
    expect(delivered.deliver.__typename).toBe('Delivery');
    const stalled = await eventually(async () => {
      const rows = (await t.ok(ATTENTION, { goalId })).attention.rows;
      return rows.find((r: any) => r.reason === 'STALLED_DELIVERY');
    }, 'the delivery to stall');
    expect(stalled).toMatchObject({ agentId: 'gamma', liveness: 'IDLE' });
    const reasons = (await t.ok(ATTENTION, { goalId })).attention.rows.map((r: any) => r.reason);
    expect(reasons).toEqual(['BLOCKED_ON_GATE', 'WAITING_ON_OWNER', 'STALLED_DELIVERY']);
  });

  it('an out-of-scope caller gets a scope gap and no rows', async () => {
    const { goalId } = await scenario();
    const outsider = await peerInNewGoal(t);
    const { attention } = await t.ok(ATTENTION, { goalId }, outsider.token);
    expect(attention).toEqual({ rows: [], scopeGap: { reason: 'AUDIENCE_NOT_AUTHORIZED' } });
  });
});
