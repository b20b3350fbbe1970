/**
 * What the server says when a caller reaches one of its limits (config.ts `Limits`), and the
 * count of those refusals for `/metrics`. A refusal is a GraphQL error with a code of its own
 * (HTTP and graphql-ws carry the same words and code; over HTTP a rate refusal is a 429 with
 * `Retry-After`), except the pending waits, whose refusal is a typed result of the wait fields.
 */
import { GraphQLError } from 'graphql';
import type { Limits } from '../config.ts';

export type LimitName = keyof Limits;

/** This instance's refusals by limit since it started (read by /metrics at scrape time). */
export class LimitRefusals {
  readonly counts: Record<LimitName, number> = {
    subscriptionsPerSocket: 0,
    socketsPerCredential: 0,
    responseBytes: 0,
    requestsPerSecond: 0,
    failedAuthsPerMinute: 0,
    pendingWaits: 0,
  };

  refused(limit: LimitName): void {
    this.counts[limit]++;
  }
}

/** A limit's refusal: its words and code are final, so it is answered as it is, never masked. */
export class LimitError extends GraphQLError {}

/**
 * The error of a refusal. With `retryAfterSeconds` (in its extensions too) it is a refusal to
 * retry later: over HTTP a 429 with that `Retry-After`.
 */
export function limitError(code: string, message: string, retryAfterSeconds?: number) {
  return new LimitError(message, {
    extensions: { code, ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }) },
  });
}
