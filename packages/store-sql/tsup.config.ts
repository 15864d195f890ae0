import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/index.ts'],
  format: ['esm'],
  // Type declarations are for publishing; `npm start` and the tests build JavaScript only.
  dts: !process.env.FLAGSTAFF_SKIP_DTS,
  clean: true,
  target: 'node20',
});
