/**
 * The floor fan-out is compared against: a bare `ws` server that speaks just enough
 * graphql-transport-ws for bench/subscriber-process.ts (acknowledges, answers each subscribe
 * with one event) and, when told over IPC, serializes one presence event once and sends it to
 * every socket. No database, no GraphQL, no per-subscription stream: what is left is the
 * sockets. Started by bench/subscribers.ts with the gateway's young-generation size; prints
 * its URL over IPC.
 */
import { type WebSocket, WebSocketServer } from 'ws';

const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
/** Each open socket's subscription id (null until it subscribes). */
const sockets = new Map<WebSocket, string | null>();

/** The payload of `PRESENCE_SUBSCRIPTION` (bench/support.ts) for change `seq`. */
const event = (seq: string) => ({
  data: {
    presenceChanged: {
      seq,
      agentId: 'agent-0000',
      presence: { liveness: 'WORKING', stateChangeSeq: seq, observedAt: new Date().toISOString() },
    },
  },
});
const next = (id: string, payload: string) =>
  `{"id":${JSON.stringify(id)},"type":"next","payload":${payload}}`;

server.on('connection', (socket) => {
  sockets.set(socket, null);
  socket.on('message', (raw) => {
    const message = JSON.parse(String(raw));
    if (message.type === 'connection_init') socket.send('{"type":"connection_ack"}');
    else if (message.type === 'subscribe') {
      sockets.set(socket, message.id);
      socket.send(next(message.id, JSON.stringify(event('1'))));
    }
  });
  socket.on('close', () => sockets.delete(socket));
});

server.on('listening', () => {
  const address = server.address();
  process.send?.({
    type: 'ready',
    wsUrl: `ws://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/`,
  });
});

// The benchmark that started this process has gone (it crashed): end with it.
process.on('disconnect', () => process.exit(1));
process.on('message', (message: { type: string; seq?: string }) => {
  if (message.type === 'broadcast') {
    const payload = JSON.stringify(event(message.seq as string));
    for (const [socket, id] of sockets) if (id !== null) socket.send(next(id, payload));
  } else if (message.type === 'stop') {
    for (const socket of sockets.keys()) socket.terminate();
    server.close(() => process.exit(0));
  }
});
