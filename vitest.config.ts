import { createRequire } from 'node:module';
import { defineConfig } from 'vitest/config';

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // graphql 16 ships CJS (main) and ESM (module) builds. Node loads the CJS one for Yoga and
    // Pothos; without this alias Vite would hand our sources the ESM one, and two copies of
    // GraphQLError would fail each other's instanceof checks.
    alias: [{ find: /^graphql$/, replacement: require.resolve('graphql') }],
  },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts', 'test/support/cli-build.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    retry: 0,
    // graphql-ws checks errors with instanceof: it must load the same graphql copy as the code.
    server: { deps: { inline: ['graphql-ws'] } },
  },
});
