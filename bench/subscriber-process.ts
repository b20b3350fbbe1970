/**
 * A load generator for `startSubscribers` (bench/support.ts): subscribers, each on its own
 * socket, in a process of their own. Every subscriber stamps the receipt of each event with
 * `now()`, filed under the value at `key` in the payload (e.g. `presenceChanged.seq`).
 *
 * Each speaks the graphql-transport-ws protocol directly over `ws` (one subscription per
 * socket, id "1"): the graphql-ws client's per-message work was the bottleneck at 10,000
 * subscribers, so receipts were stamped late and the figure measured the client.
 *
 * Messages from the parent: connect, subscribe, receipts, stop; each is answered with a
 * message of the same type. Any subscription error or unexpected close ends the process.
 */
import WebSocket from 'ws';
import { now, type SubscriberTarget, until } from './support.ts';

/** Sockets opened at once, so the gateway's listen backlog is not flooded. */
const BATCH = 50;

interface Subscriber {
  readonly socket: WebSocket;
  /** Called with each `next` payload's data. */
  onData: ((data: unknown) => void) | null;
}

const subscribers: Subscriber[] = [];
const stamped = new Map<string, number[]>();
/** Each subscriber's latest value: what the laggards had when a wait timed out. */
const latest: string[] = [];
const live = new Set<number>();
let stopping = false;

function fail(what: string, error: unknown): never {
  const detail = error instanceof Error ? error.message : JSON.stringify(error);
  process.stderr.write(`subscriber process: ${what}: ${detail}\n`);
  process.exit(1);
}

function open(target: SubscriberTarget): Promise<void> {
  return new Promise((resolve) => {
    const socket = new WebSocket(target.wsUrl, 'graphql-transport-ws');
    const subscriber: Subscriber = { socket, onData: null };
    socket.on('open', () =>
      socket.send(
        JSON.stringify({
          type: 'connection_init',
          payload: { authorization: `Bearer ${target.token}` },
        }),
      ),
    );
    socket.on('message', (raw) => {
      const message = JSON.parse(String(raw));
      if (message.type === 'next') subscriber.onData?.(message.payload.data);
      else if (message.type === 'connection_ack') resolve();
      else if (message.type === 'ping') socket.send('{"type":"pong"}');
      else if (message.type === 'error') fail('subscription error', message.payload);
      else if (message.type === 'complete') fail('subscription completed', message.id);
    });
    socket.on('error', (error) => fail('connection failed', error));
    socket.on('close', (code) => {
      if (!stopping) fail('socket closed', code);
    });
    subscribers.push(subscriber);
  });
}

async function connect(targets: SubscriberTarget[]) {
  for (const target of targets) {
    for (let n = 0; n < target.count; n += BATCH) {
      const batch = Math.min(BATCH, target.count - n);
      await Promise.all(Array.from({ length: batch }, () => open(target)));
    }
  }
}

async function subscribe(query: string, variables: Record<string, unknown>, key: string) {
  const path = key.split('.');
  const message = JSON.stringify({ id: '1', type: 'subscribe', payload: { query, variables } });
  subscribers.forEach((subscriber, index) => {
    subscriber.onData = (data) => {
      const at = now();
      const value = String(path.reduce((node: any, name) => node?.[name], data));
      const times = stamped.get(value) ?? [];
      times.push(at);
      stamped.set(value, times);
      latest[index] = value;
      live.add(index);
    };
    subscriber.socket.send(message);
  });
  await until(() => live.size === subscribers.length, 'every subscription to receive an event');
}

// The benchmark that started this process has gone (it crashed): end with it.
process.on('disconnect', () => process.exit(1));
process.on('message', async (message: any) => {
  try {
    if (message.type === 'connect') {
      await connect(message.targets);
      process.send?.({ type: 'connect' });
    } else if (message.type === 'subscribe') {
      await subscribe(message.query, message.variables, message.key);
      process.send?.({ type: 'subscribe' });
    } else if (message.type === 'receipts') {
      const value = String(message.value);
      const received = () => stamped.get(value)?.length ?? 0;
      await until(() => received() >= subscribers.length, 'receipts', message.timeoutMs).catch(
        () => {
          const behind = new Map<string, number>();
          for (const last of latest)
            if (last !== value) behind.set(last, (behind.get(last) ?? 0) + 1);
          throw new Error(
            `${received()} of ${subscribers.length} subscribers received ${value}; the latest of the others: ${JSON.stringify(Object.fromEntries(behind))}`,
          );
        },
      );
      process.send?.({ type: 'receipts', times: stamped.get(value) });
      stamped.delete(value);
    } else if (message.type === 'stop') {
      stopping = true;
      await Promise.all(
        subscribers.map(
          ({ socket }) =>
            new Promise((resolve) => {
              socket.once('close', resolve);
              socket.close(1000);
            }),
        ),
      );
      process.exit(0);
    }
  } catch (error) {
    fail(message.type, error);
  }
});
