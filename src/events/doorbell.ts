import { type Database, notify, type Queryable } from '../db/database.ts';

/** The one LISTEN/NOTIFY channel every gateway instance shares. */
export const DOORBELL_CHANNEL = 'switchboard';

/**
 * What a ring says: something of `kind` changed under `id` (a goal; for `credential` a
 * credential id; for `delivery` a delivery id, whose outcome reached version `seq`) up to `seq`. A ring is only a doorbell: whoever hears it re-reads the tables
 * from its own cursor, so a lost ring delays an event and never loses one.
 */
export interface Ring {
  readonly kind: RingKind;
  readonly id: string;
  readonly seq: string;
}

export const ringKinds = ['credential', 'presence', 'inbox', 'delivery', 'ledger'] as const;
export type RingKind = (typeof ringKinds)[number];

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

/** Rings the doorbell when `tx` commits (and never if it rolls back). */
export async function ring(tx: Queryable, value: Ring): Promise<void> {
  await notify(tx, DOORBELL_CHANNEL, JSON.stringify(value));
}
