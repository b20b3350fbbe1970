import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.ts';
import { Doorbell, type Ring, ring } from '../src/events/doorbell.ts';
import { follow } from '../src/events/follow.ts';
import { doorbellBus, driver, eventually, openTestDatabase, uid } from './support/harness.ts';

let database: Database;
let doorbell: Doorbell;

beforeAll(async () => {
  database = await openTestDatabase();
  doorbell = new Doorbell({ probeMs: 200, bus: doorbellBus });
  await doorbell.open(database);
});
afterAll(async () => {
  await doorbell?.close();
  await database?.close();
});

/** The LISTEN connection's own faults (test/doorbell-nats.test.ts has the NATS connection's). */
const onListen = driver === 'postgres' && doorbellBus === 'postgres';
const bus = doorbellBus === 'postgres' ? 'LISTEN/NOTIFY' : 'NATS';

describe(`doorbell: ${bus} (${driver})`, () => {
  it('rings on commit, never on rollback, for the matching key and the wildcard', async () => {
    const id = uid('cred');
    const heard: Ring[] = [];
    const wildcard: Ring[] = [];
    const offOne = doorbell.on('credential', id, (r) => heard.push(r));
    const offAll = doorbell.on('credential', null, (r) => {
      if (r.id === id) wildcard.push(r);
    });
    await database.db
      .transaction(async (tx) => {
        await ring(tx, { kind: 'credential', id, seq: '1' });
        tx.rollback();
      })
      .catch(() => {});
    await database.db.transaction((tx) => ring(tx, { kind: 'credential', id, seq: '2' }));
    await eventually(() => (heard.length > 0 ? true : undefined), 'the committed ring');
    expect(heard).toEqual([{ kind: 'credential', id, seq: '2' }]);
    expect(wildcard).toEqual(heard);
    offOne();
    offAll();
    await database.db.transaction((tx) => ring(tx, { kind: 'credential', id, seq: '3' }));
    await database.db.transaction((tx) => ring(tx, { kind: 'credential', id: uid('x'), seq: '1' }));
    expect(heard).toHaveLength(1);
  });

  it.runIf(doorbellBus === 'postgres')('ignores payloads that are not rings', async () => {
    await database.db.execute(sql`select pg_notify('switchboard', 'not json')`);
    const id = uid('cred');
    const heard: Ring[] = [];
    doorbell.on('credential', id, (r) => heard.push(r));
    await database.db.transaction((tx) => ring(tx, { kind: 'credential', id, seq: '1' }));
    await eventually(() => (heard.length === 1 ? true : undefined), 'the ring after the junk');
  });

  it.runIf(onListen)(
    'tells listeners to catch up when the LISTEN connection is killed and comes back',
    async () => {
      let reconnects = 0;
      const off = doorbell.onReconnect(() => {
        reconnects++;
      });
      await killListener(doorbell);
      await eventually(() => (reconnects > 0 ? true : undefined), 'the listener to reconnect');
      await expectRingHeard(doorbell);
      off();
    },
  );

  it.runIf(onListen)('a burst of kills of its LISTEN connection never leaves it deaf', async () => {
    const relistens = doorbell.stats.relistens;
    const until = Date.now() + 2_000;
    while (Date.now() < until) await killListener(doorbell);
    await eventually(
      () => (doorbell.status().listening ? true : undefined),
      'listening again after the burst',
      5_000,
    );
    expect(doorbell.stats.relistens).toBeGreaterThan(relistens);
    await expectRingHeard(doorbell);
  });

  it.runIf(onListen)('notices its listening connection close at once, not at the next probe', () =>
    withSlowDoorbell(async (slow) => {
      await killListener(slow);
      await eventually(
        () => (slow.stats.relistens > 0 && slow.status().listening ? true : undefined),
        'a new listening connection',
        3_000,
      );
    }),
  );

  it.runIf(onListen)(
    'a listening connection killed while its first probe is out is replaced at once',
    () =>
      withSlowDoorbell(async (slow) => {
        const until = Date.now() + 1_000;
        while (Date.now() < until) await killListener(slow);
        await eventually(
          () => (slow.status().listening ? true : undefined),
          'listening again after the burst',
          3_000,
        );
      }),
  );

  it.runIf(onListen)(
    'while it cannot listen it says why and polls; then listens again and catches up',
    async () => {
      let catchUps = 0;
      const off = doorbell.onReconnect(() => {
        catchUps++;
      });
      const deaf: string[] = [];
      // Kill every listening connection as soon as it appears, until deafness and at least
      // two polls were seen.
      await eventually(
        async () => {
          await killListener(doorbell);
          const status = doorbell.status();
          if (!status.listening) deaf.push(status.reason);
          return deaf.length > 0 && catchUps >= 2 ? true : undefined;
        },
        'deaf, and polling',
        10_000,
      );
      expect(deaf[0]).toMatch(/probe|listen/);
      await eventually(
        () => (doorbell.status().listening ? true : undefined),
        'listening again',
        5_000,
      );
      expect(doorbell.stats.relistens).toBeGreaterThan(0);
      await expectRingHeard(doorbell);
      off();
    },
  );
});

/**
 * Runs `recover` on a doorbell that probes a minute apart, so that only noticing a close
 * itself can pass a test's deadline, then checks that it hears rings again.
 */
async function withSlowDoorbell(recover: (slow: Doorbell) => Promise<void>): Promise<void> {
  const slow = new Doorbell({ probeMs: 60_000 });
  await slow.open(database);
  try {
    await recover(slow);
    await expectRingHeard(slow);
  } finally {
    await slow.close();
  }
}

async function killListener(bell: Doorbell): Promise<void> {
  await database.db.execute(
    sql`select pg_terminate_backend(pid) from pg_stat_activity
        where application_name = ${bell.connectionName}`,
  );
}

/**
 * The doorbell hears rings again. A ring sent while a listening connection was already dead
 * is lost by design (streams catch up from their cursors instead), so this rings once per
 * probe interval until one is heard, within a deadline.
 */
async function expectRingHeard(bell: Doorbell): Promise<void> {
  const id = uid('cred');
  const heard: Ring[] = [];
  const off = bell.on('credential', id, (r) => heard.push(r));
  let sent = 0;
  let lastSent = 0;
  await eventually(
    async () => {
      if (heard.length > 0) return true;
      if (Date.now() - lastSent >= 200) {
        lastSent = Date.now();
        const seq = String(++sent);
        await database.db.transaction((tx) => ring(tx, { kind: 'credential', id, seq }));
      }
      return undefined;
    },
    'a ring after reconnect',
    10_000,
  );
  off();
}

describe(`follow: catch-up streams (${driver})`, () => {
  it('reads at once, re-reads on each ring, collapses bursts, and ends on done', async () => {
    const id = uid('cred');
    const source = [1, 2, 3];
    let reads = 0;
    const stream = follow(doorbell, 'credential', id, 0, async (after: number) => {
      reads++;
      const items = source.filter((n) => n > after);
      return { items, cursor: items.at(-1) ?? after, done: items.includes(6) };
    });
    const seen: number[] = [];
    const consumed = (async () => {
      for await (const n of stream) seen.push(n);
    })();
    await eventually(() => (seen.length === 3 ? true : undefined), 'the initial read');
    source.push(4, 5);
    await database.db.transaction((tx) => ring(tx, { kind: 'credential', id, seq: '5' }));
    await eventually(() => (seen.length === 5 ? true : undefined), 'the rung items');
    source.push(6);
    await database.db.transaction((tx) => ring(tx, { kind: 'credential', id, seq: '6' }));
    await consumed; // done ends the stream
    expect(seen).toEqual([1, 2, 3, 4, 5, 6]);
    expect(reads).toBeLessThanOrEqual(3 + 1);
  });

  it('stops listening when the consumer returns', async () => {
    const id = uid('cred');
    const stream = follow(doorbell, 'credential', id, 0, async (after: number) => ({
      items: after === 0 ? [1] : [],
      cursor: 1,
    }));
    expect(await stream.next()).toEqual({ value: 1, done: false });
    await stream.return?.();
    expect(await stream.next()).toEqual({ value: undefined, done: true });
  });
});
