/**
 * Floors, measured in the same run as the figure judged against them (issue 40): what the same
 * work costs with nothing of Switchboard's in the way, so a target is a ratio that holds from
 * one machine to the next rather than milliseconds that hold on one.
 */
import postgres from 'postgres';
import { WebSocket, WebSocketServer } from 'ws';
import {
  benchProcess,
  PRESENCE_SUBSCRIPTION,
  startSubscribers,
  summary,
  warmedFanOut,
  YOUNG_GENERATION,
} from './support.ts';

/**
 * Fan-out: `count` subscribers (over `processes` client processes, as the gateway's were) on a
 * bare `ws` server (bench/raw-broadcast-process.ts) that serializes one event once and sends it
 * to every socket; send → receipt per round, timed as warmedFanOut times the gateway's.
 */
export async function bareWsFanOut(
  count: number,
  processes: number,
  warmUp: number,
  rounds: number,
) {
  const raw = benchProcess('./raw-broadcast-process.ts', { execArgv: [YOUNG_GENERATION] });
  const { wsUrl } = await raw.next<{ wsUrl: string }>('ready');
  const subscribers = await startSubscribers([{ wsUrl, token: 'none', count }], processes);
  await subscribers.connect();
  await subscribers.subscribe(PRESENCE_SUBSCRIPTION, {}, 'presenceChanged.seq');
  const broadcast = async (_liveness: string, round: number) =>
    raw.send({ type: 'broadcast', seq: String(round + 1) });
  const floor = await warmedFanOut(subscribers, warmUp, rounds, broadcast);
  await subscribers.close();
  await raw.stop();
  return floor.fanOutMs;
}

/**
 * A write that wakes a socket, bare: a transaction inserting one row and notifying, committed
 * on Postgres at `url`; a LISTEN connection hears it and a bare `ws` server sends one frame;
 * commit start → frame received, `rounds` times one at a time, after `warmUp` rounds.
 */
export async function commitNotifyFrame(url: string, rounds: number, warmUp = 10) {
  const channel = `bench_floor_${process.pid}`;
  const table = `bench_floor_${process.pid}`;
  const writer = postgres(url, { max: 1, onnotice: () => {} });
  const listener = postgres(url, { max: 1, onnotice: () => {} });
  const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as { port: number };
  const client = new WebSocket(`ws://127.0.0.1:${port}`);
  const [socket] = (await Promise.all([
    new Promise((resolve) => server.once('connection', resolve)),
    new Promise((resolve) => client.once('open', resolve)),
  ])) as [WebSocket, unknown];
  await writer.unsafe(`create table ${table} (id bigint primary key, at timestamptz not null)`);
  const listening = await listener.listen(channel, (payload) => socket.send(payload));
  const arrivals = new Map<string, () => void>();
  client.on('message', (data) => arrivals.get(String(data))?.());
  const samples: number[] = [];
  try {
    for (let i = 0; i < warmUp + rounds; i++) {
      const id = String(i);
      const arrived = new Promise<void>((resolve) => arrivals.set(id, resolve));
      const start = performance.now();
      await writer.begin(async (tx) => {
        await tx.unsafe(`insert into ${table} values ($1, now())`, [id]);
        await tx.unsafe('select pg_notify($1, $2)', [channel, id]);
      });
      await arrived;
      if (i >= warmUp) samples.push(performance.now() - start);
    }
  } finally {
    await listening.unlisten();
    await writer.unsafe(`drop table if exists ${table}`);
    client.close();
    server.close();
    await Promise.all([writer.end(), listener.end()]);
  }
  return summary(samples);
}

/**
 * Writes, bare: `senders` connections each inserting `perSender` copies of a row of `table`
 * (the `template`, with `unique(i)` merged into each copy) one after another, each in its own
 * transaction with a NOTIFY, into a copy of the table with its indexes and without its foreign
 * keys; rows committed per second, all senders together.
 */
export async function insertNotifyRate(
  url: string,
  table: string,
  template: Record<string, unknown>,
  unique: (i: number) => Record<string, unknown>,
  senders: number,
  perSender: number,
) {
  const copy = `bench_floor_${table}_${process.pid}`;
  const sql = postgres(url, { max: senders, onnotice: () => {} });
  await sql.unsafe(`create table ${copy} (like ${table} including defaults including indexes)`);
  try {
    const start = performance.now();
    await Promise.all(
      Array.from({ length: senders }, async (_, s) => {
        for (let k = 0; k < perSender; k++) {
          const row = { ...template, ...unique(s * perSender + k) };
          await sql.begin(async (tx) => {
            await tx.unsafe(
              `insert into ${copy} select * from jsonb_populate_record(null::${copy}, $1::text::jsonb)`,
              [JSON.stringify(row)],
            );
            await tx.unsafe(`select pg_notify('${copy}', $1)`, [String(s)]);
          });
        }
      }),
    );
    return (senders * perSender) / ((performance.now() - start) / 1000);
  } finally {
    await sql.unsafe(`drop table if exists ${copy}`);
    await sql.end();
  }
}

/** `value` ÷ `floor`, or null when either is missing or the floor is 0. */
export const ratio = (value: number | null | undefined, floor: number | null | undefined) =>
  value == null || floor == null || floor === 0 ? null : value / floor;
