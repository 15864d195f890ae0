// Test-only. The root vitest config hands its resolve conditions, `import` included, to Node as
// `--conditions`, so `require('pg-pool')` inside pg resolves to pg-pool's ESM build and pg fails to
// load ("Class extends value [object Module]"). Until that config changes, register pg-pool's
// CommonJS build under the path Node resolves to; import this module before anything imports pg.
import Module, { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const resolved = require.resolve('pg-pool');
if (resolved.endsWith('.mjs')) {
  const cjsPath = join(dirname(resolved), '..', 'index.js');
  const entry = new Module(resolved);
  entry.exports = require(cjsPath);
  entry.filename = resolved;
  entry.loaded = true;
  require.cache[resolved] = entry;
}
