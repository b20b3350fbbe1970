/**
 * Expiry is an event: a presence that lapses (TTL passed, provider instance replaced, provider
 * credential revoked) is one change on every presence stream, exactly once however many
 * gateway instances run and whichever of them dies, and a read says what that change said.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import {
  DirectoryDocument,
  PresenceChangedDocument,
  ReportPresenceDocument,
  RevokeCredentialDocument,
  RotateCredentialDocument,
} from '../src/client/generated/graphql.ts';
import { openDatabase } from '../src/db/database.ts';
import { rowsOf } from '../src/db/sql.ts';
import { database, t } from './support/gateway-per-file.ts';
import {
  createGoal,
  driver,
  eventually,
  issueCredential,
  openTestDatabase,
  registerAgent,
  registerProvider,
  startGatewayProcess,
  startTestGateway,
  subscribe,
  type TestGateway,
  testRings,
  uid,
  wsClient,
} from './support/harness.ts';
import { providerProcess } from './support/provider-process.ts';

const lapses = (items: { presence: { coverageGap: string | null } }[]) =>
  items.filter(
    (c) => c.presence.coverageGap && c.presence.coverageGap !== 'PROVIDER_CANNOT_CLASSIFY',
  );

/** Resolves once both sweepers have each tried `rounds` more sweeps than now. */
async function sweptAgain(gateways: TestGateway[], rounds = 2): Promise<void> {
  const tries = (g: TestGateway) =>
    g.gateway.deps.sweeper.stats.sweeps + g.gateway.deps.sweeper.stats.skipped;
  const start = gateways.map(tries);
  await eventually(
    () => (gateways.every((g, i) => tries(g) >= (start[i] as number) + rounds) ? true : undefined),
    `${rounds} more sweeps on every instance`,
  );
}

async function changesOf(goalId: string, agentId: string) {
  return rowsOf<{ seq: string; liveness: string; lapse: string | null }>(
    await database.db.execute(sql`select seq::text, liveness, lapse from presence_changes
      where goal_id = ${goalId} and agent_id = ${agentId} order by seq`),
  );
}

describe(`a provider killed with kill -9 (${driver})`, () => {
  it('its agent lapses to UNKNOWN (PRESENCE_TTL_EXPIRED) on presenceChanged within TTL + 2 s, exactly once across two instances; the read says the same; a report after the lapse brings it back', async () => {
    const TTL = 2000;
    const secondDatabase = driver === 'postgres' ? await openTestDatabase() : database;
    const b = await startTestGateway(secondDatabase, { adminToken: t.adminToken });
    const goalId = await createGoal(t);
    const agentId = await registerAgent(t, goalId, 'alpha');
    const providerId = uid('provider');
    const { token } = await issueCredential(t, { kind: 'PROVIDER', providerId, goalIds: [goalId] });
    const onA = wsClient(t.wsUrl, t.adminToken);
    const onB = wsClient(b.wsUrl, b.adminToken);
    const streamA = subscribe(
      onA,
      PresenceChangedDocument,
      { goalId, after: '0' },
      'presenceChanged',
    );
    const streamB = subscribe(
      onB,
      PresenceChangedDocument,
      { goalId, after: '0' },
      'presenceChanged',
    );
    const provider = providerProcess({
      SWITCHBOARD_URL: b.url,
      SWITCHBOARD_TOKEN: token,
      PROVIDER_ID: providerId,
      GOAL_ID: goalId,
      AGENTS: agentId,
      PRESENCE_TTL_MS: String(TTL),
    });
    try {
      const [reported] = await streamA.take(1, 30_000);
      expect(reported.presence).toMatchObject({ liveness: 'WORKING', coverageGap: null });
      // A few heartbeats: each keeps it covered and none is a change.
      await eventually(() => (provider.reports() >= 4 ? true : undefined), 'heartbeats', 10_000);
      await provider.kill9();
      const lastReport = provider.lastReport();

      const [, lapsedOnA] = await streamA.take(2, TTL + 5000);
      const arrived = Date.now();
      const [, lapsedOnB] = await streamB.take(2, 5000);
      expect(lapsedOnA).toEqual(lapsedOnB);
      expect(lapsedOnA).toMatchObject({
        agentId,
        previousLiveness: 'WORKING',
        presence: {
          provider: providerId,
          liveness: 'UNKNOWN',
          reportedLiveness: 'WORKING',
          coverageGap: 'PRESENCE_TTL_EXPIRED',
          stale: false,
          endedAt: null,
          stateChangeSeq: lapsedOnA.seq,
        },
      });
      const latency = arrived - lastReport;
      console.log(`lapse on the stream ${latency} ms after the last report (TTL ${TTL} ms)`);
      expect(latency).toBeGreaterThanOrEqual(TTL);
      expect(latency).toBeLessThan(TTL + 2000);

      // Both instances sweep on: the lapse stays one change.
      await sweptAgain([t, b]);
      expect(lapses(streamA.items)).toHaveLength(1);
      expect(lapses(streamB.items)).toHaveLength(1);
      expect((await changesOf(goalId, agentId)).map((c) => c.lapse)).toEqual([
        null,
        'PRESENCE_TTL_EXPIRED',
      ]);
      // The read says what the last change said, on either instance.
      for (const gateway of [t, b]) {
        const { directory } = await gateway.ok(DirectoryDocument, { goalId });
        expect(directory.rows[0].presence).toEqual(lapsedOnA.presence);
      }

      // The provider comes back: a new change, covered again.
      const back = await t.ok(
        ReportPresenceDocument,
        {
          reports: [
            {
              goalId,
              agentId,
              providerSessionRef: `pane-${agentId}`,
              occupantRef: `pane-${agentId}/agent`,
              liveness: 'WORKING',
              observedAt: new Date().toISOString(),
              basis: 'PROVIDER_DETECTION',
              reportSeq: String(Date.now()),
            },
          ],
        },
        token,
      );
      expect(back.reportPresence).toMatchObject({
        __typename: 'PresenceAccepted',
        changed: 1,
        refused: [],
      });
      const [, , again] = await streamA.take(3);
      expect(again).toMatchObject({
        previousLiveness: 'UNKNOWN',
        presence: { liveness: 'WORKING', coverageGap: null },
      });
      expect(Number(again.seq)).toBe(Number(lapsedOnA.seq) + 1);
      const { directory } = await b.ok(DirectoryDocument, { goalId });
      expect(directory.rows[0].presence).toEqual(again.presence);
    } finally {
      await provider.kill9();
      streamA.dispose();
      streamB.dispose();
      await onA.dispose();
      await onB.dispose();
      await b.stop();
      if (secondDatabase !== database) await secondDatabase.close();
    }
  }, 60_000);
});

describe(`other lapses (${driver})`, () => {
  it('a provider re-registering with a new instance lapses what its earlier instance reported at once (PROVIDER_RESTARTED), one change each; the new instance brings them back', async () => {
    const goalId = await createGoal(t);
    for (const id of ['a', 'b']) await registerAgent(t, goalId, id);
    const provider = await registerProvider(t, [goalId]);
    await provider.report([
      { goalId, agentId: 'a', liveness: 'WORKING', providerSessionRef: 'p1' },
      { goalId, agentId: 'b', liveness: 'IDLE', providerSessionRef: 'p2' },
    ]);
    const client = wsClient(t.wsUrl, t.adminToken);
    const stream = subscribe(
      client,
      PresenceChangedDocument,
      { goalId, after: '2' },
      'presenceChanged',
    );
    await provider.register('instance-1'); // the same instance again: nothing lapses
    await provider.register('instance-2');
    const restarted = await stream.take(2);
    expect(
      restarted.map((c) => [
        c.seq,
        c.agentId,
        c.presence.liveness,
        c.presence.coverageGap,
        c.presence.stale,
      ]),
    ).toEqual([
      ['3', 'a', 'UNKNOWN', 'PROVIDER_RESTARTED', true],
      ['4', 'b', 'UNKNOWN', 'PROVIDER_RESTARTED', true],
    ]);
    const { directory } = await t.ok(DirectoryDocument, { goalId });
    expect(directory.rows.map((r: any) => r.presence)).toEqual(restarted.map((c) => c.presence));
    await provider.report([
      { goalId, agentId: 'a', liveness: 'WORKING', providerSessionRef: 'p1' },
    ]);
    const [, , back] = await stream.take(3);
    expect(back).toMatchObject({
      seq: '5',
      agentId: 'a',
      presence: { liveness: 'WORKING', coverageGap: null, stale: false },
    });
    stream.dispose();
    await client.dispose();
  });

  it("revoking a provider's only credential for the goal lapses its presence at once (PROVIDER_REVOKED); rotating it does not", async () => {
    const goalId = await createGoal(t);
    await registerAgent(t, goalId, 'a');
    const provider = await registerProvider(t, [goalId]);
    await provider.report([{ goalId, agentId: 'a', liveness: 'WORKING' }]);
    const [credential] = rowsOf<{ id: string }>(
      await database.db.execute(
        sql`select id from credentials where provider_id = ${provider.providerId}`,
      ),
    );
    const client = wsClient(t.wsUrl, t.adminToken);
    const stream = subscribe(
      client,
      PresenceChangedDocument,
      { goalId, after: '1' },
      'presenceChanged',
    );
    const rotated = await t.ok(RotateCredentialDocument, { id: credential?.id });
    const replacement = rotated.rotateCredential.credential.id;
    // The rotation rang: every instance checked it, and nothing lapsed.
    await sweptAgain([t]);
    expect(stream.items).toEqual([]);
    await t.ok(RevokeCredentialDocument, { id: replacement });
    const [revoked] = await stream.take(1, 3000);
    expect(revoked.presence).toMatchObject({
      liveness: 'UNKNOWN',
      reportedLiveness: 'WORKING',
      coverageGap: 'PROVIDER_REVOKED',
    });
    stream.dispose();
    await client.dispose();
  });
});

describe.skipIf(driver === 'pglite')(
  'the instance that sweeps is killed halfway (postgres)',
  () => {
    it('the other instance takes over and the lapse is recorded exactly once', async () => {
      const name = `sb_sweep_${randomUUID().slice(0, 8)}`;
      const serverUrl = new URL(process.env.TEST_DATABASE_URL as string);
      const admin = postgres(serverUrl.toString(), { max: 1, onnotice: () => {} });
      await admin.unsafe(`create database ${name}`);
      const url = Object.assign(new URL(serverUrl.toString()), { pathname: `/${name}` }).toString();
      const own = postgres(url, { max: 1, onnotice: () => {} });
      let a: Awaited<ReturnType<typeof startGatewayProcess>> | undefined;
      let b: TestGateway | undefined;
      let bDatabase: Awaited<ReturnType<typeof openDatabase>> | undefined;
      let release = () => {};
      let holding: Promise<unknown> = Promise.resolve();
      try {
        // A: a gateway in its own process, the only sweeper at first.
        a = await startGatewayProcess(url);
        const goalId = await createGoal(a);
        await registerAgent(a, goalId, 'alpha');
        const provider = await registerProvider(a, [goalId], {
          presenceTtlMs: 1000,
        });

        await provider.report([{ goalId, agentId: 'alpha', liveness: 'WORKING' }], a);

        // Hold the goal's presence head: after the TTL, A's sweep takes the sweep lock, finds the
        // goal due and waits here for its head, halfway through its transaction.
        const held = new Promise<void>((resolve) => {
          release = resolve;
        });
        holding = own.begin(async (tx) => {
          await tx`select seq from stream_heads where goal_id = ${goalId} and stream = 'presence' for update`;
          await held;
        });
        const sweeper = `switchboard-sweeper-${a.child.pid}`;
        await eventually(
          async () => {
            const [row] = await admin`select count(*)::int as n from pg_locks l
            join pg_stat_activity s on s.pid = l.pid
            where l.locktype = 'advisory' and l.granted and s.datname = ${name}
              and s.application_name = ${sweeper} and s.wait_event_type = 'Lock'`;
            return row?.n === 1 ? true : undefined;
          },
          "A's sweep holding the sweep lock and waiting for the goal's head",
          10_000,
        );

        // B joins; while A's transaction lives, B's sweeps find the lock taken.
        bDatabase = await openDatabase({ driver: 'postgres', url }, { rings: testRings });
        b = await startTestGateway(bDatabase, { adminToken: a.adminToken });
        const client = wsClient(b.wsUrl, b.adminToken);
        const stream = subscribe(
          client,
          PresenceChangedDocument,
          { goalId, after: '0' },
          'presenceChanged',
        );
        await stream.take(1);
        const bSweeper = b.gateway.deps.sweeper.stats;
        await eventually(
          () => (bSweeper.skipped > 0 ? true : undefined),
          'B finding the lock taken',
        );
        expect(bSweeper.lapsed).toBe(0);

        // A dies halfway; its transaction goes with it, and B takes over.
        await a.kill9();
        release();
        await holding;
        const [, lapsed] = await stream.take(2, 5000);
        expect(lapsed).toMatchObject({
          agentId: 'alpha',
          seq: '2',
          presence: { liveness: 'UNKNOWN', coverageGap: 'PRESENCE_TTL_EXPIRED' },
        });
        expect(bSweeper.lapsed).toBe(1);
        await sweptAgain([b]);
        const rows =
          await own`select seq::text, lapse from presence_changes where goal_id = ${goalId} order by seq`;
        expect(rows.map((r) => [r.seq, r.lapse])).toEqual([
          ['1', null],
          ['2', 'PRESENCE_TTL_EXPIRED'],
        ]);
        expect(stream.items).toHaveLength(2);
        stream.dispose();
        await client.dispose();
      } finally {
        release();
        await holding.catch(() => undefined);
        await a?.kill9();
        await b?.stop();
        await bDatabase?.close();
        await own.end();
        await admin.unsafe(`drop database if exists ${name} with (force)`);
        await admin.end();
      }
    }, 60_000);
  },
);
