import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  // Type declarations are for publishing; `npm start` and the tests build JavaScript only.
  dts: !process.env.FLAGSTAFF_SKIP_DTS,
  clean: true,
  target: 'node20',
  // zod comes with @flagstaff/core: the route schemas must be the same zod as core's, never a bundled copy.
  external: ['zod'],
});
