import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', 'testing/index': 'src/testing/index.ts' },
  format: ['esm'],
  // Type declarations are for publishing; `npm start` and the tests build JavaScript only.
  dts: !process.env.FLAGSTAFF_SKIP_DTS,
  clean: true,
  target: 'node20',
  external: ['@flagstaff/core', '@modelcontextprotocol/sdk', 'zod', 'vitest'],
});
