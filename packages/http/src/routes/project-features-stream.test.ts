import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SYSTEM } from '@flagstaff/core';
import { sqliteStore } from '@flagstaff/store-sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody, testAdapter } from '../testing/harness.js';
import { type SdkTestServer, startSdkServer } from '../testing/sdk-server.js';

const F = '/api/admin/projects/default/features';
/** More than two pages of the streamed list (1,000 features each). */
const FEATURES = 2_345;
const dir = mkdtempSync(join(tmpdir(), 'flagstaff-project-features-stream-'));
let s: SdkTestServer;

beforeAll(async () => {
  const store = await sqliteStore({ filename: join(dir, 'stream.db') });
  const environments = (await store.environments.listForProject('default')).map((e) => e.environment);
  const createdAt = new Date(Date.UTC(2026, 0, 1)).toISOString();
  await store.transaction(async (tx) => {
    for (let i = 0; i < FEATURES; i++)
      await tx.features.insert(
        {
          name: `bulk-${String(i).padStart(4, '0')}`,
          project: 'default',
          type: 'release',
          description: i % 7 === 0 ? `Bulk "${i}"` : null,
          stale: i % 11 === 0,
          impressionData: false,
          createdAt,
          archivedAt: null,
          createdByUserId: null,
          lifecycle: { stage: 'initial', enteredStageAt: createdAt },
        },
        environments,
      );
  });
  s = await startSdkServer(store);
  // A few made through the API: strategies, variants, tags, a dependency and an archived one.
  await s.request('POST', F, { body: { name: 'api-parent', description: 'ünïcode ✓' } });
  await s.request('POST', F, { body: { name: 'api-child', tags: [{ type: 'simple', value: 'web' }] } });
  await s.request('POST', `${F}/api-child/dependencies`, { body: { feature: 'api-parent' } });
  await s.request('POST', `${F}/api-parent/environments/development/strategies`, {
    body: { name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'default', groupId: 'g' } },
  });
  await s.request('PUT', `${F}/api-parent/environments/development/variants`, {
    body: [{ name: 'blue', weight: 1000, weightType: 'variable', stickiness: 'default' }],
  });
  await s.request('POST', F, { body: { name: 'api-gone' } });
  await s.request('DELETE', `${F}/api-gone`);
}, 120_000);
afterAll(async () => {
  await s?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(testAdapter() !== 'node')('GET /api/admin/projects/:projectId/features, streamed', () => {
  it('is byte for byte the document built whole, across pages', async () => {
    const res = await fetch(`${s.base}${F}`, { headers: { authorization: s.adminToken } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    const text = await res.text();
    const whole = JSON.stringify({
      version: 2,
      features: await s.flagstaff.features.list(SYSTEM, 'default'),
    });
    expect(text).toBe(whole);
    const body = JSON.parse(text) as { features: { name: string }[] };
    expect(body.features).toHaveLength(FEATURES + 2);
    expect(body.features.map((f) => f.name)).not.toContain('api-gone');
    expect(body.features.find((f) => f.name === 'api-parent')).toMatchObject({
      description: 'ünïcode ✓',
      environments: expect.arrayContaining([
        expect.objectContaining({ name: 'development', variantCount: 1 }),
      ]),
    });
  });

  it('an empty project is an empty list; an unknown one a 404 error body, not a stream', async () => {
    await s.request('POST', '/api/admin/projects', { body: { id: 'empty', name: 'Empty' } });
    const empty = await s.request('GET', '/api/admin/projects/empty/features');
    expect(empty.status).toBe(200);
    expect(empty.text).toBe('{"version":2,"features":[]}');
    const unknown = await s.request('GET', '/api/admin/projects/nope/features');
    expect(unknown.status).toBe(404);
    expect(errorBody(unknown).name).toBe('NotFoundError');
  });
});
