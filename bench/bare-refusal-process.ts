/**
 * The floor the limits' scenarios (bench/faults/abuse.ts) are compared against: a bare
 * node:http + `ws` server, started with the gateway's young-generation size, that refuses every
 * abusive request as cheaply as a server can and answers the other client. No database, no
 * GraphQL, no credentials: what is left is the machine, its sockets and the abusers themselves.
 *
 * - HTTP: `Bearer probe` (bench/probe-process.ts) is answered `me` once its body is read; any
 *   other request a 429 with `Retry-After`, its body unread.
 * - graphql-transport-ws: `Bearer probe` or `Bearer abuser` is acknowledged, any other token
 *   closed 4429; a socket's subscribe messages are each answered with an error until it has sent
 *   twice the gateway's default rate in one second, when it is closed 4429.
 *
 * Prints `{ url, wsUrl }` over IPC as `ready`; `stop` ends it.
 */
import { createServer } from 'node:http';
import { WebSocketServer } from 'ws';
import { DEFAULT_LIMITS } from '../src/config.ts';
import { BARE_ABUSER_TOKEN, BARE_PROBE_TOKEN } from './faults/settings.ts';

const ME = JSON.stringify({ data: { me: { kind: 'PEER', goalIds: ['goal-bare'] } } });
const REFUSED = JSON.stringify({
  errors: [{ message: 'refused', extensions: { code: 'RATE_LIMITED', retryAfterSeconds: 1 } }],
});

const server = createServer((req, res) => {
  if (req.headers.authorization !== `Bearer ${BARE_PROBE_TOKEN}`) {
    res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
    return void res.end(REFUSED);
  }
  req.resume();
  req.once('end', () => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(ME);
  });
});

const sockets = new WebSocketServer({ server });
sockets.on('connection', (socket) => {
  let second = 0;
  let sent = 0;
  socket.on('message', (raw) => {
    const message = JSON.parse(String(raw)) as { type: string; id?: string; payload?: any };
    if (message.type === 'connection_init') {
      const token = String(message.payload?.authorization ?? '');
      if (token === `Bearer ${BARE_PROBE_TOKEN}` || token === `Bearer ${BARE_ABUSER_TOKEN}`)
        socket.send('{"type":"connection_ack"}');
      else socket.close(4429, 'refused');
    } else if (message.type === 'subscribe' && socket.readyState === socket.OPEN) {
      const now = Math.floor(Date.now() / 1000);
      if (now !== second) {
        second = now;
        sent = 0;
      }
      if (++sent > 2 * DEFAULT_LIMITS.requestsPerSecond) socket.close(4429, 'refused');
      else
        socket.send(
          `{"id":${JSON.stringify(message.id)},"type":"error","payload":[{"message":"refused","extensions":{"code":"RATE_LIMITED"}}]}`,
        );
    }
  });
});

server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.send?.({
    type: 'ready',
    url: `http://127.0.0.1:${port}/graphql`,
    wsUrl: `ws://127.0.0.1:${port}/graphql`,
  });
});

// The benchmark that started this process has gone (it crashed): end with it.
process.on('disconnect', () => process.exit(1));
process.on('message', (message: { type: string }) => {
  if (message.type !== 'stop') return;
  for (const socket of sockets.clients) socket.terminate();
  server.close(() => process.exit(0));
});
