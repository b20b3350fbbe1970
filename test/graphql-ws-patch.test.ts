/**
 * graphql-ws as patched here (patches/graphql-ws+6.4.2.patch): a running subscription does not
 * keep the Buffer of the frame that started it (the ws adapter no longer awaits the whole
 * operation in its message listener), about 400 bytes of heap per subscription for as long as
 * it ran. The patch also drops the frame's text once parsed; a string cannot be watched with a
 * WeakRef, so `npm run bench:subscribers` (heap per idle subscription) is what shows that.
 */
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { GraphQLObjectType, GraphQLSchema, GraphQLString } from 'graphql';
import { createClient } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { eventually } from './support/harness.ts';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** A subscription that never yields: it runs until the client completes it. */
let started = 0;
const schema = new GraphQLSchema({
  query: new GraphQLObjectType({ name: 'Query', fields: { ok: { type: GraphQLString } } }),
  subscription: new GraphQLObjectType({
    name: 'Subscription',
    fields: {
      forever: {
        type: GraphQLString,
        subscribe: async function* () {
          started++;
          await new Promise(() => {});
          yield 'never';
        },
      },
    },
  }),
});

let server: WebSocketServer;
const frames: WeakRef<Buffer>[] = [];

beforeAll(async () => {
  server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise((resolve) => server.once('listening', resolve));
  useServer({ schema }, server);
  // Watches every frame the server receives, without keeping it.
  server.on('connection', (socket) =>
    socket.on('message', (frame: Buffer) => frames.push(new WeakRef(frame))),
  );
});

afterAll(async () => {
  for (const socket of server.clients) socket.terminate();
  await new Promise((resolve) => server.close(resolve));
});

it('a running subscription keeps no frame it was sent', async () => {
  const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = createClient({ url, webSocketImpl: WebSocket, retryAttempts: 0 });
  try {
    const stop = client.subscribe(
      { query: 'subscription { forever }' },
      { next: () => {}, error: () => {}, complete: () => {} },
    );
    await eventually(() => started === 1 || undefined, 'the subscription to start');
    // connection_init and subscribe.
    expect(frames).toHaveLength(2);
    gc();
    expect(frames.map((frame) => frame.deref())).toEqual([undefined, undefined]);
    stop();
  } finally {
    await client.dispose();
  }
});
