/**
 * What can go wrong talking to a gateway, as a kind a caller can branch on. Expected outcomes
 * (refusals, scope gaps, timeouts) are not errors: they come back as typed values.
 */
export const ClientErrorKind = {
  /** No answer: the gateway is not running there, or the network failed. */
  UNREACHABLE: 'UNREACHABLE',
  /** No, bad or revoked credential (HTTP 401, socket close 4401/4403). */
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  /** The credential's kind may never perform this operation. */
  FORBIDDEN: 'FORBIDDEN',
  /** The gateway refused the input (BAD_USER_INPUT, GraphQL validation). */
  BAD_USER_INPUT: 'BAD_USER_INPUT',
  /** The gateway answered with something else: an unexpected (masked) error or a bad status. */
  SERVER: 'SERVER',
} as const;
export type ClientErrorKind = (typeof ClientErrorKind)[keyof typeof ClientErrorKind];

export interface GraphQLErrorShape {
  message: string;
  path?: readonly (string | number)[];
  extensions?: { code?: string; [key: string]: unknown };
}

/** A failure of the transport or of the request, never carrying the credential. */
export class ClientError extends Error {
  override readonly name = 'ClientError';
  constructor(
    readonly kind: ClientErrorKind,
    message: string,
    readonly details: {
      status?: number;
      errors?: readonly GraphQLErrorShape[];
      cause?: unknown;
    } = {},
  ) {
    super(message);
  }
}

/** Classifies GraphQL errors of an answer by their `extensions.code`. */
export function errorFromGraphQL(
  errors: readonly GraphQLErrorShape[],
  status?: number,
): ClientError {
  const codes = errors.map((error) => error.extensions?.code);
  const message = errors.map((error) => error.message).join('; ');
  const details = { status, errors };
  if (codes.includes('UNAUTHENTICATED') || status === 401)
    return new ClientError(ClientErrorKind.UNAUTHENTICATED, message, details);
  if (codes.includes('FORBIDDEN') || status === 403)
    return new ClientError(ClientErrorKind.FORBIDDEN, message, details);
  if (
    codes.includes('BAD_USER_INPUT') ||
    codes.includes('GRAPHQL_VALIDATION_FAILED') ||
    codes.includes('GRAPHQL_PARSE_FAILED')
  )
    return new ClientError(ClientErrorKind.BAD_USER_INPUT, message, details);
  return new ClientError(ClientErrorKind.SERVER, message, details);
}
