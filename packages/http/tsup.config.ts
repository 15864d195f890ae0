import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  dts: true,
  clean: true,
  target: 'node20',
  // zod comes with @flagstaff/core: the route schemas must be the same zod as core's, never a bundled copy.
  external: ['zod'],
});
