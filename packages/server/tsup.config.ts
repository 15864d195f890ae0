import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/main.ts', 'src/cli.ts', 'src/index.ts'],
  format: ['esm'],
  // Type declarations are for publishing; `npm start` and the tests build JavaScript only.
  dts: process.env.FLAGSTAFF_SKIP_DTS ? false : { entry: 'src/index.ts' },
  clean: true,
  target: 'node20',
});
