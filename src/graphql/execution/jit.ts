import { execute, normalizedExecutor } from '@graphql-tools/executor';
import type { DocumentNode, ExecutionArgs, ExecutionResult } from 'graphql';
import { type CompiledQuery, compileQuery, isCompiledQuery } from 'graphql-jit';
import type { Plugin } from 'graphql-yoga';

/**
 * Queries and mutations run compiled (graphql-jit): one function per operation, compiled on
 * its first execution and kept with the parsed document (Yoga's parser cache holds those),
 * instead of a resolver call through the generic executor for every field of every row. The
 * compiled function coerces the variables itself; variables that do not coerce are answered
 * by the standard executor, so their errors read exactly as before (graphql-jit words and
 * wraps them its own way, and maskError knows these), at no cost to the operations whose
 * variables do coerce.
 *
 * A subscription's source stream never comes here: the fan-out groups (fanout.ts) open it on
 * the standard executor. graphql-jit 0.8.7 calls a subscription field's `subscribe` with the
 * operation's variables as its arguments (dist/execution.js, `executeSubscription`), so an
 * argument written inline (`after: "0"`) or bound to a variable of another name (`goalId: $g`)
 * is lost, and the only item is a masked internal error that subscribers read as a null
 * payload (test/execution.test.ts fails that way with subscriptions compiled). Each event of
 * the stream is executed compiled (executeEvent): that path computes arguments as a query does.
 */
export const compiledExecution: Plugin = {
  onExecute: ({ setExecuteFn }) => {
    setExecuteFn(executeCompiled as never);
  },
};

/** Compiled operations by document, then operation name ('' for the only one). */
const compiled = new WeakMap<DocumentNode, Map<string, CompiledQuery | null>>();

async function executeCompiled(args: ExecutionArgs): Promise<ExecutionResult> {
  return (await runCompiled(args)) ?? ((await normalizedExecutor(args)) as ExecutionResult);
}

/**
 * One event of a subscription: the operation's selection set with the event as root value, as
 * graphql-jit's own subscribe maps each event (`compiledQuery.query`), instead of the standard
 * executor coercing the variables and walking the fields again for every event. Variables that
 * do not coerce, and operations that do not compile, run on the standard executor.
 */
export async function executeEvent(args: ExecutionArgs): Promise<ExecutionResult> {
  return (await runCompiled(args)) ?? ((await execute(args)) as ExecutionResult);
}

/** The compiled operation's result, or null when it does not compile or its variables do not. */
async function runCompiled(args: ExecutionArgs): Promise<ExecutionResult | null> {
  const query = compiledFor(args);
  if (!query) return null;
  const result = await query.query(args.rootValue, args.contextValue, args.variableValues);
  // No data at all: the variables did not coerce.
  return 'data' in result ? Object.assign(result, { stringify: query.stringify }) : null;
}

/** The operation compiled, or null when it does not compile (the standard executor says why). */
function compiledFor(args: ExecutionArgs): CompiledQuery | null {
  let byName = compiled.get(args.document);
  if (!byName) {
    byName = new Map();
    compiled.set(args.document, byName);
  }
  const name = args.operationName ?? '';
  let query = byName.get(name);
  if (query === undefined) {
    const result = compileQuery(args.schema, args.document, args.operationName ?? undefined);
    query = isCompiledQuery(result) ? result : null;
    byName.set(name, query);
  }
  return query;
}
