import type { Listener } from '../db/database.ts';

/**
 * What carries rings between instances for a Doorbell: a listening connection it opens, proves
 * with probes and replaces when deaf. Postgres LISTEN/NOTIFY (doorbell.ts) or a NATS server
 * (nats.ts).
 */
export interface RingLine {
  /** What it listens on, at the head of every reason the doorbell gives for being deaf. */
  readonly name: string;
  /** Rings of this instance's commits it could not send (always 0 where Postgres sends them). */
  readonly unsent: number;
  /**
   * Opens a listening connection named `connectionName`; `onMessage` gets each payload sent by
   * any instance, `onClose` says the connection is gone (at once, never reconnected behind the
   * doorbell's back).
   */
  listen(
    connectionName: string,
    onMessage: (payload: string) => void,
    onClose: () => void,
  ): Promise<Listener>;
  /** Sends `payload` to every listening connection (the doorbell's probes). */
  send(payload: string): Promise<void>;
  /**
   * A probe came back: everything sent before it on the listening connection was delivered
   * (a connection delivers in order).
   */
  proven(): void;
  /** Stops carrying the instance's rings (the listening connection is closed by the doorbell). */
  close(): void;
}

/**
 * A payload that tells every instance to catch up from its cursors: a NATS line sends it when
 * it listens again after rings of its own may have been lost (not sent, or sent on a connection
 * that died before a probe proved them delivered).
 */
export const CATCH_UP = JSON.stringify({ kind: 'catch-up' });
