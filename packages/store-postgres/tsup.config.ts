import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  dts: true,
  clean: true,
  target: 'node20',
  // An optional peer, imported dynamically only by pgliteStore(); never bundle it.
  external: ['@electric-sql/pglite'],
});
