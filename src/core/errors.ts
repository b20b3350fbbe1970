/**
 * Errors a service throws for requests that must not proceed. They are not expected
 * outcomes (those are typed values); the server maps each to its GraphQL error code, and
 * masks everything else.
 */
export class InputError extends Error {
  override name = 'InputError';
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/** The caller's kind may never perform this operation. */
export class ForbiddenError extends Error {
  override name = 'ForbiddenError';
}

/** No credential, or one that does not stand: unknown, revoked, expired, or a retired agent's. */
export class UnauthenticatedError extends Error {
  override name = 'UnauthenticatedError';
}
