import { Repeater } from '@repeaterjs/repeater';
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { isAsyncIterable } from './core/stream.ts';
import type { AppDeps, Context } from './graphql/context.ts';
import { validCredentials } from './registry/credentials.ts';

/** How often open streams re-check their credentials, rung or not (ms). */
export const REVALIDATE_MS = 2_000;

interface OpenStream {
  readonly credentialId: string;
  /** Sends the final error and ends; resolves once the error is handed on. */
  end(): Promise<void>;
}

/**
 * Every open subscription (SSE and graphql-ws) and WebSocket of this instance, with the
 * credential it runs under. When a credential is revoked or its agent retired, each of its
 * streams gets a final UNAUTHENTICATED error and ends, then its sockets close, on every
 * instance: on the credential's ring, and on an interval whether or not the ring arrived.
 */
export class OpenStreams {
  private readonly streams = new Set<OpenStream>();
  private readonly timer: NodeJS.Timeout;
  private readonly stopRinging: () => void;
  private checking: Promise<void> | null = null;

  private readonly sockets = new Map<string, Set<() => void>>();

  constructor(private readonly deps: AppDeps) {
    this.timer = setInterval(() => void this.check(), REVALIDATE_MS);
    this.timer.unref();
    this.stopRinging = deps.doorbell.on('credential', null, () => void this.check());
  }

  /** The envelop plugin that registers each subscription's result stream. */
  readonly plugin: Plugin<Context> = {
    onSubscribe: ({ args }) => {
      // The operator token has no credential row: it is revoked by restarting with another.
      // Without one there is nothing to hook (a hook is held for the subscription's life).
      const credentialId = (args.contextValue as Context).caller?.credentialId;
      if (!credentialId) return;
      return {
        onSubscribeResult: ({ result, setResult }) => {
          if (isAsyncIterable(result)) setResult(this.track(result, credentialId));
        },
      };
    },
  };

  /** Registers a socket's credential; `close` runs when the credential no longer stands. */
  trackSocket(credentialId: string, close: () => void): () => void {
    const set = this.sockets.get(credentialId) ?? new Set();
    this.sockets.set(credentialId, set);
    set.add(close);
    return () => {
      set.delete(close);
      if (set.size === 0) this.sockets.delete(credentialId);
    };
  }

  close(): void {
    clearInterval(this.timer);
    this.stopRinging();
  }

  /** Re-checks every credential with an open stream, in one statement. */
  check(): Promise<void> {
    this.checking ??= this.recheck().finally(() => {
      this.checking = null;
    });
    return this.checking;
  }

  private async recheck(): Promise<void> {
    const ids = [
      ...new Set([...[...this.streams].map((s) => s.credentialId), ...this.sockets.keys()]),
    ];
    if (ids.length === 0) return;
    let valid: Set<string>;
    try {
      valid = await validCredentials(this.deps.database.db, ids);
    } catch (error) {
      this.deps.log.warn('could not re-check the credentials of open streams', {
        error: error instanceof Error ? error.message : String(error),
      });
      return;
    }
    for (const id of ids.filter((id) => !valid.has(id))) {
      const ending = [...this.streams].filter((stream) => stream.credentialId === id);
      await Promise.all(ending.map((stream) => stream.end()));
      for (const close of this.sockets.get(id) ?? []) close();
    }
  }

  private track<T>(source: AsyncIterable<T>, credentialId: string): AsyncIterableIterator<T> {
    return new Repeater<T>(async (push, stop) => {
      const stream: OpenStream = {
        credentialId,
        end: async () => {
          await push(REVOKED as T);
          stop();
        },
      };
      this.streams.add(stream);
      const iterator = source[Symbol.asyncIterator]();
      const stopped = stop.then(() => ({ done: true, value: undefined }) as const);
      try {
        for (;;) {
          const next = await Promise.race([iterator.next(), stopped]);
          if (next.done) break;
          await push(next.value);
        }
      } finally {
        this.streams.delete(stream);
        stop();
        iterator.return?.().catch(() => {});
      }
    });
  }
}

/** The last item a revoked or retired credential's stream gets. */
const REVOKED = {
  errors: [
    new GraphQLError('this credential was revoked, or its agent retired: the stream ends', {
      extensions: { code: 'UNAUTHENTICATED' },
    }),
  ],
};
