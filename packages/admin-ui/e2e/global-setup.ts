import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const built = join(packageDir, 'dist', 'index.html');

function newestSource(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestSource(join(path, name))));
}

/** Builds the admin UI once before the browser tests when `dist` is missing or older than its sources. */
export default async function setup(): Promise<void> {
  const sources = ['src', 'index.html', 'vite.config.ts', 'scripts'].map((p) => join(packageDir, p));
  const fresh = existsSync(built) && statSync(built).mtimeMs >= Math.max(...sources.map(newestSource));
  if (fresh) return;
  const { generateApi } = await import('../scripts/generate-api.mjs');
  await generateApi();
  const { build } = await import('vite');
  // Vitest runs with NODE_ENV=test, which would make Vite bundle React's development build.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      root: packageDir,
      configFile: join(packageDir, 'vite.config.ts'),
      mode: 'production',
      logLevel: 'error',
    });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
}
