/**
 * The doorbell on NATS, with a NATS server of the test's own: rings after commit and no NOTIFY,
 * and its faults — a gateway's connection cut, NATS restarted, NATS down for 10 s while writes
 * go on. Through each, every stream catches up with no loss and no duplicate, a wait settles
 * typed, and /readyz says why while the doorbell is deaf.
 */
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, parseDoorbell } from '../src/config.ts';
import { type Database, openDatabase } from '../src/db/database.ts';
import {
  createGoal,
  driver,
  eventually,
  registerAgent,
  registerProvider,
  startTestGateway,
  subscribe,
  type TestGateway,
  wsClient,
} from './support/harness.ts';
import { NatsServer, Relay } from './support/nats.ts';
import { requires } from './support/requires.ts';

const PRESENCE = `subscription($g: ID!, $after: Seq) { presenceChanged(goalId: $g, after: $after) {
  seq agentId presence { liveness } } }`;
const WAIT_FOR = `subscription($input: WaitInput) { waitForAgent(input: $input) {
  __typename ... on Wait { status reason resolution { seq liveness } } } }`;

const url = process.env.TEST_DATABASE_URL as string;
let nats: NatsServer;
/** Each gateway reaches NATS through a relay of its own, so one gateway's connection can be cut. */
const relays: Relay[] = [];
const databases: Database[] = [];
const gateways: TestGateway[] = [];

/** On the run's Postgres (TEST_DATABASE_URL): NATS serves instances that share one. */
const suite = driver === 'postgres' ? requires('nats-server') : describe.skip;

suite('the doorbell on NATS (postgres)', () => {
  beforeAll(async () => {
    nats = await NatsServer.start();
    for (let i = 0; i < 2; i++) {
      const relay = await Relay.start(nats.port);
      const database = await openDatabase({ driver: 'postgres', url }, { rings: 'returned' });
      relays.push(relay);
      databases.push(database);
      gateways.push(
        await startTestGateway(database, { doorbell: { nats: relay.url }, doorbellProbeMs: 200 }),
      );
    }
  });
  afterAll(async () => {
    for (const gateway of gateways) await gateway.stop();
    for (const database of databases) await database.close();
    for (const relay of relays) await relay.close();
    await nats?.stop();
  });

  it('a commit through one instance rings every instance over NATS, and sends no NOTIFY', async () => {
    const listener = postgres(url, { max: 1, onnotice: () => {} });
    const notified: string[] = [];
    await listener.listen('switchboard', (payload) => notified.push(payload));
    try {
      const world = await goalWithWriter();
      for (let n = 1; n <= 5; n++) await world.write(n);
      await world.settled(5);
      expect(notified).toEqual([]);
      world.close();
    } finally {
      await listener.end({ timeout: 0 });
    }
  });

  it("a gateway's NATS connection cut: it is deaf, says why, and every stream catches up", async () => {
    const world = await goalWithWriter();
    const [a] = gateways as [TestGateway, TestGateway];
    const relay = relays[0] as Relay;
    await world.write(1, a);
    const wait = await world.waitFor('DONE');
    relay.refusing = true;
    relay.cut();
    const deaf = await eventually(async () => notReady(a), '/readyz of the cut gateway', 10_000);
    expect(deaf.reason).toMatch(/^NATS nats:\/\/127\.0\.0\.1:\d+: /);
    // Writes go on through the deaf gateway: the other instance has no ring from them yet.
    for (let n = 2; n <= 10; n++) await world.write(n, a);
    await world.write(11, a, 'DONE');
    relay.refusing = false;
    await eventually(async () => ((await ready(a)) ? true : undefined), 'listening again', 10_000);
    await world.settled(11);
    expect(await wait.outcome).toMatchObject({
      status: 'SATISFIED',
      resolution: { liveness: 'DONE' },
    });
    world.close();
  });

  it('NATS restarted while writes go on: every stream catches up, no loss, no duplicate', async () => {
    const world = await goalWithWriter();
    const writing = world.writeMany(40, 20);
    await nats.stop();
    await nats.start();
    await writing;
    await world.settled(40);
    for (const gateway of gateways)
      await eventually(async () => ((await ready(gateway)) ? true : undefined), 'ready', 10_000);
    world.close();
  });

  it('NATS down 10 s while writes go on: /readyz says why, streams poll, waits settle typed, all catch up', async () => {
    const world = await goalWithWriter();
    await world.write(1);
    const wait = await world.waitFor('DONE');
    await nats.stop();
    const downAt = Date.now();
    for (const gateway of gateways) {
      const deaf = await eventually(async () => notReady(gateway), '/readyz 503', 10_000);
      expect(deaf.reason).toMatch(/^NATS nats:\/\/127\.0\.0\.1:\d+: /);
    }
    let n = 1;
    while (Date.now() - downAt < 10_000) {
      await world.write(++n, gateways[n % 2]);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await world.write(++n, gateways[0], 'DONE');
    // The streams and the wait were served by polling while NATS was down.
    await world.settled(n);
    expect(await wait.outcome).toMatchObject({
      status: 'SATISFIED',
      resolution: { liveness: 'DONE' },
    });
    for (const gateway of gateways) {
      expect(await ready(gateway)).toBe(false);
      expect(await metric(gateway, 'switchboard_doorbell_listening')).toBe(0);
      expect(await metric(gateway, 'switchboard_doorbell_deaf_seconds')).toBeGreaterThan(5);
      expect(await metric(gateway, 'switchboard_doorbell_unsent_rings_total')).toBeGreaterThan(0);
    }
    const reconnects = await metric(
      gateways[0] as TestGateway,
      'switchboard_doorbell_reconnects_total',
    );
    await nats.start();
    for (const gateway of gateways)
      await eventually(async () => ((await ready(gateway)) ? true : undefined), 'ready', 10_000);
    expect(await metric(gateways[0] as TestGateway, 'switchboard_doorbell_reconnects_total')).toBe(
      reconnects + 1,
    );
    await world.write(++n);
    await world.settled(n);
    world.close();
  }, 60_000);
});

/** The value of one sample of a gateway's /metrics. */
async function metric(gateway: TestGateway, series: string): Promise<number> {
  const text = await (await fetch(gateway.url.replace(/\/graphql$/, '/metrics'))).text();
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return Number(line?.slice(series.length + 1));
}

async function readyz(gateway: TestGateway) {
  const response = await fetch(gateway.url.replace(/\/graphql$/, '/readyz'));
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}
const ready = async (gateway: TestGateway) => (await readyz(gateway)).status === 200;
async function notReady(gateway: TestGateway) {
  const { status, body } = await readyz(gateway);
  if (status !== 503) return undefined;
  expect(body).toMatchObject({ status: 'doorbell not listening', since: expect.any(String) });
  return body as { reason: string };
}

/**
 * A goal whose agent's presence a provider reports, with a presence stream on each gateway
 * from seq 0. `write(n)` reports the n-th change (seq n); `settled(n)` waits until every
 * stream has exactly seqs 1..n, in order, each once.
 */
async function goalWithWriter() {
  const [a, b] = gateways as [TestGateway, TestGateway];
  const goalId = await createGoal(a);
  await registerAgent(a, goalId, 'alpha');
  const provider = await registerProvider(a, [goalId]);
  const clients = gateways.map((g) => wsClient(g.wsUrl, g.adminToken));
  const streams = clients.map((client) =>
    subscribe(client, PRESENCE, { g: goalId, after: '0' }, 'presenceChanged'),
  );
  const write = async (n: number, through: TestGateway = a, liveness?: string) => {
    const result = await provider.report(
      [{ goalId, agentId: 'alpha', liveness: liveness ?? (n % 2 ? 'WORKING' : 'BLOCKED') }],
      through,
    );
    expect(result.__typename).toBe('PresenceAccepted');
  };
  return {
    write,
    async writeMany(count: number, pauseMs: number) {
      for (let n = 1; n <= count; n++) {
        await write(n, gateways[n % 2]);
        await new Promise((resolve) => setTimeout(resolve, pauseMs));
      }
    },
    async settled(n: number) {
      const expected = Array.from({ length: n }, (_, i) => String(i + 1));
      for (const stream of streams) {
        await stream.take(n, 15_000);
        expect(stream.items.map((item: { seq: string }) => item.seq)).toEqual(expected);
      }
    },
    /** A wait on gateway b for alpha to reach `liveness`, once PENDING; `outcome` is its end. */
    async waitFor(liveness: string) {
      const client = wsClient(b.wsUrl, b.adminToken);
      const wait = subscribe(
        client,
        WAIT_FOR,
        { input: { goalId, agentId: 'alpha', accept: [liveness], timeoutMs: 60_000 } },
        'waitForAgent',
      );
      expect(await wait.take(1, 10_000)).toMatchObject([{ status: 'PENDING' }]);
      return {
        outcome: wait.completed.then(async () => {
          await client.dispose();
          return wait.items.at(-1);
        }),
      };
    },
    close() {
      for (const stream of streams) stream.dispose();
      for (const client of clients) void client.dispose();
    },
  };
}

describe('SWITCHBOARD_DOORBELL', () => {
  const db = 'postgres://postgres@127.0.0.1:5432/x';
  it('is LISTEN/NOTIFY by default, or NATS servers; anything else is refused with what to set', () => {
    expect(parseDoorbell(undefined, undefined)).toBe('postgres');
    expect(parseDoorbell('postgres', undefined)).toBe('postgres');
    expect(parseDoorbell('nats://127.0.0.1:4222', db)).toEqual({ nats: 'nats://127.0.0.1:4222' });
    expect(parseDoorbell('nats://a:4222, nats://b:4222', db)).toEqual({
      nats: 'nats://a:4222,nats://b:4222',
    });
    for (const bad of ['redis://127.0.0.1:6379', 'nats://', '127.0.0.1:4222', 'nats://h:1/x'])
      expect(() => parseDoorbell(bad, db)).toThrow(
        /^SWITCHBOARD_DOORBELL must be postgres or a NATS server such as nats:\/\/127\.0\.0\.1:4222/,
      );
    expect(() => parseDoorbell('nats://127.0.0.1:4222', undefined)).toThrow(ConfigError);
    expect(() => parseDoorbell('nats://127.0.0.1:4222', undefined)).toThrow(/needs DATABASE_URL/);
  });
});
