/**
 * Two small pieces every domain's graphql.ts uses; they hold no domain types.
 */

/** Enum values with a description each, from an `as const` list and a description per value. */
export const describeValues = <T extends string>(
  values: readonly T[],
  descriptions: Record<T, string>,
) =>
  Object.fromEntries(values.map((v) => [v, { description: descriptions[v] }])) as Record<
    T,
    { description: string }
  >;

/** resolveType for union results: each service result carries its GraphQL type name in `type`. */
export const byType = (value: unknown) => (value as { type: string }).type;
