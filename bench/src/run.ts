// Runs every benchmark suite (`bench/src/suites/*.ts`, each with a default async export) in name
// order, or only those whose file name contains one of the arguments: `npm run bench -- events`. An
// argument that names a suite exactly runs that suite alone (`scale`, not also `admin-reads-scale`).
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const dir = join(dirname(fileURLToPath(import.meta.url)), 'suites');
const filters = process.argv.slice(2);
const suites = readdirSync(dir).filter((f) => f.endsWith('.ts'));
const names = new Set(suites.map((f) => f.replace(/\.ts$/, '')));
const picks = (f: string, x: string): boolean => (names.has(x) ? f === `${x}.ts` : f.includes(x));
const files = suites.filter((f) => filters.length === 0 || filters.some((x) => picks(f, x))).sort();

for (const file of files) {
  console.log(`\n=== ${file.replace(/\.ts$/, '')} ===`);
  const mod = (await import(pathToFileURL(join(dir, file)).href)) as { default: () => Promise<void> };
  await mod.default();
}
