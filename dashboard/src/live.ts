/**
 * The state of every stream the open page follows, for the link pill: `live` only while each
 * of them is connected (and on which gateway), `reconnecting` or `down` with the time it stopped.
 */
import type { ConnectionEvent } from '../../src/client/index.ts';

export type StreamStatus =
  | { state: 'connecting'; since: number }
  | { state: 'live'; since: number; url: string }
  | { state: 'reconnecting'; since: number; attempt: number; url: string; reason: string }
  | { state: 'down'; since: number; reason: string }
  | { state: 'complete'; since: number; reason: string };

export interface StreamHandle {
  onConnection(event: ConnectionEvent): void;
  /** The stream stopped for good (a refusal, an error): the page is no longer live. */
  fail(reason: string): void;
  /** The stream ended because nothing more can change (a delivery's final outcome). */
  complete(reason: string): void;
}

export class LiveStreams {
  private readonly streams = new Map<number, { name: string; status: StreamStatus }>();
  private readonly listeners = new Set<() => void>();
  private nextId = 0;
  private version = 0;

  /** Registers a stream named `name` until `signal` aborts. */
  open(name: string, signal: AbortSignal): StreamHandle {
    const id = this.nextId++;
    const set = (status: StreamStatus) => {
      if (signal.aborted) return;
      this.streams.set(id, { name, status });
      this.changed();
    };
    set({ state: 'connecting', since: Date.now() });
    signal.addEventListener('abort', () => {
      this.streams.delete(id);
      this.changed();
    });
    const current = () => this.streams.get(id)?.status;
    return {
      onConnection: (event) => {
        if (event.state === 'connected')
          return set({ state: 'live', since: Date.now(), url: event.url });
        const was = current();
        set({
          state: 'reconnecting',
          // The first failed attempt is when the stream went down.
          since: was?.state === 'reconnecting' ? was.since : Date.now(),
          attempt: event.attempt,
          url: event.url,
          reason: event.reason,
        });
      },
      fail: (reason) => set({ state: 'down', since: Date.now(), reason }),
      complete: (reason) => set({ state: 'complete', since: Date.now(), reason }),
    };
  }

  /** The page's streams, by name. */
  snapshot(): { name: string; status: StreamStatus }[] {
    return [...this.streams.values()];
  }

  /** A number that changes with every change of any stream's state. */
  get revision(): number {
    return this.version;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed() {
    this.version++;
    for (const listener of this.listeners) listener();
  }
}
