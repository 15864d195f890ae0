import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    'testing/index': 'src/testing/index.ts',
    'testing/flag-set': 'src/testing/flag-set.ts',
  },
  format: ['esm'],
  dts: true,
  clean: true,
  target: 'node20',
  external: ['vitest'],
});
