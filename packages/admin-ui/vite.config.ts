import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
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

const EARLY_ANSWERS = 'src/app/early-answers.ts';

/**
 * `early-answers.ts` is its own entry, run by a script tag ahead of the app's: a few hundred bytes that
 * start the opened page's requests while the app's code (~300 KB) still downloads and runs. (A second
 * script in index.html would not do: Vite bundles the page's scripts into one entry.) The app imports
 * the same chunk, so both share its answers.
 */
function earlyAnswersScript(): Plugin {
  return {
    name: 'flagstaff:early-answers',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const chunks = Object.values(ctx.bundle ?? {}).filter(
          (c) => c.type === 'chunk' && c.isEntry && c.facadeModuleId?.endsWith(`/${EARLY_ANSWERS}`),
        );
        if (chunks.length !== 1) throw new Error(`expected one chunk for ${EARLY_ANSWERS}`);
        return chunks.map((c) => ({
          tag: 'script',
          attrs: { type: 'module', crossorigin: true, src: `./${c.fileName}` },
          injectTo: 'head-prepend' as const,
        }));
      },
    },
  };
}

const PAGES_MODULE = 'src/app/pages.ts';

/**
 * For `early-answers.ts`: each page's code (its chunk and the chunks it imports, less those index.html
 * already loads), by route, as a JSON data block in index.html, so that the opened page's code is
 * fetched at once, not once the app's entry has run and asked for it. The routes are read from
 * `pages.ts` (`'path': () => import('module')`); one whose chunk is not found fails the build.
 */
function pageCodeMap(): Plugin {
  return {
    name: 'flagstaff:page-code-map',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, ctx) {
        const chunks = Object.values(ctx.bundle ?? {}).filter((c) => c.type === 'chunk');
        const byFile = new Map(chunks.map((c) => [c.fileName, c]));
        const closure = (files: readonly string[], into = new Set<string>()): Set<string> => {
          for (const f of files) {
            if (into.has(f)) continue;
            into.add(f);
            closure(byFile.get(f)?.imports ?? [], into);
          }
          return into;
        };
        const loaded = closure(chunks.filter((c) => c.isEntry).map((c) => c.fileName));
        const pagesFile = resolve(import.meta.dirname, PAGES_MODULE);
        const source = readFileSync(pagesFile, 'utf8');
        const map: Record<string, string[]> = {};
        for (const [, quoted, bare, module] of source.matchAll(
          /^\s*(?:'([^']+)'|([\w-]+)):\s*\(\)\s*=>\s*import\('([^']+)'\)/gm,
        )) {
          const route = (quoted ?? bare) as string;
          const id = resolve(dirname(pagesFile), module as string);
          const chunk = chunks.find((c) => c.facadeModuleId?.replace(/\.tsx?$/, '') === id);
          if (!chunk) throw new Error(`no chunk for ${route} (${module}) in ${PAGES_MODULE}`);
          if (route === '*') continue;
          map[route] = [...closure([chunk.fileName])].filter((f) => !loaded.has(f)).map((f) => `./${f}`);
        }
        if (Object.keys(map).length < 10) throw new Error(`few routes read from ${PAGES_MODULE}`);
        return [
          {
            tag: 'script',
            attrs: { type: 'application/json', id: 'page-code' },
            children: JSON.stringify(map),
            injectTo: 'head-prepend' as const,
          },
        ];
      },
    },
  };
}

const devApi = process.env.FLAGSTAFF_DEV_API ?? 'http://127.0.0.1:4243';

// `base: './'`: the server mounts the app at `<mount>/ui/` and injects a matching <base href>.
export default defineConfig({
  base: './',
  plugins: [react(), completeNotices(), preloadRouter(), pageCodeMap(), earlyAnswersScript()],
  // "source" lets the browser bundle use @flagstaff/core's domain schemas without building core first.
  resolve: { conditions: ['source', ...defaultClientConditions] },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 600,
    // The bundle holds React, Radix, recharts…: their licences and notices ship beside it.
    license: { fileName: NOTICES },
    rolldownOptions: {
      input: { index: 'index.html', 'early-answers': EARLY_ANSWERS },
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
