import type { Socket } from 'node:net';
import { WebSocket } from 'ws';

/** Sockets written to since the last uncork, uncorked once the running callback is done. */
const corked = new Set<Socket>();
/**
 * Sockets corked at most at once. One event fanned out to thousands of sockets is a callback
 * that writes one frame to each: held until it is done, no socket would be written before
 * the last frame is built, and the receivers would sit idle meanwhile.
 */
export const MAX_CORKED = 64;
const uncorkAll = () => {
  for (const tcp of corked) tcp.uncork();
  corked.clear();
};

/**
 * A WebSocket whose frames sent by one callback and the promise reactions it sets off leave in
 * one write: its first send corks the TCP socket, and a next-tick callback (which runs once the
 * microtask queue is empty) uncorks every socket corked meanwhile, or sooner, once MAX_CORKED
 * sockets are. Settling hundreds of waits on one socket is then one system call, not one per
 * frame (ws corks each frame's two buffers itself; corking nests). Not the end of the event
 * loop's turn: graphql-ws sends a stream's next frame only once the last one is written, so a
 * stream would get one frame per turn.
 */
export class BatchedWebSocket extends WebSocket {
  override send(data: unknown, ...rest: unknown[]): void {
    const tcp = (this as unknown as { _socket: Socket | null })._socket;
    if (tcp && !corked.has(tcp)) {
      if (corked.size === 0) process.nextTick(uncorkAll);
      else if (corked.size >= MAX_CORKED) uncorkAll();
      corked.add(tcp);
      tcp.cork();
    }
    (super.send as (...args: unknown[]) => void)(data, ...rest);
  }
}
