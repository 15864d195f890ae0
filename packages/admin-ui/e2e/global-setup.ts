import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_PACKAGE } from '../scripts/generate-api.mjs';

const packageDir = fileURLToPath(new URL('..', import.meta.url));
const repoDir = join(packageDir, '..', '..');
const built = join(packageDir, 'dist', 'index.html');

function newestSource(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestSource(join(path, name))));
}

const npm = (args: string[], cwd: string) =>
  // Vitest runs with NODE_ENV=test, which would make Vite bundle React's development build.
  execFileSync('npm', args, { cwd, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });

/**
 * Builds the admin UI once before the browser tests when `dist` is missing or older than its
 * sources (a fresh clone runs `npm test` right after `npm install`). Its generator imports the
 * route table from the server package's build, so that is built first when the generator fails.
 */
export default function setup(): void {
  const sources = ['src', 'index.html', 'vite.config.ts', 'scripts'].map((p) => join(packageDir, p));
  const fresh = existsSync(built) && statSync(built).mtimeMs >= Math.max(...sources.map(newestSource));
  if (fresh) return;
  try {
    npm(['run', 'build'], packageDir);
  } catch {
    npm(['run', 'build', '--workspace', '@flagstaff/core', '--workspace', SERVER_PACKAGE], repoDir);
    npm(['run', 'build'], packageDir);
  }
}
