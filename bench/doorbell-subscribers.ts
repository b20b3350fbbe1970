/**
 * The subscribers of `npm run bench:doorbell` (bench/doorbell.ts), in a process of their own:
 * each on its own socket to one gateway, following one goal's presence stream from seq 0 over
 * graphql-transport-ws, stamping each event's receipt with `now()`.
 *
 * Messages from the parent: `connect` (targets: gateway socket URL, token, goal), `take` (the
 * receipts since the last take, as [subscriber, seq, time] triples, and each subscriber's
 * last seq), `stop`. Any subscription error or unexpected close ends the process.
 */
import WebSocket from 'ws';
import { now } from './support.ts';

interface Target {
  readonly wsUrl: string;
  readonly token: string;
  readonly goalId: string;
}

const SUBSCRIPTION = `subscription($g: ID!) { presenceChanged(goalId: $g, after: "0") { seq } }`;
const sockets: WebSocket[] = [];
/** Each subscriber's highest seq received. */
const last: number[] = [];
let receipts: number[] = [];
let stopping = false;

function fail(what: string, detail: unknown): never {
  process.stderr.write(`doorbell subscribers: ${what}: ${JSON.stringify(detail)}\n`);
  process.exit(1);
}

function open(target: Target, index: number): Promise<void> {
  return new Promise((resolve) => {
    const socket = new WebSocket(target.wsUrl, 'graphql-transport-ws');
    last[index] = 0;
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
      if (message.type === 'next') {
        const seq = Number(message.payload.data.presenceChanged.seq);
        receipts.push(index, seq, now());
        if (seq > (last[index] as number)) last[index] = seq;
      } else if (message.type === 'connection_ack') {
        socket.send(
          JSON.stringify({
            id: '1',
            type: 'subscribe',
            payload: { query: SUBSCRIPTION, variables: { g: target.goalId } },
          }),
        );
        resolve();
      } else if (message.type === 'ping') socket.send('{"type":"pong"}');
      else if (message.type === 'error') fail('subscription error', message.payload);
      else if (message.type === 'complete') fail('subscription completed', target.goalId);
    });
    socket.on('error', (error) => fail('connection failed', String(error)));
    socket.on('close', (code) => {
      if (!stopping) fail('socket closed', code);
    });
    sockets.push(socket);
  });
}

process.on('disconnect', () => process.exit(1));
process.on('message', async (message: { type: string; targets?: Target[] }) => {
  if (message.type === 'connect') {
    const targets = message.targets as Target[];
    for (let i = 0; i < targets.length; i += 50) {
      await Promise.all(targets.slice(i, i + 50).map((t, j) => open(t, i + j)));
    }
    process.send?.({ type: 'connect' });
  } else if (message.type === 'take') {
    process.send?.({ type: 'take', receipts, last });
    receipts = [];
  } else if (message.type === 'stop') {
    stopping = true;
    for (const socket of sockets) socket.close(1000);
    process.exit(0);
  }
});
