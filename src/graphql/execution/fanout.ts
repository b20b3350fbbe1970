import { buildExecutionContext, subscribe } from '@graphql-tools/executor';
import {
  createSourceEventStream,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLError,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Caller } from '../../core/caller.ts';
import { DONE, isAsyncIterable } from '../../core/stream.ts';
import { executeEvent } from './jit.ts';

/** What this plugin reads of the request context (not `Context`: that module names this one). */
interface ExecutionContext {
  readonly caller: Caller | null;
}

/**
 * Fan-out groups for subscriptions. Subscribers that share a document, variables and scope
 * form a group: each source event (one item a stream hub handed to every member, the same
 * object for all of them) is executed once per group, and every member gets the same result
 * object, so graphql-ws writes the same payload to each socket.
 *
 * What stays per member: its source stream (the hub's per-subscriber cursor, catch-up and
 * bounded queue), its revocation check (OpenStreams wraps each member's result stream), and
 * the pace it consumes at. A result is remembered per event object, and an event object lives
 * only while some member still has it queued: a slow member takes the group's result when it
 * gets there, and holds nobody else. Items a stream builds per member (a scope gap, rows a
 * per-subscriber select rebuilt) are executed for that member alone, as before.
 *
 * Errors are masked here, once per group result: Yoga's own masking would wrap every member's
 * stream in two more iterators (about 1 KB per idle subscription) and mask, and log, the same
 * error once per member.
 */
export class FanOutGroups {
  /** Executions of subscription events, and events a member took from its group's result. */
  readonly stats = { executions: 0, shared: 0 };
  /** Open groups by key, so members share one group (and one copy of its long key). */
  private readonly groups = new Map<string, Group>();
  private readonly results = new WeakMap<object, Map<Group, Promise<ExecutionResult>>>();

  /** `mask`: what an error becomes before a client sees it (the server's masking). */
  constructor(readonly mask: MaskError) {}

  /**
   * The envelop plugin: every subscription runs through `subscribe` below. It ends the
   * plugins' onSubscribe chain: the plugins after it in the list (Yoga's own error masking
   * among them) see no subscription, so it must come after every other plugin that wants to.
   */
  readonly plugin: Plugin<ExecutionContext> = {
    onSubscribe: ({ args, setResultAndStopExecution }) => {
      // A promise is a result to envelop too (it awaits whatever the subscribe would return).
      setResultAndStopExecution(this.subscribe(args as ExecutionArgs) as never);
    },
  };

  /**
   * The subscription as the executor Yoga uses would run it (same source stream; each event's
   * selection set executed with the event as root value, compiled: executeEvent), with each
   * event's execution shared within the group.
   */
  async subscribe(
    args: ExecutionArgs,
  ): Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult> {
    // Bad variables and the like: the executor's own answer, before any resolver runs.
    if (!('schema' in buildExecutionContext(args))) {
      return this.masked((await subscribe(args)) as ExecutionResult);
    }
    const source = await createSourceEventStream(args);
    if (!isAsyncIterable(source)) return this.masked(source);
    const key = operationKey(args);
    let group = this.groups.get(key);
    if (!group) {
      group = { key, members: 0 };
      this.groups.set(key, group);
    }
    group.members++;
    return new MemberEvents(this, source[Symbol.asyncIterator](), group, args);
  }

  /** Open groups: each holds its key once, whatever its member count. */
  get size(): number {
    return this.groups.size;
  }

  /** A member's stream ended: the last one out closes its group. */
  leave(group: Group): void {
    if (--group.members === 0) this.groups.delete(group.key);
  }

  /** The group's result for `event` (executed by whichever member asks first). */
  resultFor(group: Group, event: unknown, args: ExecutionArgs): Promise<ExecutionResult> {
    if (typeof event !== 'object' || event === null) return this.run(event, args);
    let byGroup = this.results.get(event);
    if (!byGroup) {
      byGroup = new Map();
      this.results.set(event, byGroup);
    }
    const known = byGroup.get(group);
    if (known) {
      this.stats.shared++;
      return known;
    }
    const result = this.run(event, args);
    byGroup.set(group, result);
    return result;
  }

  private async run(event: unknown, args: ExecutionArgs): Promise<ExecutionResult> {
    this.stats.executions++;
    return this.masked(await executeEvent({ ...args, rootValue: event }));
  }

  private masked(result: ExecutionResult): ExecutionResult {
    if (!result.errors?.length) return result;
    return { ...result, errors: result.errors.map((error) => this.mask(error)) };
  }
}

/** The server's error masking: what a client may see of `error`. */
export type MaskError = (error: unknown) => GraphQLError;

/**
 * Each parsed document numbered once (Yoga's parser cache hands out one object per operation
 * text): a key names its document by number, not by its printed text, since a key is built
 * per subscription and per cached read, and kept while its group or answer lives.
 */
const documentIds = new WeakMap<DocumentNode, number>();
let documentsSeen = 0;

/**
 * Document, operation, variables and scope: what an operation's results depend on (the key
 * of a fan-out group, and part of a cached read's key).
 */
export function operationKey(args: ExecutionArgs): string {
  let document = documentIds.get(args.document);
  if (document === undefined) {
    document = ++documentsSeen;
    documentIds.set(args.document, document);
  }
  const caller = (args.contextValue as ExecutionContext).caller;
  return JSON.stringify([
    document,
    args.operationName ?? null,
    args.variableValues ?? null,
    scopeOf(caller),
  ]);
}

/**
 * What a caller may see, without which credential says so: two credentials of the same kind
 * bound to the same goals (or agent, or provider) see the same results.
 */
export function scopeOf(caller: Caller | null): unknown {
  if (caller === null) return null;
  const { credentialId: _credentialId, ...scope } = caller;
  return Object.entries(scope).sort(([a], [b]) => (a < b ? -1 : 1));
}

/** Members sharing a key; `members` counts those whose stream has not ended. */
interface Group {
  readonly key: string;
  members: number;
}

/**
 * A member's source stream with each event mapped to its group's result; returning or
 * throwing ends the source at once (also while a `next` is pending), like the executor's own
 * mapping. A class rather than closures: an instance holds one per open subscription.
 */
class MemberEvents implements AsyncIterableIterator<ExecutionResult> {
  /** Null once this member has left its group. */
  private group: Group | null;

  constructor(
    private readonly groups: FanOutGroups,
    private readonly iterator: AsyncIterator<unknown>,
    group: Group,
    private readonly args: ExecutionArgs,
  ) {
    this.group = group;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  /** Not an async function: a suspended one, held per open subscription, costs more. */
  next(): Promise<IteratorResult<ExecutionResult>> {
    let item: Promise<IteratorResult<unknown>>;
    try {
      item = this.iterator.next();
    } catch (error) {
      return this.fail(error);
    }
    return item.then((next) => this.result(next)).catch((error) => this.fail(error));
  }

  private fail(error: unknown): Promise<never> {
    this.leave();
    return Promise.reject(this.groups.mask(error));
  }

  async return(): Promise<IteratorResult<ExecutionResult>> {
    this.leave();
    await this.iterator.return?.();
    return DONE;
  }

  async throw(error: unknown): Promise<IteratorResult<ExecutionResult>> {
    if (this.iterator.throw) {
      const item = await this.iterator.throw(error);
      if (!item.done) return this.result(item);
    }
    await this.return();
    throw error;
  }

  private async result(item: IteratorResult<unknown>): Promise<IteratorResult<ExecutionResult>> {
    if (item.done || !this.group) {
      this.leave();
      return DONE;
    }
    return { done: false, value: await this.groups.resultFor(this.group, item.value, this.args) };
  }

  private leave(): void {
    if (this.group) this.groups.leave(this.group);
    this.group = null;
  }
}
