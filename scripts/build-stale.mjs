#!/usr/bin/env node
// Builds the workspace packages whose build is missing or older than their sources, JavaScript only
// (type declarations are for publishing: `npm run build` makes them). `npm install` runs it (the root
// `prepare` script), `npm start` runs it before starting the server, and so do the tests' global setup;
// when nothing changed it only compares file times.
//
//   node scripts/build-stale.mjs [package…]   (names without the @flagstaff/ scope; default: all)
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repoDir = fileURLToPath(new URL('..', import.meta.url));

const TSUP_INPUTS = ['src', 'package.json', 'tsup.config.ts'];

/**
 * The packages with a build, in build order. `inputs` are what the build reads (tests excluded),
 * relative to the package or, when they start with `packages/`, to the repository; `outputs` what it
 * writes (default: the `import` targets of the package's exports).
 */
const PACKAGES = [
  { name: 'core' },
  { name: 'store-sql' },
  { name: 'store-sqlite' },
  { name: 'store-postgres' },
  { name: 'http' },
  { name: 'http-express' },
  {
    // Bundles core's sources; its API client is generated from http's route table (http's build).
    name: 'admin-ui',
    inputs: [
      'src',
      'index.html',
      'vite.config.ts',
      'scripts',
      'package.json',
      'packages/core/src',
      'packages/http/src',
    ],
    outputs: ['dist/index.html'],
  },
  { name: 'openfeature' },
  { name: 'mcp' },
  { name: 'server', extraOutputs: ['dist/main.js', 'dist/cli.js'] },
];

const isTest = (path) => /\.test\.tsx?$/.test(path);

/** The newest modification time under `path` (0 when missing); tests are not built, so they do not count. */
function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return isTest(path) ? 0 : stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

/** The files a package's `exports` resolve to under the `import` condition. */
function importTargets(manifest) {
  const targets = [];
  const walk = (entry) => {
    if (typeof entry === 'string') targets.push(entry);
    else if (entry && typeof entry === 'object')
      for (const [condition, value] of Object.entries(entry))
        if (condition === 'import' || condition.startsWith('.')) walk(value);
  };
  walk(manifest.exports);
  return targets;
}

function isStale(pkg) {
  const dir = join(repoDir, 'packages', pkg.name);
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const outputs = (pkg.outputs ?? [...importTargets(manifest), ...(pkg.extraOutputs ?? [])]).map((p) =>
    join(dir, p),
  );
  if (outputs.some((p) => !existsSync(p))) return true;
  const built = Math.min(...outputs.map((p) => statSync(p).mtimeMs));
  const inputs = (pkg.inputs ?? TSUP_INPUTS).map((p) =>
    p.startsWith('packages/') ? join(repoDir, p) : join(dir, p),
  );
  return Math.max(...inputs.map(newest)) > built;
}

/** Builds the stale ones among `names` (default: every package); returns the names it built. */
export function buildStale(names = PACKAGES.map((p) => p.name)) {
  const unknown = names.filter((n) => !PACKAGES.some((p) => p.name === n));
  if (unknown.length > 0) throw new Error(`build-stale: no such package: ${unknown.join(', ')}`);
  const stale = PACKAGES.filter((p) => names.includes(p.name) && isStale(p)).map((p) => p.name);
  if (stale.length === 0) return stale;
  process.stderr.write(`flagstaff: building ${stale.join(', ')} (JavaScript only)\n`);
  execFileSync('npm', ['run', 'build', ...stale.flatMap((n) => ['--workspace', `@flagstaff/${n}`])], {
    cwd: repoDir,
    stdio: 'inherit',
    // NODE_ENV: under vitest it is `test`, which would make Vite bundle React's development build.
    env: { ...process.env, FLAGSTAFF_SKIP_DTS: '1', NODE_ENV: 'production' },
  });
  return stale;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href)
  buildStale(process.argv.slice(2).length > 0 ? process.argv.slice(2) : undefined);
