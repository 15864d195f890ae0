import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoDir = fileURLToPath(new URL('../..', import.meta.url));
const built = join(repoDir, 'packages/server/dist/cli.js');
/** The packages the bin loads from their builds when it runs as its own process. */
const PACKAGES = ['core', 'store-sql', 'store-sqlite', 'store-postgres', 'http', 'mcp', 'server'];

/** The newest change to a source the build holds; tests are not built, so editing one rebuilds nothing. */
function newestSource(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return path.endsWith('.test.ts') ? 0 : stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestSource(join(path, name))));
}

/**
 * Builds the server and what it loads before the tests when `dist/cli.js` is missing or older than
 * their sources: the bin tests run `flagstaff` as its own process, which loads the builds (a fresh
 * clone runs `npm test` right after `npm install`).
 */
export default function setup(): void {
  const newest = Math.max(...PACKAGES.map((p) => newestSource(join(repoDir, 'packages', p, 'src'))));
  if (existsSync(built) && statSync(built).mtimeMs >= newest) return;
  const workspaces = PACKAGES.flatMap((p) => ['--workspace', `@flagstaff/${p}`]);
  execFileSync('npm', ['run', 'build', ...workspaces], { cwd: repoDir, stdio: 'inherit' });
}
