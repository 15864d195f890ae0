import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { allRoutes } from './routes/index.js';

// docs/api.md (its last section) lists the reference's operations and which are served: every row it
// marks served must be a route here, and every route at a reference path must be marked served.
const doc = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '../../../docs/api.md'), 'utf8');
const rows = [
  ...doc.matchAll(/^\| (GET|POST|PUT|PATCH|DELETE) \| `([^`]+)` \| (\w+) \| (yes|no — .+) \|$/gm),
].map((m) => ({
  method: (m[1] ?? '').toLowerCase(),
  path: m[2] ?? '',
  operation: m[3] ?? '',
  served: m[4] === 'yes',
}));
/** A path with its parameters' names left out: `/a/{id}` and `/a/:name` are the same route. */
const shape = (path: string) => path.replace(/\{[^}]+\}|:[A-Za-z]+/g, '{}');
const routes = new Set(allRoutes().map((r) => `${r.method} ${shape(r.path)}`));

describe('the reference-operations table of docs/api.md', () => {
  it('lists the 214 reference operations', () => {
    expect(rows).toHaveLength(214);
  });

  it('marks served exactly the operations the route table holds', () => {
    const wrong = rows
      .filter((r) => r.served !== routes.has(`${r.method} ${shape(r.path)}`))
      .map(
        (r) =>
          `${r.method} ${r.path} (${r.operation}) is marked ${r.served ? 'served but has no route' : 'not served but has a route'}`,
      );
    expect(wrong).toEqual([]);
    const served = rows.filter((r) => r.served).length;
    expect(doc).toContain(`**${served}** of them`);
  });
});
