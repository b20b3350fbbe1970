import type { Socket } from 'node:net';
import { WebSocket } from 'ws';

/** Sockets written to in this turn of the event loop, uncorked when it ends. */
const corked = new Set<Socket>();
const uncorkAll = () => {
  for (const tcp of corked) tcp.uncork();
  corked.clear();
};

/**
 * A WebSocket whose frames sent within one turn of the event loop leave in one write: its
 * first send of a turn corks the TCP socket, and the turn's end uncorks every socket corked in
 * it. Settling hundreds of waits on one socket is then one system call, not one per frame (ws
 * corks each frame's two buffers itself; corking nests).
 */
export class TurnBatchedWebSocket extends WebSocket {
  override send(data: unknown, ...rest: unknown[]): void {
    const tcp = (this as unknown as { _socket: Socket | null })._socket;
    if (tcp && !corked.has(tcp)) {
      if (corked.size === 0) setImmediate(uncorkAll);
      corked.add(tcp);
      tcp.cork();
    }
    (super.send as (...args: unknown[]) => void)(data, ...rest);
  }
}
