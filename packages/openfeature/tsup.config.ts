import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  dts: true,
  clean: true,
  target: 'node20',
  external: ['@flagstaff/core', '@openfeature/server-sdk', '@openfeature/core'],
});
