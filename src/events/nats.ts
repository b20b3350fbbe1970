import { connect, type NatsConnection } from '@nats-io/transport-node';
import type { Database, Listener } from '../db/database.ts';
import { CATCH_UP, type RingLine } from './line.ts';

/** The NATS subject every instance of a deployment publishes its rings to and listens on. */
export const DOORBELL_SUBJECT = 'switchboard.doorbell';

/**
 * Rings over a NATS server (core NATS, no JetStream: a ring is only a doorbell, Postgres keeps
 * the events). The database hands over each commit's rings after the commit (`rings:
 * 'returned'`), and they are published on the current connection. While there is none, they
 * are dropped and counted. A new connection starts by telling every instance to catch up
 * (CATCH_UP) when rings of this instance may have been lost: dropped, or published on the old
 * connection after the last probe that came back on it.
 */
export class NatsLine implements RingLine {
  readonly name: string;
  /** Rings not sent because there was no connection (every instance caught up after). */
  unsent = 0;
  private connection: NatsConnection | null = null;
  /** Rings of this instance so far, published or dropped. */
  private rung = 0;
  /** How many of them came before the probe out, and before the last probe that came back. */
  private beforeProbe = 0;
  private delivered = 0;
  private readonly stopRinging: () => void;

  constructor(
    private readonly servers: string,
    database: Database,
  ) {
    if (database.rings !== 'returned') {
      throw new Error(
        "a NATS doorbell needs a database opened with rings: 'returned' (its commits would ring only by NOTIFY)",
      );
    }
    this.name = `NATS ${servers}`;
    this.stopRinging = database.onCommit((rings) => {
      const connection = this.connection;
      this.rung += rings.length;
      if (connection === null || connection.isClosed()) {
        this.unsent += rings.length;
        return;
      }
      for (const ring of rings) connection.publish(DOORBELL_SUBJECT, ring);
    });
  }

  async listen(
    connectionName: string,
    onMessage: (payload: string) => void,
    onClose: () => void,
  ): Promise<Listener> {
    // No reconnects of its own: a lost connection is reported at once, and the doorbell
    // (polling meanwhile) opens the next one.
    const connection = await connect({
      servers: this.servers,
      name: connectionName,
      reconnect: false,
      timeout: 5_000,
    });
    connection.subscribe(DOORBELL_SUBJECT, {
      callback: (error, message) => {
        if (!error) onMessage(message.string());
      },
    });
    void connection.closed().then(onClose);
    this.connection = connection;
    // Rings since the last proven probe may be lost: dropped, or with the old connection.
    if (this.rung > this.delivered) connection.publish(DOORBELL_SUBJECT, CATCH_UP);
    return {
      name: connectionName,
      close: async () => {
        if (this.connection === connection) this.connection = null;
        await connection.close();
      },
    };
  }

  async send(payload: string): Promise<void> {
    const connection = this.connection;
    if (connection === null || connection.isClosed()) throw new Error('no connection');
    this.beforeProbe = this.rung;
    connection.publish(DOORBELL_SUBJECT, payload);
  }

  proven(): void {
    this.delivered = this.beforeProbe;
  }

  close(): void {
    this.stopRinging();
  }
}
