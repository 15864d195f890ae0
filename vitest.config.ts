import { defineConfig } from 'vitest/config';

// Tests run against package sources (the "source" export condition), so no build is needed first.
// Only "source" is added for Node-resolved (external) packages: passing "import" there would make
// CommonJS packages such as Express's router load ESM builds of their own dependencies.
export default defineConfig({
  resolve: { conditions: ['source', 'module', 'node', 'import', 'default'] },
  ssr: { resolve: { conditions: ['source', 'node', 'default'], externalConditions: ['source'] } },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'examples/*/src/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
