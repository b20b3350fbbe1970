import { useGraphQlJit } from '@envelop/graphql-jit';
import { buildExecutionContext } from '@graphql-tools/executor';
import { getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Context } from '../context.ts';

/**
 * Queries and mutations run compiled (graphql-jit): one function per document, compiled on its
 * first execution and kept with the parsed document (Yoga's parser cache holds those), instead
 * of a resolver call through the generic executor for every field of every row. Operations
 * whose variables do not coerce are answered by the standard executor, so their errors read
 * exactly as before.
 *
 * Subscriptions are not compiled: graphql-jit 0.8.7 calls a subscription field's `subscribe`
 * with the operation's variables as its arguments (dist/execution.js, `executeSubscription`),
 * so an argument written inline (`after: "0"`) or bound to a variable of another name
 * (`goalId: $g`) is lost. The suite's documents named their variables after the arguments and
 * passed; the benchmark's (`presenceChanged(goalId: $g, after: "0")`) reached the resolver
 * without a goal, so the only item was a masked internal error with no data, which its
 * subscribers read as a null payload (test/execution.test.ts fails that way with subscriptions
 * compiled). They run through the fan-out groups (fanout.ts) on the standard executor.
 */
export const compiledExecution: Plugin<Context> = useGraphQlJit(
  {},
  {
    enableIf: (args) =>
      getOperationAST(args.document, args.operationName)?.operation !== 'subscription' &&
      // Variables that do not coerce: the standard executor answers, with its own errors
      // (graphql-jit words and wraps them its own way, and maskError knows these).
      'schema' in buildExecutionContext(args),
  },
) as Plugin<Context>;
