import type { CodegenConfig } from '@graphql-codegen/cli';

/**
 * Types for the client's operations, generated from the printed schema (never hand-written).
 * Each enum the operations use is an `as const` object of its values beside its type
 * (`enumType: 'const'`): the CLI and the MCP server offer the values from there.
 * `npm run codegen` rewrites src/client/generated/; `npm run codegen:check` fails when it is stale.
 */
const config: CodegenConfig = {
  schema: 'schema/schema.graphql',
  documents: ['src/client/operations/*.graphql'],
  ignoreNoDocuments: false,
  emitLegacyCommonJSImports: false,
  generates: {
    'src/client/generated/': {
      preset: 'client',
      presetConfig: { fragmentMasking: false, gqlTagName: 'graphql' },
      config: {
        documentMode: 'string',
        enumType: 'const',
        useTypeImports: true,
        scalars: { DateTime: 'string', Seq: 'string' },
        skipTypename: false,
      },
    },
  },
};

export default config;
