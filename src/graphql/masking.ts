import { randomUUID } from 'node:crypto';
import { GraphQLError } from 'graphql';
import { ForbiddenError, InputError, UnauthenticatedError } from '../core/errors.ts';
import { SubscriberTooSlow } from '../events/hub.ts';
import type { AppDeps } from './context.ts';
import { LimitError } from './limits.ts';

/** What a client is told of an error it may not see. */
export const UNEXPECTED_MESSAGE = 'Unexpected error.';

export const withoutSuggestions = (message: string) =>
  message.replace(/ ?Did you mean [^?]*\?/g, '');

const CODES = [
  { type: InputError, code: 'BAD_USER_INPUT', status: 200 },
  { type: ForbiddenError, code: 'FORBIDDEN', status: 200 },
  { type: UnauthenticatedError, code: 'UNAUTHENTICATED', status: 401 },
  { type: SubscriberTooSlow, code: 'SUBSCRIBER_TOO_SLOW', status: 200 },
] as const;

/** What the limit plugins say instead of their limits (which are not echoed). */
const LIMIT_MESSAGE = 'Syntax Error: Query validation error.';

/**
 * Errors the services throw on purpose keep their message and get a code; GraphQL errors
 * raised by parsing, validation, variable coercion or the auth plugin get a code too, without
 * "Did you mean" hints when exploration is off; anything else is masked, and logged with an
 * error id the client also gets — never with the query's parameters.
 */
export function maskError(
  error: unknown,
  message: string,
  deps: Pick<AppDeps, 'config' | 'log'>,
): GraphQLError {
  // A limit's refusal is made once with its final words and code: answered as it is.
  if (error instanceof LimitError) return error;
  const located = error instanceof GraphQLError ? error : null;
  const original = located?.originalError ?? error;
  const known = CODES.find(({ type }) => original instanceof type);
  if (known && original instanceof Error) {
    return new GraphQLError(original.message, {
      nodes: located?.nodes,
      path: located?.path,
      extensions: {
        code: known.code,
        ...(original instanceof InputError && original.field ? { field: original.field } : {}),
        ...(known.status !== 200 ? { http: { status: known.status } } : {}),
      },
    });
  }
  if (located && (!located.originalError || located.originalError instanceof GraphQLError)) {
    const limit = located.message === LIMIT_MESSAGE;
    const coercion =
      /^Variable "\$|^(Expected value of type|Int cannot|Float cannot|String cannot|Boolean cannot|ID cannot|Enum ")/.test(
        located.message,
      );
    const text = limit
      ? "the operation exceeds this server's limits on depth, aliases, tokens, directives or cost"
      : deps.config.exploration
        ? located.message
        : withoutSuggestions(located.message);
    const code =
      located.extensions.code ??
      (limit || coercion ? 'BAD_USER_INPUT' : 'GRAPHQL_VALIDATION_FAILED');
    return new GraphQLError(text, {
      nodes: located.nodes,
      path: located.path,
      extensions: { ...located.extensions, code },
    });
  }
  const errorId = randomUUID();
  deps.log.error('unexpected error', {
    errorId,
    path: located?.path?.join('.'),
    ...describeUnexpected(original),
  });
  return new GraphQLError(message, {
    nodes: located?.nodes,
    path: located?.path,
    extensions: { code: 'INTERNAL_SERVER_ERROR', errorId },
  });
}

/**
 * An unexpected error for the log: its class, the database's error code and the stack frames.
 * Never its message: a failed query's message carries its SQL parameters (bodies, titles,
 * token hashes).
 */
export function describeUnexpected(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { kind: typeof error };
  const cause = error.cause as { code?: unknown; name?: unknown } | undefined;
  return {
    kind: error.constructor.name,
    dbCode: (error as { code?: unknown }).code ?? cause?.code,
    cause: cause instanceof Error ? cause.constructor.name : undefined,
    frames: error.stack
      ?.split('\n')
      .filter((line) => line.trimStart().startsWith('at '))
      .slice(0, 8),
  };
}
