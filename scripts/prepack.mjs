#!/usr/bin/env node
// Each published package's `prepack` (run by `npm pack` and `npm publish` in the package directory):
// copies the repository's LICENSE into the package, which npm then packs, and refuses to pack a
// package whose exports or bin point at files the build has not written. Publishing also needs the
// type declarations, which only `npm run build` writes (not the JavaScript-only builds of `npm start`).
import { copyFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = process.cwd();
const repoDir = fileURLToPath(new URL('..', import.meta.url));
const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
const publishing = process.env.npm_command === 'publish';

copyFileSync(join(repoDir, 'LICENSE'), join(packageDir, 'LICENSE'));

const targets = [];
const walk = (entry, condition) => {
  if (typeof entry === 'string') {
    if (condition === 'import' || (condition === 'types' && publishing)) targets.push(entry);
  } else if (entry && typeof entry === 'object')
    for (const [key, value] of Object.entries(entry)) walk(value, key.startsWith('.') ? condition : key);
};
walk(manifest.exports, 'import');
targets.push(...Object.values(manifest.bin ?? {}));
const missing = targets.filter((target) => !existsSync(join(packageDir, target)));
if (missing.length > 0) {
  process.stderr.write(
    `${manifest.name}: ${missing.join(', ')} missing: run \`npm run build\` at the repository root first\n`,
  );
  process.exit(1);
}
