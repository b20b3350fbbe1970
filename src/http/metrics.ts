import { sql } from 'drizzle-orm';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Database } from '../db/database.ts';
import { rowsOf } from '../db/sql.ts';
import { deliveriesTable } from '../delivery/tables.ts';
import type { Doorbell } from '../events/doorbell.ts';
import type { LimitRefusals } from '../graphql/limits.ts';
import { waitsTable } from '../waits/tables.ts';
import type { OperationRecord } from './operations.ts';

/** Distinct operation names kept as label values; any further name is counted as "other". */
const MAX_OPERATION_NAMES = 200;

export interface MetricsSources {
  readonly database: Database;
  readonly doorbell: Doorbell;
  /** Open WebSocket connections of this instance. */
  readonly websockets: () => number;
  readonly refusals: LimitRefusals;
}

/**
 * This instance's Prometheus metrics (prom-client, one registry per gateway). Operation
 * counts and latencies are this instance's; waits and deliveries are read from the database
 * at scrape time, so they are the same on every instance of one database.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly names = new Set<string>();
  private readonly operations: Counter<'operation' | 'type' | 'transport' | 'result'>;
  private readonly errors: Counter<'operation' | 'code'>;
  private readonly duration: Histogram<'operation' | 'type'>;
  private readonly subscriptions: Gauge<'field' | 'transport'>;
  private readonly events: Counter<'field'>;

  constructor(private readonly sources: MetricsSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.operations = new Counter({
      name: 'switchboard_operations_total',
      help: 'GraphQL operations finished, by operation name, type, transport and result (ok, or the first error code).',
      labelNames: ['operation', 'type', 'transport', 'result'],
      registers,
    });
    this.errors = new Counter({
      name: 'switchboard_operation_errors_total',
      help: 'GraphQL errors sent, by operation name and extensions.code (typed outcomes such as refusals are data, not errors).',
      labelNames: ['operation', 'code'],
      registers,
    });
    this.duration = new Histogram({
      name: 'switchboard_operation_duration_seconds',
      help: 'Time from request to response of queries and mutations (subscriptions are not timed: they last as long as their client).',
      labelNames: ['operation', 'type'],
      buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    });
    this.subscriptions = new Gauge({
      name: 'switchboard_subscriptions_open',
      help: 'Open subscriptions of this instance, by root field (the kind: waitForAgent, ledgerEvents, …) and transport (sse, ws).',
      labelNames: ['field', 'transport'],
      registers,
    });
    this.events = new Counter({
      name: 'switchboard_subscription_events_total',
      help: 'Events sent to subscribers, by root field.',
      labelNames: ['field'],
      registers,
    });
    new Gauge({
      name: 'switchboard_websockets_open',
      help: 'Open graphql-ws connections of this instance.',
      registers,
      collect() {
        this.set(sources.websockets());
      },
    });
    new Counter({
      name: 'switchboard_limit_refusals_total',
      help: 'Operations, sockets and authentications refused by a limit per caller or per operation, by limit (subscriptionsPerSocket, socketsPerCredential, responseBytes, requestsPerSecond, failedAuthsPerMinute, pendingWaits).',
      labelNames: ['limit'],
      registers,
      collect() {
        this.reset();
        for (const [limit, count] of Object.entries(sources.refusals.counts))
          this.inc({ limit }, count);
      },
    });
    this.doorbellMetrics(registers);
    this.databaseMetrics(registers);
  }

  /** A subscription started streaming. */
  subscriptionOpened(record: OperationRecord): void {
    this.subscriptions.inc({ field: record.field ?? 'unknown', transport: record.transport });
  }

  /** A subscription ended: counts its events; `operationFinished` counts the operation. */
  subscriptionClosed(record: OperationRecord): void {
    this.subscriptions.dec({ field: record.field ?? 'unknown', transport: record.transport });
  }

  operationFinished(record: OperationRecord): void {
    const operation = this.label(record.name);
    const type = record.type ?? 'unknown';
    const result = record.codes[0] ?? 'ok';
    this.operations.inc({ operation, type, transport: record.transport, result });
    for (const code of record.codes) this.errors.inc({ operation, code });
    if (record.type === 'subscription') {
      this.events.inc({ field: record.field ?? 'unknown' }, record.results);
    } else {
      this.duration.observe({ operation, type }, (performance.now() - record.started) / 1000);
    }
  }

  /** The exposition text and its content type. */
  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  /** Operation names are chosen by clients: the first few hundred are labels, the rest "other". */
  private label(name: string | null): string {
    if (name === null) return 'anonymous';
    if (this.names.has(name)) return name;
    if (this.names.size >= MAX_OPERATION_NAMES) return 'other';
    this.names.add(name);
    return name;
  }

  private doorbellMetrics(registers: Registry[]): void {
    const { doorbell } = this.sources;
    new Gauge({
      name: 'switchboard_doorbell_listening',
      help: '1 while the doorbell (LISTEN/NOTIFY or NATS) is proven to hear rings; 0 while deaf (streams then poll).',
      registers,
      collect() {
        this.set(doorbell.status().listening ? 1 : 0);
      },
    });
    new Gauge({
      name: 'switchboard_doorbell_deaf_seconds',
      help: 'How long the doorbell has been deaf; 0 while it listens.',
      registers,
      collect() {
        const status = doorbell.status();
        this.set(status.listening ? 0 : (Date.now() - status.since.getTime()) / 1000);
      },
    });
    new Counter({
      name: 'switchboard_doorbell_reconnects_total',
      help: 'Times the doorbell had to open a new listening connection.',
      registers,
      collect() {
        this.reset();
        this.inc(doorbell.stats.relistens);
      },
    });
    new Gauge({
      name: 'switchboard_doorbell_lag_seconds',
      help: "Round trip of the doorbell's last probe: from sending it (NOTIFY or NATS) to hearing it, the delay every ring has.",
      registers,
      collect() {
        const ms = doorbell.stats.probeRoundTripMs;
        if (ms !== null) this.set(ms / 1000);
      },
    });
    new Counter({
      name: 'switchboard_doorbell_rings_total',
      help: 'Rings heard, by kind (presence, inbox, ledger, delivery, credential).',
      labelNames: ['kind'],
      registers,
      collect() {
        this.reset();
        for (const [kind, count] of Object.entries(doorbell.stats.rings)) this.inc({ kind }, count);
      },
    });
    new Counter({
      name: 'switchboard_doorbell_unsent_rings_total',
      help: "Rings of this instance's commits not sent for want of a NATS connection (every instance catches up once it is back); 0 on LISTEN/NOTIFY.",
      registers,
      collect() {
        this.reset();
        this.inc(doorbell.unsent);
      },
    });
  }

  private databaseMetrics(registers: Registry[]): void {
    const { database } = this.sources;
    // One scrape reads the database once, whichever of these metrics asks first.
    let reading: Promise<DatabaseFigures | null> | null = null;
    const read = () => {
      reading ??= readFigures(database).finally(() =>
        setImmediate(() => {
          reading = null;
        }),
      );
      return reading;
    };
    new Gauge({
      name: 'switchboard_database_up',
      help: '1 when the scrape could read the database, 0 when it could not (the figures below are then absent).',
      registers,
      async collect() {
        this.set((await read()) ? 1 : 0);
      },
    });
    new Gauge({
      name: 'switchboard_database_pool_connections',
      help: "This instance's query pool: max (its size), open and busy connections (the embedded database has one).",
      labelNames: ['state'],
      registers,
      async collect() {
        const figures = await read();
        this.reset();
        if (!figures) return;
        for (const [state, value] of Object.entries(figures.pool)) this.set({ state }, value);
      },
    });
    new Gauge({
      name: 'switchboard_waits',
      help: 'Waits in the database by status: PENDING, or the outcome it resolved to (SATISFIED, NOT_RUNNING, UNREACHABLE, TIMED_OUT, …). The same on every instance.',
      labelNames: ['status'],
      registers,
      async collect() {
        const figures = await read();
        this.reset();
        for (const [status, value] of Object.entries(figures?.waits ?? {}))
          this.set({ status }, value);
      },
    });
    new Gauge({
      name: 'switchboard_deliveries',
      help: 'Deliveries in the database by current outcome (SUBMITTED, ACTIVITY_OBSERVED, STALLED, EXPIRED, UNREACHABLE, …). The same on every instance.',
      labelNames: ['outcome'],
      registers,
      async collect() {
        const figures = await read();
        this.reset();
        for (const [outcome, value] of Object.entries(figures?.deliveries ?? {}))
          this.set({ outcome }, value);
      },
    });
  }
}

interface DatabaseFigures {
  readonly pool: Record<string, number>;
  readonly waits: Record<string, number>;
  readonly deliveries: Record<string, number>;
}

async function readFigures(database: Database): Promise<DatabaseFigures | null> {
  try {
    const count = async (query: ReturnType<typeof sql>) =>
      Object.fromEntries(
        rowsOf<{ key: string; n: number }>(await database.db.execute(query)).map((row) => [
          row.key,
          Number(row.n),
        ]),
      );
    const [pool, waits, deliveries] = await Promise.all([
      database.pool(),
      count(sql`select ${waitsTable.status} as key, count(*) as n from ${waitsTable} group by 1`),
      count(
        sql`select ${deliveriesTable.outcome} as key, count(*) as n from ${deliveriesTable} group by 1`,
      ),
    ]);
    return { pool: { ...pool }, waits, deliveries };
  } catch {
    return null;
  }
}
