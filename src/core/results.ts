import type { ScopeGap } from './scope.ts';

/**
 * Expected outcomes are values, not errors: each carries its GraphQL type name in `type`, so a
 * union field resolves it without guessing (docs/architecture.md, "Typed outcomes").
 */
export type Tagged<T extends string, V> = V & { readonly type: T };

export const tag = <T extends string, V extends object>(type: T, value: V): Tagged<T, V> => ({
  ...value,
  type,
});

/** A goal's rows, or none and the scope gap that explains why. */
export type Listing<T> =
  | { readonly goalId: string; readonly rows: T[]; readonly scopeGap: null }
  | { readonly goalId: string; readonly rows: []; readonly scopeGap: ScopeGap };
