import {
  type ExecutionArgs,
  type ExecutionResult,
  getOperationAST,
  Kind,
  valueFromAST,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Caller } from '../../core/caller.ts';
import type { Db, Queryable } from '../../db/database.ts';
import type { Doorbell } from '../../events/doorbell.ts';
import { operationKey } from './fanout.ts';

/** What this plugin reads of the request context (not `Context`: that module names this one). */
interface ExecutionContext {
  readonly caller: Caller | null;
  readonly db: Db;
}

/** The reads a response may be cached for: each is computed from one goal's state alone. */
const CACHEABLE = new Set(['directory', 'attention', 'frontier']);

/**
 * Longest an answer is served from memory (ms). Commits are caught by the stamp (a presence
 * lapse is one); this bounds what moves with the clock alone (a claim going stale, a lease
 * expiring), which no commit announces.
 */
export const MAX_AGE_MS = 1_000;

interface Entry {
  readonly result: ExecutionResult;
  readonly at: number;
}

/**
 * Everything the cacheable reads of a goal are computed from, as one text, read in one
 * statement (directory/stamp.ts `goalStamp`, handed in by the gateway).
 */
export type GoalStamp = (db: Queryable, goalId: string) => Promise<string>;

/**
 * Answers to reads of an unchanged goal (directory, attention, frontier), kept per instance.
 * An answer is keyed by the caller's scope, the operation (document, name, variables) and the
 * goal's stamp, read on the request's own connection. A commit that finished before the
 * request arrived is in that statement's snapshot, so it moves the stamp and misses the cache:
 * no caller is answered from before a commit it could have observed. Rings for the goal drop its answers; while the doorbell is
 * not listening nothing is cached or served; errors are never cached.
 */
export class ResponseCache {
  readonly stats = { hits: 0, misses: 0, bypassed: 0 };
  private readonly entries = new Map<string, Entry>();
  private readonly byGoal = new Map<string, Set<string>>();
  private readonly stop: (() => void)[];

  constructor(
    private readonly doorbell: Doorbell,
    private readonly stamp: GoalStamp,
    private readonly enabled: boolean,
    private readonly capacity = 500,
  ) {
    const drop = (ring: { id: string }) => this.dropGoal(ring.id);
    this.stop = enabled
      ? [
          doorbell.on('presence', null, drop),
          doorbell.on('inbox', null, drop),
          doorbell.on('ledger', null, drop),
          doorbell.onReconnect(() => this.clear()),
        ]
      : [];
  }

  close(): void {
    for (const stop of this.stop) stop();
    this.clear();
  }

  /** The envelop plugin: a hit answers without executing; a clean miss is remembered. */
  readonly plugin: Plugin<ExecutionContext> = {
    onExecute: async ({ args, setResultAndStopExecution }) => {
      if (!this.enabled) return;
      const goalId = cacheableGoal(args);
      if (goalId === null) return;
      if (!this.doorbell.status().listening) {
        this.stats.bypassed++;
        this.clear();
        return;
      }
      const context = args.contextValue as ExecutionContext;
      const key = `${goalId}\u0000${await this.stamp(context.db, goalId)}\u0000${operationKey(args)}`;
      const entry = this.entries.get(key);
      if (entry && performance.now() - entry.at <= MAX_AGE_MS) {
        this.stats.hits++;
        setResultAndStopExecution(entry.result);
        return;
      }
      this.stats.misses++;
      return {
        onExecuteDone: ({ result }) => {
          const done = result as ExecutionResult;
          if (Symbol.asyncIterator in done || done.errors?.length) return;
          if (!this.doorbell.status().listening) return;
          this.remember(goalId, key, done);
        },
      };
    },
  };

  private remember(goalId: string, key: string, result: ExecutionResult): void {
    // Serialized once, for every request it answers (Yoga uses a result's own stringify).
    // Plugins after this one may hand Yoga a copy of the result: the same data, no errors.
    let body: string | null = null;
    const cached = Object.assign({}, result, {
      stringify: (value: ExecutionResult) => {
        if (value.data !== result.data || value.errors || value.extensions !== result.extensions)
          return JSON.stringify(value);
        body ??= JSON.stringify(result);
        return body;
      },
    });
    this.entries.delete(key);
    this.entries.set(key, { result: cached, at: performance.now() });
    const keys = this.byGoal.get(goalId) ?? new Set();
    this.byGoal.set(goalId, keys);
    keys.add(key);
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
      this.byGoal.get(oldest.slice(0, oldest.indexOf('\u0000')))?.delete(oldest);
    }
  }

  private dropGoal(goalId: string): void {
    for (const key of this.byGoal.get(goalId) ?? []) this.entries.delete(key);
    this.byGoal.delete(goalId);
  }

  private clear(): void {
    this.entries.clear();
    this.byGoal.clear();
  }
}

/**
 * The one goal a query reads, when every root field is a cacheable read of the same goal
 * (its `goalId` argument, inline or a variable); otherwise null.
 */
function cacheableGoal(args: ExecutionArgs): string | null {
  const operation = getOperationAST(args.document, args.operationName);
  if (operation?.operation !== 'query') return null;
  let goalId: string | null = null;
  for (const selection of operation.selectionSet.selections) {
    if (selection.kind !== Kind.FIELD || selection.directives?.length) return null;
    if (selection.name.value === '__typename') continue;
    if (!CACHEABLE.has(selection.name.value)) return null;
    const argument = selection.arguments?.find((a) => a.name.value === 'goalId');
    if (!argument) return null;
    const value =
      argument.value.kind === Kind.VARIABLE
        ? args.variableValues?.[argument.value.name.value]
        : valueFromAST(argument.value, args.schema.getType('ID') as never);
    if (typeof value !== 'string' || (goalId !== null && value !== goalId)) return null;
    goalId = value;
  }
  return goalId;
}
