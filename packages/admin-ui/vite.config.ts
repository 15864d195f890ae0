import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';

const devApi = process.env.FLAGSTAFF_DEV_API ?? 'http://127.0.0.1:4243';

// `base: './'`: the server mounts the app at `<mount>/ui/` and injects a matching <base href>.
export default defineConfig({
  base: './',
  plugins: [react()],
  // "source" lets the browser bundle use @flagstaff/core's domain schemas without building core first.
  resolve: { conditions: ['source', ...defaultClientConditions] },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      // Core's modules only declare things, so what the UI does not import (services using
      // node:crypto) is dropped; the UI uses its domain schemas only.
      treeshake: { moduleSideEffects: (id: string) => !id.includes('/packages/core/src/') },
      // ...so the resolver's note that core's services import node:crypto is noise here.
      onLog(level, log, handler) {
        if (
          log.message.includes('externalized for browser compatibility') &&
          log.message.includes('/packages/core/src/')
        )
          return;
        handler(level, log);
      },
    },
  },
  server: {
    proxy: { '/api': devApi, '/auth': devApi, '/logout': devApi },
  },
});
