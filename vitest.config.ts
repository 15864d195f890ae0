import { defineConfig } from 'vitest/config';
import type { Reporter } from 'vitest/node';

/** Ends the run with the plain `N passed, N failed, N skipped` line CI tools read. */
const summaryLine: Reporter = {
  onTestRunEnd(testModules) {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed++;
        else if (state === 'failed') counts.failed++;
        else counts.skipped++;
      }
    }
    console.log(`\n${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
  },
};

// Tests run against package sources (the "source" export condition), so no build is needed first.
// Only "source" is added for Node-resolved (external) packages: passing "import" there would make
// CommonJS packages such as Express's router load ESM builds of their own dependencies.
export default defineConfig({
  resolve: { conditions: ['source', 'module', 'node', 'import', 'default'] },
  ssr: { resolve: { conditions: ['source', 'node', 'default'], externalConditions: ['source'] } },
  test: {
    // Builds the admin UI for its browser tests when dist is missing or stale (a no-op otherwise).
    globalSetup: ['packages/admin-ui/e2e/global-setup.ts', 'packages/server/build-for-tests.ts'],
    reporters: ['default', summaryLine],
    // eventsource-parser (under the MCP SDK's HTTP client) exports TypeScript sources under "source":
    // Node cannot load those, so Vite transforms the SDK and it instead of leaving them to Node.
    server: { deps: { inline: [/@modelcontextprotocol\/sdk/, 'eventsource-parser'] } },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The HTTP suite runs once per adapter: the framework-neutral handler is the same, what each adapter
    // does with requests and responses (bodies, streams, mounting, errors) is not.
    projects: [
      {
        extends: true,
        test: {
          name: 'all',
          include: [
            'packages/*/src/**/*.test.ts',
            'examples/*/src/**/*.test.ts',
            'packages/admin-ui/e2e/**/*.test.ts',
          ],
        },
      },
      ...(['express', 'fetch'] as const).map((adapter) => ({
        extends: true as const,
        test: {
          name: `http via ${adapter}`,
          include: ['packages/http/src/**/*.test.ts'],
          // The real-SDK tests run their own node:http server: once (in `all`) is enough.
          exclude: ['packages/http/src/sdk-modes.test.ts', 'packages/http/src/sdk-stream-resilience.test.ts'],
          env: { FLAGSTAFF_TEST_ADAPTER: adapter },
        },
      })),
    ],
  },
});
