import { randomUUID } from 'node:crypto';
import { type SQL, sql } from 'drizzle-orm';
import type { DoorbellBus } from '../config.ts';
import {
  type Database,
  type Listener,
  type Queryable,
  RING_COLUMN,
  RINGS_SETTING,
} from '../db/database.ts';
import type { Logger } from '../log.ts';
import { CATCH_UP, type RingLine } from './line.ts';
import { NatsLine } from './nats.ts';

/** The one LISTEN/NOTIFY channel every gateway instance shares. */
export const DOORBELL_CHANNEL = 'switchboard';

/**
 * Every kind of ring, and what its `id` and `seq` name. A ring is only a doorbell: whoever
 * hears it re-reads the tables from its own cursor, so a lost ring delays an event and never
 * loses one. Every ring is built by `ringSql`, in the statement whose commit it announces, and
 * is sent only once that commit succeeded.
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

/** Whether the doorbell hears rings now; when not, why and since when. */
export type DoorbellStatus =
  | { readonly listening: true }
  | { readonly listening: false; readonly reason: string; readonly since: Date };

export interface DoorbellOptions {
  /**
   * How often the doorbell proves it is listening by sending itself a probe (ms). A probe not
   * back within twice this long makes it deaf; while deaf, every stream, wait and delivery of
   * the instance catches up from its cursor every `probeMs`, so outcomes are late, not lost.
   */
  readonly probeMs: number;
  readonly log?: Logger;
  /** What carries the rings: Postgres LISTEN/NOTIFY (the default) or a NATS server. */
  readonly bus?: DoorbellBus;
}

const RELISTEN_BACKOFF_MS = [50, 100, 200, 250] as const;

/**
 * Fans one listening connection (LISTEN on Postgres, or a subscription on NATS) out to
 * in-process handlers keyed by (kind, id), and knows whether that connection really listens: a
 * probe it sends itself must come back. When one does not (the connection died, or came back
 * without its LISTEN, or the database or NATS is down), it opens a new connection with a short
 * bounded backoff, polls in the meantime, and once listening again tells everyone to catch up
 * from their cursors.
 */
export class Doorbell {
  private readonly handlers = new Map<string, Set<Handler>>();
  private readonly catchUps = new Set<() => void>();
  private readonly probeId = randomUUID();
  private line: RingLine | null = null;
  private listener: Listener | null = null;
  private current: DoorbellStatus = {
    listening: false,
    reason: 'not opened yet',
    since: new Date(),
  };
  private probe: { seq: number; sentAt: number; arrived: () => void } | null = null;
  private probeSeq = 0;
  private probeTimer: NodeJS.Timeout | null = null;
  private pollTimer: NodeJS.Timeout | null = null;
  private relistening: Promise<void> | null = null;
  private closed = false;
  /**
   * Times it had to open a new listening connection; the round trip of the last probe that
   * came back (ms, the delay of every ring); rings heard by kind. Read by /metrics.
   */
  readonly stats = {
    relistens: 0,
    probeRoundTripMs: null as number | null,
    rings: {} as Partial<Record<RingKind, number>>,
  };

  constructor(private readonly options: DoorbellOptions) {}

  /** Starts listening; resolves once the LISTEN is in place and a probe has come back. */
  async open(database: Database): Promise<void> {
    const bus = this.options.bus ?? 'postgres';
    const line = bus === 'postgres' ? postgresLine(database) : new NatsLine(bus.nats, database);
    this.line = line;
    await this.listen();
    this.current = { listening: true };
    this.probeTimer = setInterval(() => void this.checkProbe(), this.options.probeMs);
    this.probeTimer.unref();
  }

  status(): DoorbellStatus {
    return this.current;
  }

  /** Rings of this instance's commits it could not send (NATS down; all caught up after). */
  get unsent(): number {
    return this.line?.unsent ?? 0;
  }

  /** The `application_name` of its listening connections (operators and tests find them by it). */
  get connectionName(): string {
    return `switchboard-doorbell-${this.probeId.slice(0, 8)}`;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.probeTimer) clearInterval(this.probeTimer);
    this.stopPolling();
    await this.relistening;
    this.line?.close();
    await this.closeListener();
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

  /**
   * Calls `catchUp` whenever rings may have been missed: after a new listening connection is
   * proven, and every `probeMs` while the doorbell is deaf.
   */
  onReconnect(catchUp: () => void): () => void {
    this.catchUps.add(catchUp);
    return () => this.catchUps.delete(catchUp);
  }

  /** Opens a listening connection and proves it with a probe, or throws. */
  private async listen(): Promise<void> {
    const line = this.line as RingLine;
    // A close before the LISTEN is in place fails this call instead (listener still null); a
    // close while the first probe is out fails it at once, not after the probe's timeout.
    let listener: Listener | null = null;
    let proving: ((error: Error) => void) | null = null;
    listener = await line.listen(
      this.connectionName,
      (payload) => this.dispatch(payload),
      // Only the current connection counts: a replaced or closing one may report late.
      () => {
        if (proving) proving(new Error('its listening connection closed'));
        else if (listener && this.listener === listener)
          this.deaf('its listening connection closed');
      },
    );
    this.listener = listener;
    await new Promise<void>((resolve, reject) => {
      const settle = (error?: Error) => {
        clearTimeout(timeout);
        proving = null;
        if (error) reject(error);
        else resolve();
      };
      const timeout = setTimeout(
        () => settle(new Error('the first probe did not come back')),
        2 * this.options.probeMs,
      );
      proving = settle;
      this.sendProbe(() => settle()).catch((error: unknown) => settle(error as Error));
    });
  }

  private async sendProbe(arrived: () => void): Promise<void> {
    const seq = ++this.probeSeq;
    this.probe = { seq, sentAt: performance.now(), arrived };
    await (this.line as RingLine).send(
      JSON.stringify({ kind: 'probe', id: this.probeId, seq: String(seq) }),
    );
  }

  /** Each tick: a probe still out after two ticks means deaf; otherwise send the next one. */
  private async checkProbe(): Promise<void> {
    if (this.closed || this.relistening) return;
    const out = this.probe;
    if (out) {
      if (performance.now() - out.sentAt > 2 * this.options.probeMs) {
        // Timers run before I/O: after a busy event loop the probe may be waiting in the
        // socket. Decide after the I/O phase (setImmediate), not before.
        setImmediate(() => {
          if (this.probe === out)
            this.deaf(`no probe came back within ${2 * this.options.probeMs} ms`);
        });
      }
      return;
    }
    try {
      await this.sendProbe(() => {});
    } catch (error) {
      this.deaf(`a probe could not be sent: ${describe(error)}`);
    }
  }

  private deaf(why: string): void {
    if (this.closed || this.relistening) return;
    const reason = `${(this.line as RingLine).name}: ${why}`;
    this.current = { listening: false, reason, since: new Date() };
    this.options.log?.warn('doorbell deaf: polling until it listens again', { reason });
    this.startPolling();
    this.relistening = this.relisten().finally(() => {
      this.relistening = null;
    });
  }

  private async relisten(): Promise<void> {
    for (let attempt = 0; !this.closed; attempt++) {
      await this.closeListener();
      try {
        await this.listen();
        break;
      } catch (error) {
        if (!this.current.listening) {
          const reason = `${(this.line as RingLine).name}: cannot listen: ${describe(error)}`;
          this.current = { listening: false, reason, since: this.current.since };
        }
        const backoff = RELISTEN_BACKOFF_MS[Math.min(attempt, RELISTEN_BACKOFF_MS.length - 1)];
        await new Promise((resolve) => setTimeout(resolve, backoff));
      }
    }
    if (this.closed) return;
    const since = this.current.listening ? null : this.current.since;
    this.current = { listening: true };
    this.stats.relistens++;
    this.stopPolling();
    this.options.log?.info('doorbell listening again', {
      deafMs: since ? Date.now() - since.getTime() : 0,
    });
    this.catchUp();
  }

  private async closeListener(): Promise<void> {
    const listener = this.listener;
    this.listener = null;
    this.probe = null;
    try {
      await listener?.close();
    } catch {
      // The connection is already gone: nothing to undo.
    }
  }

  private startPolling(): void {
    if (this.pollTimer) return;
    this.pollTimer = setInterval(() => this.catchUp(), this.options.probeMs);
    this.pollTimer.unref();
  }

  private stopPolling(): void {
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.pollTimer = null;
  }

  private catchUp(): void {
    for (const catchUp of this.catchUps) catchUp();
  }

  private dispatch(payload: string): void {
    if (payload === CATCH_UP) {
      this.catchUp();
      return;
    }
    let ring: Ring | { kind: 'probe'; id: string; seq: string };
    try {
      ring = JSON.parse(payload);
    } catch {
      return; // not ours
    }
    if (ring.kind === 'probe') {
      const probe = this.probe;
      if (ring.id === this.probeId && probe && String(probe.seq) === ring.seq) {
        this.probe = null;
        this.stats.probeRoundTripMs = performance.now() - probe.sentAt;
        this.line?.proven();
        probe.arrived();
      }
      return;
    }
    this.stats.rings[ring.kind] = (this.stats.rings[ring.kind] ?? 0) + 1;
    this.options.log?.debug('ring heard', { kind: ring.kind, id: ring.id, seq: ring.seq });
    for (const key of [`${ring.kind}:${ring.id}`, `${ring.kind}:*`]) {
      for (const handler of this.handlers.get(key) ?? []) handler(ring as Ring);
    }
  }
}

const describe = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Rings over Postgres: LISTEN and NOTIFY on DOORBELL_CHANNEL. */
function postgresLine(database: Database): RingLine {
  if (database.rings !== 'notify') {
    throw new Error(
      "a LISTEN/NOTIFY doorbell needs a database opened with rings: 'notify' (its commits would not NOTIFY)",
    );
  }
  return {
    name: 'LISTEN/NOTIFY',
    unsent: 0,
    proven: () => {},
    listen: (name, onMessage, onClose) =>
      database.listen(DOORBELL_CHANNEL, name, onMessage, onClose),
    send: (payload) => database.notify(DOORBELL_CHANNEL, payload),
    close: () => {},
  };
}

/**
 * The select-list item that rings: one `Ring`, sent only if the transaction commits (never if
 * it rolls back). How depends on the database (`Database.rings`): by `pg_notify`, which
 * Postgres delivers on commit; or returned as the column RING_COLUMN, which the database hands
 * to the doorbell after the commit (NATS), with no NOTIFY and so no NOTIFY lock at commit.
 * `id` and `seq` may be columns of the statement it is in.
 */
export function ringSql(kind: RingKind, id: SQL | string, seq: SQL | string): SQL {
  return sql`(select case when current_setting(${RINGS_SETTING}, true) = 'returned' then ring.r
      else (select null::text from pg_notify(${DOORBELL_CHANNEL}, ring.r)) end
    from (select json_build_object('kind', ${kind}::text, 'id', (${id})::text,
      'seq', (${seq})::text)::text as r) ring) as ${sql.raw(RING_COLUMN)}`;
}

/** Rings the doorbell when `tx` commits (and never if it rolls back). */
export async function ring(tx: Queryable, { kind, id, seq }: Ring): Promise<void> {
  await tx.execute(sql`select ${ringSql(kind, id, seq)}`);
}
