/**
 * Clients that follow a goal's presence stream from a cursor through faults, the reference
 * read of the whole stream, and the counts of lost, duplicated and wrong events against it.
 */
import { type Client, createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { until } from '../support.ts';
import { clients } from './cluster.ts';
import type { Gateway } from './settings.ts';

export interface Change {
  readonly seq: number;
  readonly agentId: string | null;
  readonly liveness: string | null;
}

export const PRESENCE = `subscription($g: ID!, $after: Seq) { presenceChanged(goalId: $g, after: $after) {
  seq agentId presence { liveness } } }`;

/**
 * A client following a goal's presence stream from a cursor. On any error or close it
 * resubscribes after the last seq it received, on the next instance of `urls` in turn (an
 * instance that is gone fails to connect, and it moves on).
 */
export class Follower {
  readonly received: Change[] = [];
  readonly errors: string[] = [];
  resubscriptions = 0;
  private cursor: string;
  private index = 0;
  private client: Client | null = null;
  private stopped = false;

  constructor(
    private urls: string[],
    private readonly token: string,
    private readonly goalId: string,
    after: string,
  ) {
    this.cursor = after;
    this.open();
  }

  get last(): number {
    return Number(this.cursor);
  }

  /** From now on it resumes only on these instances. */
  only(urls: string[]): void {
    this.urls = urls;
    this.index = 0;
  }

  private open(): void {
    if (this.stopped) return;
    const url = this.urls[this.index % this.urls.length] as string;
    const client = createClient({
      url,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { authorization: `Bearer ${this.token}` },
    });
    clients.add(client);
    this.client = client;
    let failed = false;
    const again = (why: string) => {
      if (failed || this.stopped) return;
      failed = true;
      this.errors.push(why);
      clients.delete(client);
      void client.dispose();
      this.resubscriptions++;
      this.index++;
      setTimeout(() => this.open(), 50);
    };
    client.subscribe<{
      presenceChanged: { seq: string; agentId: string | null; presence: { liveness: string } };
    }>(
      { query: PRESENCE, variables: { g: this.goalId, after: this.cursor } },
      {
        next: ({ data, errors }) => {
          if (errors || !data) return again(JSON.stringify(errors));
          const c = data.presenceChanged;
          this.received.push({
            seq: Number(c.seq),
            agentId: c.agentId,
            liveness: c.presence?.liveness ?? null,
          });
          this.cursor = c.seq;
        },
        error: (error) => again(describe(error)),
        complete: () => again('completed'),
      },
    );
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.client) {
      clients.delete(this.client);
      await this.client.dispose();
    }
  }
}

export const describe = (error: unknown): string => {
  if (error instanceof Error) return error.message;
  const code = (error as { code?: number })?.code;
  return code !== undefined ? `socket closed ${code}` : JSON.stringify(error);
};

/** Reads a goal's whole presence stream from the start on `gateway`, up to the change `last`. */
export async function referenceStream(
  gateway: Gateway,
  goalId: string,
  last: (change: Change) => boolean,
): Promise<Change[]> {
  const reader = new Follower([gateway.wsUrl], gateway.adminToken, goalId, '0');
  await until(
    () => reader.received.some(last),
    'the reference read to reach the last change',
    60_000,
  );
  await reader.stop();
  return reader.received;
}

interface StreamCounts {
  lost: number;
  duplicated: number;
  wrong: number;
}

/**
 * A follower's events against the reference: lost = a reference event after its start cursor
 * it never received; duplicated = an event received more than once; wrong = an event whose
 * content differs from the reference's at that seq, or out of order.
 */
export function countStream(follower: Follower, start: number, reference: Change[]): StreamCounts {
  const bySeq = new Map(reference.map((c) => [c.seq, c]));
  const seen = new Set<number>();
  let duplicated = 0;
  let wrong = 0;
  let previous = start;
  for (const change of follower.received) {
    if (seen.has(change.seq)) duplicated++;
    else if (change.seq <= previous) wrong++;
    seen.add(change.seq);
    previous = Math.max(previous, change.seq);
    const expected = bySeq.get(change.seq);
    if (!expected || expected.agentId !== change.agentId || expected.liveness !== change.liveness)
      wrong++;
  }
  const lost = reference.filter((c) => c.seq > start && !seen.has(c.seq)).length;
  return { lost, duplicated, wrong };
}

/**
 * What writers wrote against the reference: every acknowledged change of an agent must be in
 * the stream, in the order acknowledged (a lost write is lost; another value is wrong).
 */
export function countWrites(acked: Map<string, string[]>, reference: Change[]): StreamCounts {
  let lost = 0;
  let wrong = 0;
  for (const [agentId, written] of acked) {
    const streamed = reference.filter((c) => c.agentId === agentId).map((c) => c.liveness);
    const tail = streamed.slice(streamed.length - written.length);
    if (streamed.length < written.length) lost += written.length - streamed.length;
    wrong += tail.filter((liveness, i) => liveness !== written[i]).length;
  }
  return { lost, duplicated: 0, wrong };
}
