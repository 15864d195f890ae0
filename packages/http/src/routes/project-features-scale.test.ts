import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sqliteStore } from '@flagstaff/store-sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testAdapter } from '../testing/harness.js';
import { type SdkTestServer, startSdkServer } from '../testing/sdk-server.js';

const ADMIN = `*:*.${'5e'.repeat(32)}`;
/** More features than SQLite binds variables in one statement (32,766), were each name bound alone. */
const FEATURES = 40_000;
const dir = mkdtempSync(join(tmpdir(), 'flagstaff-project-features-scale-'));
let s: SdkTestServer;

beforeAll(async () => {
  const store = await sqliteStore({ filename: join(dir, 'scale.db') });
  const environments = (await store.environments.listForProject('default')).map((e) => e.environment);
  // Seeded through the store in one transaction: 40,000 API calls would take minutes.
  await store.transaction(async (tx) => {
    const createdAt = new Date(Date.UTC(2026, 0, 1)).toISOString();
    for (let i = 0; i < FEATURES; i++) {
      await tx.features.insert(
        {
          name: `feature-${String(i).padStart(5, '0')}`,
          project: 'default',
          type: 'release',
          description: null,
          stale: false,
          impressionData: false,
          createdAt,
          archivedAt: null,
          createdByUserId: null,
          lifecycle: { stage: 'initial', enteredStageAt: createdAt },
        },
        environments,
      );
    }
  });
  s = await startSdkServer(store, { adminToken: ADMIN });
}, 120_000);
afterAll(async () => {
  await s?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(testAdapter() !== 'node')(`a project with ${FEATURES} features on SQLite`, () => {
  it('GET /api/admin/projects/default/features lists them all (not 500 "too many SQL variables")', async () => {
    const res = await s.request('GET', '/api/admin/projects/default/features');
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    const body = res.body as { features: { name: string }[] };
    expect(body.features).toHaveLength(FEATURES);
    expect(body.features.at(-1)?.name).toBe('feature-39999');
  }, 60_000);
});
