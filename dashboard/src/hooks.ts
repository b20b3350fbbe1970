import { createContext } from 'preact';
import { useContext, useEffect, useState } from 'preact/hooks';
import {
  ClientError,
  ClientErrorKind,
  DirectoryDocument,
  directoryPresenceSeq,
  presenceChanges,
} from '../../src/client/index.ts';
import type { Connection } from './session.ts';

export const ConnectionContext = createContext<Connection | null>(null);

export function useConnection(): Connection {
  const connection = useContext(ConnectionContext);
  if (!connection) throw new Error('no connection');
  return connection;
}

export interface Loaded<T> {
  data: T | undefined;
  error: string | undefined;
  reload(): void;
}

/** Runs `load` when `deps` change (and on reload()); keeps the last data while reloading. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<string>();
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let current = true;
    load().then(
      (value) => {
        if (!current) return;
        setData(value);
        setError(undefined);
      },
      (failure: unknown) => {
        if (current) setError(failure instanceof Error ? failure.message : String(failure));
      },
    );
    return () => {
      current = false;
    };
  }, [...deps, version]);
  return { data, error, reload: () => setVersion((v) => v + 1) };
}

/** The current time, re-read every `ms` (for "3 s ago"). */
export function useNow(ms = 1000): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}

/**
 * A counter that moves after each settled burst of presence changes in a goal (the gateway's
 * presence stream over graphql-ws, resumed by seq after a drop; no polling). Views re-read
 * when it moves: delivery outcomes and waits are decided by presence changes and the clock
 * (see useWakeAt), so that is when they can change. Changes are followed after the seq of a
 * directory read, and the counter moves once when that read is in: a change made before the
 * stream subscribes, or while it reconnects to a restarted gateway, is not missed.
 */
export function usePresencePulse(goalId: string): {
  pulse: number;
  stopped: string | undefined;
} {
  const connection = useConnection();
  const [pulse, setPulse] = useState(0);
  const [stopped, setStopped] = useState<string>();
  useEffect(() => {
    const abort = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    void (async () => {
      const after = await presenceCursor(connection, goalId, abort.signal);
      if (abort.signal.aborted) return;
      setPulse((n) => n + 1);
      try {
        const stream = connection.stream(abort.signal);
        for await (const change of presenceChanges(stream, goalId, undefined, after)) {
          if (change.scopeGap) return;
          clearTimeout(timer);
          timer = setTimeout(() => setPulse((n) => n + 1), 150);
        }
      } catch (failure) {
        if (!abort.signal.aborted) setStopped((failure as Error).message);
      }
    })();
    return () => {
      abort.abort();
      clearTimeout(timer);
    };
  }, [connection, goalId]);
  return { pulse, stopped };
}

/**
 * The presence seq a directory read of the goal reflects, the read retried every second while
 * the gateway is unreachable or failing; undefined once the view is gone, for a scope gap, or
 * when the read is refused (the stream then says why).
 */
async function presenceCursor(
  connection: Connection,
  goalId: string,
  signal: AbortSignal,
): Promise<string | undefined> {
  for (;;) {
    try {
      const { directory } = await connection.client.request(DirectoryDocument, {
        goalId,
        limit: 1000,
      });
      return directory.scopeGap ? undefined : directoryPresenceSeq(directory);
    } catch (failure) {
      const transient =
        failure instanceof ClientError &&
        (failure.kind === ClientErrorKind.UNREACHABLE || failure.kind === ClientErrorKind.SERVER);
      if (!transient || signal.aborted) return undefined;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

/**
 * A counter that moves once at `at` (epoch ms): the next instant at which time alone can
 * change what a view shows (a delivery's window end or deadline, a wait's deadline).
 */
export function useWakeAt(at: number | null): number {
  const [woken, setWoken] = useState(0);
  useEffect(() => {
    if (at === null) return;
    // A little after the boundary: the gateway decides strictly after it, in whole milliseconds.
    const timer = setTimeout(() => setWoken((n) => n + 1), Math.max(0, at - Date.now()) + 50);
    return () => clearTimeout(timer);
  }, [at]);
  return woken;
}
