import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFeature } from '../testing/fixtures.js';
import { errorBody, startTestServer, type TestServer } from '../testing/harness.js';

/** Features: the lifecycle a script written against Unleash drives. */
let s: TestServer;
let user: { token: null; headers: Record<string, string> };
const P = '/api/admin/projects/default';
beforeAll(async () => {
  s = await startTestServer();
  user = { token: null, headers: { 'x-test-user': String(await s.user('Admin')) } };
});
afterAll(() => s.close());

describe('features', () => {
  it('create (200) returns the feature with its environments; get and list', async () => {
    const res = await s.request('POST', `${P}/features`, {
      body: { name: 'login', type: 'kill-switch', description: 'Log in' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      name: 'login',
      type: 'kill-switch',
      project: 'default',
      archived: false,
      enabled: false,
    });
    expect(res.body.environments.map((e: { name: string }) => e.name)).toEqual(['development', 'production']);
    expect((await s.request('GET', `${P}/features/login`)).body.description).toBe('Log in');
    const list = await s.request('GET', `${P}/features`);
    expect(list.body.version).toBe(2);
    expect(list.body.features.map((f: { name: string }) => f.name)).toEqual(['login']);
    expect((await s.request('GET', '/api/admin/features')).body.features).toHaveLength(1);
    expect((await s.request('GET', '/api/admin/projects/nope/features')).status).toBe(404);
  });
  it('PATCH applies JSON-patch operations', async () => {
    const res = await s.request('PATCH', `${P}/features/login`, {
      body: [{ op: 'replace', path: '/description', value: 'New' }],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.description).toBe('New');
    expect((await s.request('PATCH', `${P}/features/login`, { body: { op: 'replace' } })).status).toBe(400);
  });
  it('PUT with archived: true archives and sets archivedAt', async () => {
    await createFeature(s, 'put-archived');
    const res = await s.request('PUT', `${P}/features/put-archived`, { body: { archived: true } });
    expect(res.status).toBe(200);
    expect(res.body.archived).toBe(true);
    expect(res.body.archivedAt).toEqual(expect.any(String));
  });
  it('archive (202), list archive, revive (200), archive again and delete from the archive', async () => {
    await createFeature(s, 'old');
    const archive = await s.request('DELETE', `${P}/features/old`);
    expect(archive.status).toBe(202);
    expect(archive.text).toBe('');
    expect((await s.request('GET', `${P}/features/old`)).status).toBe(404);
    const archived = await s.request('GET', '/api/admin/archive/features');
    expect(archived.body.features.map((f: { name: string }) => f.name)).toContain('old');
    expect(
      (await s.request('GET', '/api/admin/archive/features/default')).body.features.length,
    ).toBeGreaterThan(0);
    expect((await s.request('POST', '/api/admin/archive/revive/old')).status).toBe(200);
    expect((await s.request('GET', `${P}/features/old`)).status).toBe(200);
    expect((await s.request('DELETE', '/api/admin/archive/old')).status).toBe(409);
    expect((await s.request('POST', `${P}/archive`, { body: { features: ['old'] } })).status).toBe(202);
    expect((await s.request('POST', `${P}/revive`, { body: { features: ['old'] } })).status).toBe(200);
    expect((await s.request('POST', `${P}/archive`, { body: { features: ['old'] } })).status).toBe(202);
    const del = await s.request('DELETE', '/api/admin/archive/old');
    expect(del.status).toBe(200);
    expect((await s.request('DELETE', '/api/admin/archive/old')).status).toBe(404);
    await createFeature(s, 'old2');
    await s.request('POST', `${P}/archive`, { body: { features: ['old2'] } });
    expect((await s.request('POST', `${P}/delete`, { body: { features: ['old2'] } })).status).toBe(200);
  });
  it('stale (202) in bulk', async () => {
    const res = await s.request('POST', `${P}/stale`, { body: { features: ['login'], stale: true } });
    expect(res.status).toBe(202);
    expect((await s.request('GET', `${P}/features/login`)).body.stale).toBe(true);
    expect(
      errorBody(await s.request('POST', `${P}/stale`, { body: { features: ['login'] } })).message,
    ).toContain('stale');
  });
  it('favorites belong to users: 200 for a user, 400 for a token', async () => {
    expect((await s.request('POST', `${P}/features/login/favorites`, user)).status).toBe(200);
    expect((await s.request('GET', `${P}/features/login`, user)).body.favorite).toBe(true);
    expect((await s.request('DELETE', `${P}/features/login/favorites`, user)).status).toBe(200);
    expect((await s.request('GET', `${P}/features/login`, user)).body.favorite).toBe(false);
    expect((await s.request('POST', `${P}/features/login/favorites`)).status).toBe(400);
    expect((await s.request('POST', `${P}/favorites`, user)).status).toBe(200);
  });
});

describe('feature environments', () => {
  it('on adds the default strategy, off turns it off; bulk on', async () => {
    await createFeature(s, 'flip');
    expect((await s.request('POST', `${P}/features/flip/environments/production/on`)).status).toBe(200);
    const feature = (await s.request('GET', `${P}/features/flip`)).body;
    const prod = feature.environments.find((e: { name: string }) => e.name === 'production');
    expect(prod.enabled).toBe(true);
    expect(prod.strategies.map((st: { name: string }) => st.name)).toEqual(['flexibleRollout']);
    expect((await s.request('POST', `${P}/features/flip/environments/production/off`)).status).toBe(200);
    expect((await s.request('POST', `${P}/features/flip/environments/nowhere/on`)).status).toBe(404);
    const bulk = await s.request('POST', `${P}/bulk_features/environments/development/on`, {
      body: { features: ['flip', 'login'] },
    });
    expect(bulk.status).toBe(200);
    expect((await s.request('GET', `${P}/features/login`)).body.environments[0].enabled).toBe(true);
  });
  it('variants: PUT, GET, PATCH per environment, variants-batch, legacy feature variants', async () => {
    const path = `${P}/features/flip/environments/development/variants`;
    const put = await s.request('PUT', path, {
      body: [
        { name: 'a', weight: 500 },
        { name: 'b', weight: 500 },
      ],
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body.version).toBe(1);
    expect(
      put.body.variants.map((v: { name: string; weightType: string }) => [v.name, v.weightType]),
    ).toEqual([
      ['a', 'variable'],
      ['b', 'variable'],
    ]);
    const patch = await s.request('PATCH', path, { body: [{ op: 'remove', path: '/1' }] });
    expect(patch.body.variants.map((v: { name: string; weight: number }) => [v.name, v.weight])).toEqual([
      ['a', 1000],
    ]);
    expect((await s.request('GET', path)).body.variants).toHaveLength(1);
    const bad = await s.request('PUT', path, { body: [{ name: 'a', weight: 5000 }] });
    expect(bad.status).toBe(400);
    expect(errorBody(bad).message).toContain('weight');
    const batch = await s.request('PUT', `${P}/features/flip/variants-batch`, {
      body: { variants: [{ name: 'x', weight: 1000 }], environments: ['development', 'production'] },
    });
    expect(batch.status, batch.text).toBe(200);
    const legacy = await s.request('PUT', `${P}/features/flip/variants`, {
      body: [{ name: 'y', weight: 1000 }],
    });
    expect(legacy.status, legacy.text).toBe(200);
    const legacyPatch = await s.request('PATCH', `${P}/features/flip/variants`, {
      body: [{ op: 'replace', path: '/0/name', value: 'z' }],
    });
    expect(legacyPatch.body.variants[0].name).toBe('z');
  });
});
