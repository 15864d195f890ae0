import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoDir = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Builds (JavaScript only) the packages whose build is missing or older than their sources before the
 * tests: the bin tests run `flagstaff` as its own process, which loads the builds, and the pack test
 * packs every package. A no-op when nothing changed since `npm install` built them.
 */
export default function setup(): void {
  execFileSync(process.execPath, [join(repoDir, 'scripts/build-stale.mjs')], {
    cwd: repoDir,
    stdio: 'inherit',
  });
}
