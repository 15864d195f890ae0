import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig, type Plugin } from 'vite';

const NOTICES = 'THIRD_PARTY_NOTICES.md';

/**
 * Vite's licence file copies each bundled package's LICENSE; a package that ships none (its
 * package.json only says "MIT") gets the MIT text with the author it names, so its notice is kept too.
 */
function completeNotices(): Plugin {
  const require = createRequire(import.meta.url);
  const authorOf = (name: string): string | undefined => {
    try {
      const { author } = require(`${name}/package.json`) as { author?: string | { name: string } };
      return typeof author === 'object' ? author.name : author;
    } catch {
      return undefined; // a package whose exports hide package.json
    }
  };
  return {
    name: 'flagstaff:complete-notices',
    apply: 'build',
    writeBundle(options) {
      const file = join(options.dir ?? 'dist', NOTICES);
      const sections = readFileSync(file, 'utf8').split(/\n(?=## )/);
      const completed = sections.map((section) => {
        const name = /^## (\S+) - \S+ \(MIT\)\n*$/.exec(section)?.[1];
        if (!name) return section;
        return `${section.trimEnd()}\n\n${mitText(authorOf(name) ?? `the ${name} authors`)}\n`;
      });
      writeFileSync(file, completed.join('\n'));
    },
  };
}

const mitText = (holder: string) => `MIT License

Copyright (c) ${holder}

Permission is hereby granted, free of charge, to any person obtaining a copy of this software and
associated documentation files (the "Software"), to deal in the Software without restriction,
including without limitation the rights to use, copy, modify, merge, publish, distribute, sublicense,
and/or sell copies of the Software, and to permit persons to whom the Software is furnished to do so,
subject to the following conditions:

The above copyright notice and this permission notice shall be included in all copies or substantial
portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT
LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN
NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY,
WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE
SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.`;

/**
 * The router's chunk is imported (dynamically) by the entry as soon as it runs, and every signed-in
 * page needs it: a `modulepreload` link lets the browser fetch and compile it while the entry chunk
 * (React, TanStack Query) is still evaluating, rather than after, one step off the first row's path.
 */
function preloadRouter(): Plugin {
  return {
    name: 'flagstaff:preload-router',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const chunks = Object.values(ctx.bundle ?? {}).filter(
          (c) => c.type === 'chunk' && c.facadeModuleId?.endsWith('/src/app/router.tsx'),
        );
        return chunks.map((c) => ({
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: true, href: `./${c.fileName}` },
          injectTo: 'head' as const,
        }));
      },
    },
  };
}

const devApi = process.env.FLAGSTAFF_DEV_API ?? 'http://127.0.0.1:4243';

// `base: './'`: the server mounts the app at `<mount>/ui/` and injects a matching <base href>.
export default defineConfig({
  base: './',
  plugins: [react(), completeNotices(), preloadRouter()],
  // "source" lets the browser bundle use @flagstaff/core's domain schemas without building core first.
  resolve: { conditions: ['source', ...defaultClientConditions] },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 600,
    // The bundle holds React, Radix, recharts…: their licences and notices ship beside it.
    license: { fileName: NOTICES },
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
