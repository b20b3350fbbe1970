import { createContext } from 'preact';
import { useContext, useEffect, useState } from 'preact/hooks';
import {
  ClientError,
  ClientErrorKind,
  DirectoryDocument,
  type DirectoryQuery,
  directoryPresenceSeq,
  GatesDocument,
  goalLedgerEvents,
  type LedgerStreamItem,
  ledgerEvents,
  presenceChanges,
  TodoNamesDocument,
  WhoamiDocument,
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
export function usePresencePulse(goalId: string): { pulse: number; first: Directory | undefined } {
  const connection = useConnection();
  const [pulse, setPulse] = useState(0);
  const [first, setFirst] = useState<Directory>();
  useEffect(() => {
    const abort = new AbortController();
    const stream = connection.stream(abort.signal, 'presence');
    let timer: ReturnType<typeof setTimeout> | undefined;
    void (async () => {
      const directory = await presenceCursor(connection, goalId, abort.signal);
      if (abort.signal.aborted) return;
      const after = directory?.scopeGap ? undefined : directory && directoryPresenceSeq(directory);
      setFirst(directory);
      setPulse((n) => n + 1);
      if (after === undefined) return stream.complete('this token does not cover the goal');
      try {
        for await (const change of presenceChanges(stream, goalId, undefined, after)) {
          if (change.scopeGap) return stream.complete('this token does not cover the goal');
          clearTimeout(timer);
          timer = setTimeout(() => setPulse((n) => n + 1), 150);
        }
      } catch (failure) {
        if (!abort.signal.aborted) stream.fail((failure as Error).message);
      }
    })();
    return () => {
      abort.abort();
      clearTimeout(timer);
    };
  }, [connection, goalId]);
  return { pulse, first };
}

type Directory = DirectoryQuery['directory'];

/**
 * A directory read of the goal (its presence seq is the cursor), retried every second while
 * the gateway is unreachable or failing; undefined once the view is gone or when the read is
 * refused.
 */
async function presenceCursor(
  connection: Connection,
  goalId: string,
  signal: AbortSignal,
): Promise<Directory | undefined> {
  return retried(signal, async () => {
    const { directory } = await connection.client.request(DirectoryDocument, {
      goalId,
      limit: 1000,
    });
    return directory;
  });
}

/** `read`, retried every second while the gateway is unreachable or failing. */
async function retried<T>(
  signal: AbortSignal,
  read: () => Promise<T | undefined>,
): Promise<T | undefined> {
  for (;;) {
    try {
      return await read();
    } catch (failure) {
      const transient =
        failure instanceof ClientError &&
        (failure.kind === ClientErrorKind.UNREACHABLE || failure.kind === ClientErrorKind.SERVER);
      if (!transient || signal.aborted) return undefined;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

/** A todo's title, status and class, and a gate's reason: what a page writes beside an id. */
export interface Names {
  todos: ReadonlyMap<string, { title: string; status: string; taskClass: string }>;
  gates: ReadonlyMap<string, { reason: string; state: string; scope: string }>;
}

/** The most todo ids one names read asks for (the gateway's page limit). */
const NAMES_MAX = 1000;

/**
 * The titles of the todos `todoIds` (and the reasons of the goal's gates), re-read when the ids
 * or `pulse` (useGoalWork's) change: only the todos the page shows, never the whole goal.
 */
export function useNames(
  goalId: string,
  todoIds: readonly (string | null | undefined)[],
  pulse: number,
  /** Whether the page names gates too (the gates are read only then). */
  withGates = false,
): Names | undefined {
  const { client } = useConnection();
  const ids = [...new Set(todoIds.filter((id): id is string => !!id))].sort().slice(0, NAMES_MAX);
  const key = ids.join(' ');
  const { data } = useLoad(async () => {
    // Before the ledger's cursor is read a change could be missed: wait for it.
    if (pulse === 0) return undefined;
    const [todos, { gates }] = await Promise.all([
      ids.length > 0
        ? client.request(TodoNamesDocument, { goalId, ids }).then((d) => d.todoPage.rows)
        : [],
      withGates ? client.request(GatesDocument, { goalId }) : { gates: { rows: [] } },
    ]);
    return {
      todos: new Map(todos.map((row) => [row.id, row])),
      gates: new Map(gates.rows.map((row) => [row.id, row])),
    };
  }, [client, goalId, key, pulse, withGates]);
  return data;
}

/**
 * The goal's work as it changes: a counter that moves once the ledger's cursor is read (also
 * when the token does not cover the goal, so views waiting for it go on), then after each
 * settled burst of ledger rows (every work-graph change writes one). Rows are followed after
 * that cursor, so a view read after the first move misses no change. An ADMIN or STEWARD
 * follows the whole goal; a PEER, its own agent's ledger.
 */
export function useGoalWork(goalId: string): { pulse: number } {
  const connection = useConnection();
  const [pulse, setPulse] = useState(0);
  useEffect(() => {
    const abort = new AbortController();
    const stream = connection.stream(abort.signal, 'work');
    let timer: ReturnType<typeof setTimeout> | undefined;
    void (async () => {
      // The ledger's head alone: no todo is read for it.
      const after = await retried(abort.signal, async () => {
        const { todoPage } = await connection.client.request(TodoNamesDocument, {
          goalId,
          ids: [],
        });
        return todoPage.scopeGap ? undefined : todoPage.ledgerSeq;
      });
      if (abort.signal.aborted) return;
      setPulse((n) => n + 1);
      if (after === undefined) return stream.complete('this token does not cover the goal');
      try {
        let rows: AsyncGenerator<LedgerStreamItem> = goalLedgerEvents(stream, goalId, after);
        for (;;) {
          let gap: string | undefined;
          for await (const row of rows) {
            if (row.__typename === 'ScopeGap') {
              gap = row.reason;
              break;
            }
            clearTimeout(timer);
            timer = setTimeout(() => setPulse((n) => n + 1), 150);
          }
          if (gap === undefined) return stream.fail('the gateway ended the ledger stream');
          if (gap !== 'NOT_OWN_LEDGER')
            return stream.complete('this token does not cover the goal');
          const { me } = await connection.client.request(WhoamiDocument);
          if (!me.agentId) return stream.complete('this token has no ledger to follow');
          rows = ledgerEvents(stream, goalId, me.agentId, after);
        }
      } catch (failure) {
        if (!abort.signal.aborted) stream.fail((failure as Error).message);
      }
    })();
    return () => {
      abort.abort();
      clearTimeout(timer);
    };
  }, [connection, goalId]);
  return { pulse };
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
