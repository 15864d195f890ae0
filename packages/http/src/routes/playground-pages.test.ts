import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SYSTEM } from '@flagstaff/core';
import { sqliteStore } from '@flagstaff/store-sqlite';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { errorBody, startTestServer, type TestServer, testAdapter } from '../testing/harness.js';
import { type SdkTestServer, startSdkServer } from '../testing/sdk-server.js';

const P = '/api/admin/playground';
const context = { appName: 'web', userId: '7' };

describe('POST /api/admin/playground: name filter, paging, projects', () => {
  let s: TestServer;
  beforeEach(async () => {
    s = await startTestServer();
    await s.request('POST', '/api/admin/projects', { body: { id: 'other', name: 'Other' } });
    for (const name of ['alpha', 'Beta-one', 'beta-two', 'gamma', 'delta'])
      await s.request('POST', '/api/admin/projects/default/features', { body: { name } });
    await s.request('POST', '/api/admin/projects/other/features', { body: { name: 'other-beta' } });
  });
  afterEach(() => s.close());

  const names = (body: { features: { name: string }[] }) => body.features.map((f) => f.name);
  const play = (extra: Record<string, unknown>) =>
    s.request('POST', P, { body: { environment: 'development', context, ...extra } });

  it('without the new fields answers every feature, with no total (as before)', async () => {
    const res = await play({});
    expect(res.status, res.text).toBe(200);
    expect(names(res.body)).toHaveLength(6);
    expect(res.body).not.toHaveProperty('total');
    expect(Object.keys(res.body)).toEqual(['input', 'features']);
  });

  it('pages with offset and limit in the order of the whole answer, with the total', async () => {
    const all = names((await play({ projects: ['default'] })).body);
    expect(all).toHaveLength(5);
    const first = await play({ projects: ['default'], limit: 2 });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ total: 5, input: { limit: 2 } });
    expect(names(first.body)).toEqual(all.slice(0, 2));
    const rest = await play({ projects: ['default'], offset: 2, limit: 2 });
    expect(names(rest.body)).toEqual(all.slice(2, 4));
    const last = await play({ projects: ['default'], offset: 4, limit: 2 });
    expect(names(last.body)).toEqual(all.slice(4));
    expect((await play({ projects: ['default'], offset: 9 })).body).toMatchObject({ features: [], total: 5 });
    // A page is exactly the whole answer's features at those places.
    const whole = (await play({ projects: ['default'] })).body.features;
    expect(rest.body.features).toEqual(whole.slice(2, 4));
  });

  it('filters by a part of the name (either case) within the projects asked for', async () => {
    const beta = await play({ query: 'BETA' });
    expect(names(beta.body).sort()).toEqual(['Beta-one', 'beta-two', 'other-beta']);
    expect(beta.body.total).toBe(3);
    const inDefault = await play({ query: 'beta', projects: ['default'], limit: 1 });
    expect(inDefault.body.total).toBe(2);
    expect(names(inDefault.body)).toHaveLength(1);
    expect((await play({ query: 'nothing' })).body).toMatchObject({ features: [], total: 0 });
  });

  it('refuses bad values with a 400 naming the property', async () => {
    for (const [extra, property] of [
      [{ limit: 0 }, 'limit'],
      [{ limit: 1001 }, 'limit'],
      [{ limit: 2.5 }, 'limit'],
      [{ limit: '10' }, 'limit'],
      [{ offset: -1 }, 'offset'],
      [{ offset: 'x' }, 'offset'],
      [{ query: 5 }, 'query'],
      [{ query: 'x'.repeat(201) }, 'query'],
    ] as const) {
      const res = await play(extra);
      expect(res.status, JSON.stringify(extra)).toBe(400);
      expect(errorBody(res).message).toContain(`"${property}"`);
    }
  });
});

describe.skipIf(testAdapter() !== 'node')('POST /api/admin/playground over a large configuration', () => {
  const FEATURES = 1_200;
  const dir = mkdtempSync(join(tmpdir(), 'flagstaff-playground-pages-'));
  let s: SdkTestServer;
  beforeAll(async () => {
    const store = await sqliteStore({ filename: join(dir, 'playground.db') });
    const environments = (await store.environments.listForProject('default')).map((e) => e.environment);
    const createdAt = new Date(Date.UTC(2026, 0, 1)).toISOString();
    await store.transaction(async (tx) => {
      for (let i = 0; i < FEATURES; i++)
        await tx.features.insert(
          {
            name: `f-${String(i).padStart(4, '0')}`,
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
    });
    s = await startSdkServer(store);
  }, 60_000);
  afterAll(async () => {
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('streams the whole answer (chunked, no length) with the same JSON as the service', async () => {
    const body = { environment: 'development', context };
    const res = await fetch(`${s.base}${P}`, {
      method: 'POST',
      headers: { authorization: s.adminToken, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.headers.get('transfer-encoding')).toBe('chunked');
    expect(res.headers.get('content-length')).toBeNull();
    const text = await res.text();
    expect(text).toBe(JSON.stringify(await s.flagstaff.playground.evaluate(SYSTEM, body)));
    expect((JSON.parse(text) as { features: unknown[] }).features).toHaveLength(FEATURES);
  });

  it('answers a page of a large configuration', async () => {
    const res = await s.request('POST', P, {
      body: { environment: 'development', context, query: 'f-11', offset: 10, limit: 50 },
    });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(100);
    expect(res.body.features.map((f: { name: string }) => f.name)).toEqual(
      Array.from({ length: 50 }, (_, i) => `f-11${String(i + 10).padStart(2, '0')}`),
    );
  });
});
