import SchemaBuilder from '@pothos/core';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import { GraphQLError, Kind } from 'graphql';
import type {
  AdminCaller,
  Caller,
  PeerCaller,
  ProviderCaller,
  StewardCaller,
} from '../core/caller.ts';
import type { Context, ContextOf } from './context.ts';

/**
 * The schema builder: plugins, scalars and the kind-level auth scopes. Domain types live
 * in each domain's graphql.ts. Goal-level scope is not decided here: it is data
 * (`ScopeGap`), computed by the domain services.
 */
export const builder = new SchemaBuilder<{
  Context: Context;
  DefaultFieldNullability: false;
  AuthScopes: {
    /** Any valid credential. */
    authenticated: boolean;
    admin: boolean;
    /** ADMIN, STEWARD or PEER: callers that read directory, work and ledger data. */
    reader: boolean;
    /** The person's channel: decides gates. */
    steward: boolean;
    /** PEER: a registered agent, the only kind of caller with an inbox. */
    peer: boolean;
    provider: boolean;
  };
  /** What each scope proves about the caller: `t.withAuth({ peer: true })` narrows it. */
  AuthContexts: {
    authenticated: ContextOf<Caller>;
    admin: ContextOf<AdminCaller>;
    reader: ContextOf<AdminCaller | StewardCaller | PeerCaller>;
    steward: ContextOf<StewardCaller>;
    peer: ContextOf<PeerCaller>;
    provider: ContextOf<ProviderCaller>;
  };
  Scalars: {
    ID: { Input: string; Output: string | number };
    DateTime: { Input: Date; Output: Date | string };
    Seq: { Input: string; Output: string | bigint | number };
  };
}>({
  plugins: [ScopeAuthPlugin],
  defaultFieldNullability: false,
  scopeAuth: {
    authorizeOnSubscribe: true,
    authScopes: ({ caller }) => ({
      authenticated: caller !== null,
      admin: caller?.kind === 'ADMIN',
      reader: caller !== null && caller.kind !== 'PROVIDER',
      steward: caller?.kind === 'STEWARD',
      peer: caller?.kind === 'PEER',
      provider: caller?.kind === 'PROVIDER',
    }),
    unauthorizedError: (_parent, { caller }) =>
      caller
        ? new GraphQLError(`a ${caller.kind} credential may not perform this operation`, {
            extensions: { code: 'FORBIDDEN' },
          })
        : new GraphQLError(
            'this operation needs a credential: send Authorization: Bearer <token>',
            { extensions: { code: 'UNAUTHENTICATED', http: { status: 401 } } },
          ),
  },
});

builder.scalarType('DateTime', {
  description: 'An instant, as an ISO-8601 string in UTC.',
  serialize: (value) => (value instanceof Date ? value : new Date(value)).toISOString(),
  parseValue: (value) => parseDateTime(value),
  parseLiteral: (node) => parseDateTime(node.kind === Kind.STRING ? node.value : null),
});

/** Years 1 to 9999: what every Postgres timestamp column holds and ISO-8601 writes plainly. */
const EARLIEST = Date.parse('0001-01-01T00:00:00.000Z');
const LATEST = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

function parseDateTime(value: unknown): Date {
  const date = typeof value === 'string' ? new Date(value) : new Date(Number.NaN);
  if (Number.isNaN(date.getTime())) throw new GraphQLError('DateTime must be an ISO-8601 string');
  if (date.getTime() < EARLIEST || date.getTime() > LATEST) {
    throw new GraphQLError('DateTime must lie between the years 0001 and 9999');
  }
  return date;
}

builder.scalarType('Seq', {
  description:
    'A position in a forward-only stream, as a decimal string. Compare as integers, never as text; resume by passing the last one you saw.',
  serialize: (value) => String(value),
  parseValue: (value) => parseSeq(value),
  parseLiteral: (node) =>
    parseSeq(node.kind === Kind.STRING || node.kind === Kind.INT ? node.value : null),
});

/** The largest position any stream can reach: Postgres' bigint. */
const MAX_SEQ = 9_223_372_036_854_775_807n;

function parseSeq(value: unknown): string {
  if (
    (typeof value === 'string' || typeof value === 'number') &&
    /^\d{1,19}$/.test(String(value)) &&
    BigInt(value) <= MAX_SEQ
  ) {
    return String(BigInt(value));
  }
  throw new GraphQLError('Seq must be a decimal integer string from 0 to 9223372036854775807');
}

builder.queryType({ description: 'Reads. Scope comes from the credential, never from arguments.' });
builder.mutationType({
  description: 'Governed writes: each validates fully, then writes in one transaction.',
});
builder.subscriptionType({
  description:
    'Live streams. Each re-reads the tables from its cursor: none skips or repeats an item.',
});
