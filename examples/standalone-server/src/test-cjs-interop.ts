import { createRequire, Module } from 'node:module';
import { dirname } from 'node:path';

/**
 * The root vitest config runs Node with `--conditions import`, so Express's router, which does
 * `require('is-promise')`, gets that package's ESM build as a namespace object instead of a
 * function and every async handler fails. Until the config stops passing `import` as a Node
 * condition, pin the CommonJS build under the path the ESM build resolves to. A no-op elsewhere.
 */
function pinCommonJsIsPromise(): void {
  const require = createRequire(import.meta.url);
  const routerDir = dirname(require.resolve('router'));
  const resolved = require.resolve('is-promise', { paths: [routerDir] });
  if (!resolved.endsWith('.mjs')) return;
  const cjs = require(resolved.replace(/\.mjs$/, '.js')) as unknown;
  if (typeof cjs !== 'function') return;
  const pinned = new Module(resolved);
  pinned.exports = cjs;
  pinned.loaded = true;
  require.cache[resolved] = pinned;
}

pinCommonJsIsPromise();
