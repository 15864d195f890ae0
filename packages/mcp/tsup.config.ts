import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', 'testing/index': 'src/testing/index.ts' },
  format: ['esm'],
  dts: true,
  clean: true,
  target: 'node20',
  external: ['@flagstaff/core', '@modelcontextprotocol/sdk', 'zod', 'vitest'],
});
