import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { type DocumentNode, GraphQLError, getOperationAST, Kind } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Caller } from '../core/caller.ts';
import { DONE } from '../core/stream.ts';

export type Transport = 'http' | 'sse' | 'ws';

/**
 * One GraphQL operation as the server saw it, from the request (or WebSocket message) that
 * carried it to its last result: what the access line and the metrics are made of.
 */
export interface OperationRecord {
  readonly requestId: string;
  readonly started: number;
  transport: Transport;
  /** The operation's name, null for an anonymous one. */
  name: string | null;
  type: 'query' | 'mutation' | 'subscription' | null;
  /** The root field of a subscription (its kind: waitForAgent, ledgerEvents, …). */
  field: string | null;
  caller: Caller | null;
  /** The `extensions.code` of every error sent, in order; empty when all went well. */
  readonly codes: string[];
  /** The `errorId` of every masked unexpected error: its own log line has it too. */
  readonly errorIds: string[];
  /** Results sent: 1 for a query or mutation, the events of a subscription. */
  results: number;
  /** Set once a GraphQL result was produced (not for GraphiQL pages, preflights, 404s). */
  resulted: boolean;
  /** The caller's W3C trace context (`traceparent`, `tracestate`), for tracing. */
  readonly traceHeaders: Readonly<Record<string, string>>;
}

const REQUEST_ID = /^[A-Za-z0-9._:@/+=-]{1,128}$/;

/** The caller's `x-request-id` when it is a plain token of at most 128 characters, else a new id. */
export function requestIdOf(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  return value && REQUEST_ID.test(value) ? value : randomUUID();
}

const NO_TRACE: Readonly<Record<string, string>> = Object.freeze({});

export function newRecord(
  requestId: string,
  transport: Transport,
  headers: IncomingHttpHeaders,
): OperationRecord {
  const { traceparent, tracestate } = headers;
  const traceHeaders =
    typeof traceparent !== 'string'
      ? NO_TRACE
      : typeof tracestate === 'string'
        ? { traceparent, tracestate }
        : { traceparent };
  return {
    requestId,
    started: performance.now(),
    transport,
    name: null,
    type: null,
    field: null,
    caller: null,
    codes: [],
    errorIds: [],
    results: 0,
    resulted: false,
    traceHeaders,
  };
}

/** The record an HTTP request or WebSocket operation carries in its Yoga context. */
export interface WithRecord {
  readonly operationRecord?: OperationRecord;
}

const NAMED = /\b(?:query|mutation|subscription)\s+([_A-Za-z][_0-9A-Za-z]*)/;

/**
 * The operation's name before it is parsed (for one that fails to parse or validate): the
 * name the client gave, else the first named operation in the text. Parsing replaces it.
 */
export function nameOf(params: { operationName?: string | null; query?: string }): string | null {
  return params.operationName || NAMED.exec(params.query ?? '')?.[1] || null;
}

/** Fills in a record's operation name, type and subscription field once it is parsed. */
export const recordOperation: Plugin = {
  onExecute: ({ args }) => describe(args.contextValue as WithRecord, args),
  onSubscribe: ({ args }) => describe(args.contextValue as WithRecord, args),
};

function describe(
  context: WithRecord,
  args: { document: DocumentNode; operationName?: string | null },
): void {
  const record = context.operationRecord;
  if (!record) return;
  const operation = getOperationAST(args.document, args.operationName);
  if (!operation) return;
  record.name = operation.name?.value ?? args.operationName ?? null;
  record.type = operation.operation;
  const first = operation.selectionSet.selections[0];
  if (operation.operation === 'subscription' && first?.kind === Kind.FIELD)
    record.field = first.name.value;
}

interface Result {
  readonly errors?: readonly unknown[];
  readonly [key: string]: unknown;
}

/** A result's errors with the request id in their extensions, codes noted in the record. */
export function tagResult<T>(result: T, record: OperationRecord): T {
  record.resulted = true;
  record.results++;
  const { errors } = result as Result;
  if (!errors?.length) return result;
  const tagged = errors.map((error) => {
    const extensions: Record<string, unknown> = {
      ...(error as GraphQLError).extensions,
      requestId: record.requestId,
    };
    record.codes.push(String(extensions.code ?? 'UNKNOWN'));
    if (typeof extensions.errorId === 'string') record.errorIds.push(extensions.errorId);
    if (error instanceof GraphQLError) {
      return new GraphQLError(error.message, {
        nodes: error.nodes,
        source: error.source,
        positions: error.positions,
        path: error.path,
        originalError: error.originalError,
        extensions,
      });
    }
    return { ...(error as object), extensions };
  });
  return { ...(result as Result), errors: tagged } as T;
}

/** How `LiveStreams.endAll` ends a stream: this is its last item. */
export type FinalItem = (record: OperationRecord) => unknown;

/**
 * Every open subscription stream of this instance (SSE and WebSocket), each result tagged
 * with its request id. `endAll` gives each one a last item and ends it (shutdown).
 */
export class LiveStreams {
  readonly open = new Set<TrackedStream<unknown>>();
  /** Streams told to end whose last item their consumer has not yet read to the end. */
  unread = 0;

  /** `onEnd` runs once per stream, when it ends for any reason. */
  constructor(readonly onEnd: (record: OperationRecord) => void) {}

  get size(): number {
    return this.open.size;
  }

  /** Wraps `source`, the result stream of `record`. */
  track<T>(source: AsyncIterable<T>, record: OperationRecord): AsyncIterableIterator<T> {
    record.resulted = true;
    const stream = new TrackedStream(this, source[Symbol.asyncIterator](), record);
    this.open.add(stream as TrackedStream<unknown>);
    return stream;
  }

  /** Sends every open stream its last item and ends it. */
  endAll(final: FinalItem): void {
    for (const stream of [...this.open]) stream.stop(final);
  }
}

/**
 * One stream of `LiveStreams`, as the iterator its transport reads. A class rather than
 * closures: an instance holds one per open subscription, thousands of them.
 */
class TrackedStream<T> implements AsyncIterableIterator<T> {
  private ended = false;
  private drained = false;
  private final: { value: T } | null = null;
  /** Ends the pending `next` with the final item when the stream is told to stop. */
  private wake: (() => void) | null = null;

  constructor(
    private readonly streams: LiveStreams,
    private readonly iterator: AsyncIterator<T>,
    private readonly record: OperationRecord,
  ) {}

  [Symbol.asyncIterator](): this {
    return this;
  }

  stop(item: FinalItem): void {
    this.final = { value: tagResult(item(this.record), this.record) as T };
    this.streams.unread++;
    this.streams.open.delete(this as TrackedStream<unknown>);
    this.wake?.();
  }

  /**
   * The source's next item, or the final item once the stream is told to stop (whichever comes
   * first). Not an async function: a pending `next` is held by every open subscription, and
   * a suspended async function with a `Promise.race` held about twice as much.
   */
  next(): Promise<IteratorResult<T>> {
    if (this.ended || this.final) return Promise.resolve(this.afterStop());
    return new Promise((resolve, reject) => {
      const wake = () => {
        this.wake = null;
        resolve(this.afterStop());
      };
      this.wake = wake;
      this.iterator.next().then(
        (next) => {
          if (this.wake !== wake) return;
          this.wake = null;
          resolve(this.final ? this.afterStop() : this.passOn(next));
        },
        (error) => {
          if (this.wake !== wake) return;
          this.wake = null;
          reject(error);
        },
      );
    });
  }

  private passOn(next: IteratorResult<T>): IteratorResult<T> {
    if (next.done) {
      this.finish();
      return next;
    }
    return { done: false, value: tagResult(next.value, this.record) };
  }

  /** After `stop`: the final item once, then the end. */
  private afterStop(): IteratorResult<T> {
    const last = this.final;
    if (last && !this.ended) {
      this.finish();
      void this.iterator.return?.().catch(() => {});
      return { done: false, value: last.value };
    }
    this.drain();
    return DONE;
  }

  async return(): Promise<IteratorResult<T>> {
    this.finish();
    this.drain();
    await this.iterator.return?.().catch(() => {});
    return DONE;
  }

  async throw(error: unknown): Promise<IteratorResult<T>> {
    await this.return();
    throw error;
  }

  private drain(): void {
    if (this.final && !this.drained) this.streams.unread--;
    this.drained = true;
  }

  private finish(): void {
    if (this.ended) return;
    this.ended = true;
    this.streams.open.delete(this as TrackedStream<unknown>);
    this.streams.onEnd(this.record);
  }
}

/**
 * The access line of a finished operation: who (caller kind and credential id, never a
 * token), what (name, type, transport), how long, and how it ended.
 */
export function accessFields(record: OperationRecord): Record<string, unknown> {
  return {
    requestId: record.requestId,
    operation: record.name,
    type: record.type,
    transport: record.transport,
    ...(record.field ? { field: record.field } : {}),
    callerKind: record.caller?.kind ?? null,
    credentialId: record.caller?.credentialId ?? null,
    durationMs: Math.round((performance.now() - record.started) * 10) / 10,
    result: record.codes[0] ?? 'ok',
    ...(record.codes.length > 1 ? { errors: record.codes } : {}),
    ...(record.errorIds.length ? { errorIds: record.errorIds } : {}),
    ...(record.type === 'subscription' ? { events: record.results } : {}),
  };
}
