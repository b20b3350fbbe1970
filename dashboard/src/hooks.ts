import { createContext } from 'preact';
import { useContext, useEffect, useState } from 'preact/hooks';
import { presenceChanges } from '../../src/client/index.ts';
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
 * (see useWakeAt), so that is when they can change.
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
      try {
        for await (const change of presenceChanges(connection.stream(abort.signal), goalId)) {
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
