import { type SQL, sql } from 'drizzle-orm';
import type { Database, Queryable } from '../db/database.ts';

/** The one LISTEN/NOTIFY channel every gateway instance shares. */
export const DOORBELL_CHANNEL = 'switchboard';

/**
 * Every kind of ring, and what its `id` and `seq` name. A ring is only a doorbell: whoever
 * hears it re-reads the tables from its own cursor, so a lost ring delays an event and never
 * loses one. Every ring is built by `ringSql`, in the statement whose commit it announces.
 */
export const ringKinds = {
  credential: 'id: a credential that was revoked or whose agent retired; seq: 0',
  presence: "id: a goal; seq: its presence stream's new head",
  inbox: "id: a goal; seq: its inbox stream's new head",
  ledger: "id: a goal; seq: its ledger's new head",
  delivery: "id: a delivery; seq: its outcome's new version",
} as const;
export type RingKind = keyof typeof ringKinds;

/** A ring as heard: JSON of `{ kind, id, seq }`, the text `ringSql` sends. */
export interface Ring {
  readonly kind: RingKind;
  readonly id: string;
  readonly seq: string;
}

type Handler = (ring: Ring) => void;

/**
 * Fans one LISTEN connection out to in-process handlers keyed by (kind, id), and tells
 * everyone to catch up whenever the listening connection comes back.
 */
export class Doorbell {
  private readonly handlers = new Map<string, Set<Handler>>();
  private readonly catchUps = new Set<() => void>();
  private unlisten: (() => Promise<void>) | null = null;

  /** Starts listening; resolves once the LISTEN is in place. */
  async open(database: Database): Promise<void> {
    let connected = false;
    this.unlisten = await database.listen(
      DOORBELL_CHANNEL,
      (payload) => this.dispatch(payload),
      () => {
        // The first connect is not a reconnect: nothing could have been missed yet.
        if (connected) for (const catchUp of this.catchUps) catchUp();
        connected = true;
      },
    );
  }

  async close(): Promise<void> {
    try {
      await this.unlisten?.();
    } catch {
      // The connection is already gone (database closed or unreachable): nothing to undo.
    }
    this.unlisten = null;
    this.handlers.clear();
    this.catchUps.clear();
  }

  /** Calls `handler` for rings of `kind` under `id`, or under any id when `id` is null. */
  on(kind: RingKind, id: string | null, handler: Handler): () => void {
    const key = `${kind}:${id ?? '*'}`;
    const set = this.handlers.get(key) ?? new Set();
    this.handlers.set(key, set);
    set.add(handler);
    return () => {
      set.delete(handler);
      if (set.size === 0) this.handlers.delete(key);
    };
  }

  /** Calls `catchUp` after the listening connection was lost and re-established. */
  onReconnect(catchUp: () => void): () => void {
    this.catchUps.add(catchUp);
    return () => this.catchUps.delete(catchUp);
  }

  private dispatch(payload: string): void {
    let ring: Ring;
    try {
      ring = JSON.parse(payload) as Ring;
    } catch {
      return; // not ours
    }
    for (const key of [`${ring.kind}:${ring.id}`, `${ring.kind}:*`]) {
      for (const handler of this.handlers.get(key) ?? []) handler(ring);
    }
  }
}

/**
 * The SQL expression that rings: `pg_notify` of one `Ring`, delivered when the transaction
 * commits (never if it rolls back). `id` and `seq` may be columns of the statement it is in.
 */
export function ringSql(kind: RingKind, id: SQL | string, seq: SQL | string): SQL {
  return sql`pg_notify(${DOORBELL_CHANNEL}, json_build_object(
    'kind', ${kind}::text, 'id', (${id})::text, 'seq', (${seq})::text)::text)`;
}

/** Rings the doorbell when `tx` commits (and never if it rolls back). */
export async function ring(tx: Queryable, { kind, id, seq }: Ring): Promise<void> {
  await tx.execute(sql`select ${ringSql(kind, id, seq)}`);
}
