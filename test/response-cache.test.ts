import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { database, t } from './support/gateway-per-file.ts';
import {
  createGoal,
  doorbellBus,
  driver,
  eventually,
  issueCredential,
  registerAgent,
  registerProvider,
  startTestGateway,
  type TestGateway,
} from './support/harness.ts';

const DIRECTORY = `query($g: ID!) { directory(goalId: $g) { registeredAgentCount
  rows { agentId work { todoId claimed } presence { liveness observedAt } } } }`;

async function world() {
  const goalId = await createGoal(t);
  const agentId = await registerAgent(t, goalId);
  const provider = await registerProvider(t, [goalId]);
  const steward = await issueCredential(t, { kind: 'STEWARD', goalIds: [goalId] });
  await provider.report([{ goalId, agentId, liveness: 'WORKING' }]);
  return { goalId, agentId, provider, steward };
}

const read = (gateway: TestGateway, goalId: string, token: string) =>
  gateway.ok<{ directory: any }>(DIRECTORY, { g: goalId }, token).then((d) => d.directory);

const stats = (gateway: TestGateway) => ({ ...gateway.gateway.deps.responses.stats });

describe(`response cache (${driver})`, () => {
  it('answers a repeated read of an unchanged goal from memory, and every write on the next read after its commit', async () => {
    const { goalId, agentId, provider, steward } = await world();
    const first = await read(t, goalId, steward.token);
    const before = stats(t);
    expect(await read(t, goalId, steward.token)).toEqual(first);
    expect(stats(t).hits).toBe(before.hits + 1);

    // Registry: a new agent.
    const second = await registerAgent(t, goalId);
    expect((await read(t, goalId, steward.token)).registeredAgentCount).toBe(2);
    // Work: a claim.
    const todo = await t.ok<{ createTodo: { id: string } }>(
      `mutation($i: CreateTodoInput!) { createTodo(input: $i) { ... on Todo { id } } }`,
      { i: { goalId, title: 'cached?', taskClass: 'ADVANCEMENT_TASK' } },
    );
    await t.ok(`mutation($i: TodoActionInput!) { claimTodo(input: $i) { __typename } }`, {
      i: { goalId, todoId: todo.createTodo.id, agentId: second },
    });
    const claimed = await read(t, goalId, steward.token);
    expect(claimed.rows.find((r: any) => r.agentId === second).work.todoId).toBe(
      todo.createTodo.id,
    );
    // Presence: a change of liveness, then a heartbeat (no new presence seq, a new observedAt).
    await provider.report([{ goalId, agentId, liveness: 'IDLE' }]);
    const idle = (await read(t, goalId, steward.token)).rows.find(
      (r: any) => r.agentId === agentId,
    );
    expect(idle.presence.liveness).toBe('IDLE');
    await new Promise((resolve) => setTimeout(resolve, 5)); // a later observedAt
    await provider.report([{ goalId, agentId, liveness: 'IDLE' }]);
    const heartbeat = (await read(t, goalId, steward.token)).rows.find(
      (r: any) => r.agentId === agentId,
    );
    expect(heartbeat.presence.observedAt).not.toBe(idle.presence.observedAt);
  });

  it('a write through another instance on the same database is on the next read', async () => {
    const { goalId, provider, steward } = await world();
    const other = await startTestGateway(database);
    try {
      await read(other, goalId, steward.token);
      await read(other, goalId, steward.token); // now cached on the other instance
      expect(stats(other).hits).toBeGreaterThan(0);
      // Written through this instance, read at once through the other: no waiting for a ring.
      const agentId = await registerAgent(t, goalId);
      expect((await read(other, goalId, steward.token)).registeredAgentCount).toBe(2);
      await provider.report([{ goalId, agentId, liveness: 'BLOCKED' }]);
      const row = (await read(other, goalId, steward.token)).rows.find(
        (r: any) => r.agentId === agentId,
      );
      expect(row.presence.liveness).toBe('BLOCKED');
    } finally {
      await other.stop();
    }
  });

  it('never shares an answer between scopes', async () => {
    const { goalId, steward } = await world();
    const before = stats(t);
    await read(t, goalId, steward.token);
    await read(t, goalId, t.adminToken);
    expect(stats(t).hits).toBe(before.hits);
    // A peer of another goal, same document and variables: the scope gap, not the cached rows.
    const outsiderGoal = await createGoal(t);
    const outsider = await registerAgent(t, outsiderGoal);
    const peer = await issueCredential(t, {
      kind: 'PEER',
      goalId: outsiderGoal,
      agentId: outsider,
    });
    expect((await read(t, goalId, peer.token)).rows).toEqual([]);
  });

  it('is off with SWITCHBOARD_RESPONSE_CACHE=off', async () => {
    const { goalId, steward } = await world();
    const off = await startTestGateway(database, { responseCache: false });
    try {
      await read(off, goalId, steward.token);
      await read(off, goalId, steward.token);
      expect(stats(off)).toEqual({ hits: 0, misses: 0, bypassed: 0 });
    } finally {
      await off.stop();
    }
  });

  // Kills the LISTEN connection; test/doorbell-nats.test.ts has the NATS connection's faults.
  it.runIf(driver === 'postgres' && doorbellBus === 'postgres')(
    'caches nothing while the doorbell is not listening',
    async () => {
      const { goalId, steward } = await world();
      const gateway = await startTestGateway(database, { doorbellProbeMs: 100 });
      try {
        await read(gateway, goalId, steward.token);
        await read(gateway, goalId, steward.token);
        expect(stats(gateway).hits).toBe(1);
        const { doorbell } = gateway.gateway.deps;
        // Kill its listening connection as it reappears, reading while it is deaf.
        let deafReads = 0;
        const hits = stats(gateway).hits;
        await eventually(
          async () => {
            await database.db.execute(
              sql`select pg_terminate_backend(pid) from pg_stat_activity
                  where application_name = ${doorbell.connectionName}`,
            );
            if (!doorbell.status().listening) {
              await read(gateway, goalId, steward.token);
              if (!doorbell.status().listening) deafReads++;
            }
            return deafReads >= 3 ? true : undefined;
          },
          'three reads while deaf',
          15_000,
        );
        expect(stats(gateway).bypassed).toBeGreaterThanOrEqual(3);
        expect(stats(gateway).hits).toBe(hits);
        await eventually(
          () => (doorbell.status().listening ? true : undefined),
          'listening again',
          10_000,
        );
        // Listening again: it caches again (the first read after deafness is a miss).
        await read(gateway, goalId, steward.token);
        await read(gateway, goalId, steward.token);
        expect(stats(gateway).hits).toBe(hits + 1);
      } finally {
        await gateway.stop();
      }
    },
    40_000,
  );
});
