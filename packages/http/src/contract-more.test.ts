import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFeature } from './testing/fixtures.js';
import { errorBody, type HttpResult, startTestServer, type TestServer } from './testing/harness.js';

/** Rows of the contract's endpoint table (second half): success status and body, each documented error status. */
let s: TestServer;
let client: string;
let viewer: string;
const P = '/api/admin/projects/default';

beforeAll(async () => {
  s = await startTestServer();
  client = await s.token('client');
  viewer = String(await s.user('Viewer'));
  for (const name of ['a1', 'a2', 'parent', 'child']) await createFeature(s, name);
  await s.request('POST', `${P}/features/child/dependencies`, { body: { feature: 'parent' } });
});
afterAll(() => s.close());

const viewerOpts = () => ({ token: null, headers: { 'x-test-user': viewer } });
const expectError = (res: HttpResult, status: number, name: string) => {
  expect(res.status, res.text).toBe(status);
  expect(errorBody(res).name).toBe(name);
};

describe('POST …/bulk_features/environments/:environment/off', () => {
  const path = `${P}/bulk_features/environments/development/off`;
  it('200 with an empty body; the features are off', async () => {
    await s.request('POST', `${P}/bulk_features/environments/development/on`, {
      body: { features: ['a1', 'a2'] },
    });
    const res = await s.request('POST', path, { body: { features: ['a1', 'a2'] } });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    const a1 = await s.request('GET', `${P}/features/a1`);
    expect(a1.body.environments.find((e: { name: string }) => e.name === 'development').enabled).toBe(false);
  });
  it('400, 401, 403, 404, 413, 415', async () => {
    expectError(await s.request('POST', path, { body: { features: 'a1' } }), 400, 'ValidationError');
    expectError(
      await s.request('POST', path, { body: { features: ['a1'] }, token: null }),
      401,
      'AuthenticationRequired',
    );
    const forbidden = await s.request('POST', path, { body: { features: ['a1'] }, ...viewerOpts() });
    expectError(forbidden, 403, 'NoAccessError');
    expect(forbidden.body.message).toContain('"UPDATE_FEATURE_ENVIRONMENT" permission');
    expect(forbidden.body.message).toContain('"development" environment');
    expectError(await s.request('POST', path, { body: { features: ['ghost'] } }), 404, 'NotFoundError');
    expectError(
      await s.request('POST', `${P}/bulk_features/environments/nowhere/off`, { body: { features: ['a1'] } }),
      404,
      'NotFoundError',
    );
    const huge = { features: Array.from({ length: 12_000 }, (_, i) => `feature-number-${i}`) };
    const tooLarge = await s.request('POST', path, { body: huge });
    expectError(tooLarge, 413, 'ContentTooLarge');
    expect(tooLarge.body.message).toContain('102400');
    expectError(
      await s.request('POST', path, { raw: 'features=a1', contentType: 'application/x-www-form-urlencoded' }),
      415,
      'ContentTypeerror',
    );
  });
});

describe('addons', () => {
  let id: number;
  beforeAll(async () => {
    const res = await s.request('POST', '/api/admin/addons', {
      body: {
        provider: 'webhook',
        parameters: { url: 'http://127.0.0.1:9/hook' },
        events: ['feature-created'],
      },
    });
    expect(res.status, res.text).toBe(200);
    id = res.body.id;
  });
  it('GET /api/admin/addons/:id: 200 with the addon, 401', async () => {
    const res = await s.request('GET', `/api/admin/addons/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id,
      provider: 'webhook',
      enabled: true,
      events: ['feature-created'],
      projects: [],
      environments: [],
    });
    expectError(
      await s.request('GET', `/api/admin/addons/${id}`, { token: null }),
      401,
      'AuthenticationRequired',
    );
  });
  it('DELETE /api/admin/addons/:id: 401, 403, then 200 empty, then 404', async () => {
    expectError(
      await s.request('DELETE', `/api/admin/addons/${id}`, { token: null }),
      401,
      'AuthenticationRequired',
    );
    const forbidden = await s.request('DELETE', `/api/admin/addons/${id}`, viewerOpts());
    expectError(forbidden, 403, 'NoAccessError');
    expect(forbidden.body.message).toBe('You need the "DELETE_ADDON" permission to perform this action.');
    const res = await s.request('DELETE', `/api/admin/addons/${id}`);
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expectError(await s.request('DELETE', `/api/admin/addons/${id}`), 404, 'NotFoundError');
    expectError(await s.request('GET', '/api/admin/addons/not-a-number'), 404, 'NotFoundError');
  });
});

describe('POST …/archive/validate', () => {
  const path = `${P}/archive/validate`;
  it('200 naming parents that would orphan children', async () => {
    const res = await s.request('POST', path, { body: { features: ['parent'] } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ parentsWithChildFeatures: ['parent'], hasDeletedDependencies: true });
    const both = await s.request('POST', path, { body: { features: ['parent', 'child'] } });
    expect(both.body.parentsWithChildFeatures).toEqual([]);
  });
  it('400, 401, 403, 415', async () => {
    expectError(await s.request('POST', path, { body: { features: [1] } }), 400, 'ValidationError');
    expectError(
      await s.request('POST', path, { body: { features: [] }, token: null }),
      401,
      'AuthenticationRequired',
    );
    expectError(
      await s.request('POST', path, { body: { features: [] }, ...viewerOpts() }),
      403,
      'NoAccessError',
    );
    expectError(
      await s.request('POST', path, { raw: '{}', contentType: 'text/plain' }),
      415,
      'ContentTypeerror',
    );
  });
});

describe('PUT /api/admin/projects/:projectId/tags', () => {
  const body = {
    features: ['a1', 'a2'],
    tags: { addedTags: [{ type: 'simple', value: 'team-x' }], removedTags: [] },
  };
  it('200 with an empty body; both features carry the tag', async () => {
    const res = await s.request('PUT', `${P}/tags`, { body });
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    expect((await s.request('GET', '/api/admin/features/a2/tags')).body.tags).toEqual([
      { type: 'simple', value: 'team-x' },
    ]);
  });
  it('401, 403, 404, 415', async () => {
    expectError(await s.request('PUT', `${P}/tags`, { body, token: null }), 401, 'AuthenticationRequired');
    expectError(await s.request('PUT', `${P}/tags`, { body, ...viewerOpts() }), 403, 'NoAccessError');
    expectError(await s.request('PUT', '/api/admin/projects/nope/tags', { body }), 404, 'NotFoundError');
    expectError(
      await s.request('PUT', `${P}/tags`, { body: { ...body, features: ['ghost'] } }),
      404,
      'NotFoundError',
    );
    expectError(
      await s.request('PUT', `${P}/tags`, { raw: 'x', contentType: 'text/csv' }),
      415,
      'ContentTypeerror',
    );
  });
});

describe('PUT …/groups/:groupId/roles/:roleId (deprecated)', () => {
  it('200 empty; the group holds the role; 401, 403, 404', async () => {
    const group = await s.request('POST', '/api/admin/groups', { body: { name: 'devs' } });
    expect(group.status, group.text).toBe(201);
    const path = `${P}/groups/${group.body.id}/roles/4`;
    const res = await s.request('PUT', path);
    expect(res.status, res.text).toBe(200);
    expect(res.text).toBe('');
    const access = await s.request('GET', `${P}/access`);
    expect(access.body.groups.map((g: { id: number; roles: number[] }) => [g.id, g.roles])).toEqual([
      [group.body.id, [4]],
    ]);
    expectError(await s.request('PUT', path, { token: null }), 401, 'AuthenticationRequired');
    expectError(await s.request('PUT', path, viewerOpts()), 403, 'NoAccessError');
    expectError(await s.request('PUT', `${P}/groups/999/roles/4`), 404, 'NotFoundError');
    expectError(
      await s.request('PUT', `/api/admin/projects/nope/groups/${group.body.id}/roles/4`),
      404,
      'NotFoundError',
    );
  });
});

describe('instance insights', () => {
  for (const path of ['/api/admin/dashboard/executive', '/api/admin/insights'])
    it(`GET ${path}: 200 with users, flags and trends`, async () => {
      const res = await s.request('GET', path);
      expect(res.status).toBe(200);
      expect(res.body.flags.total).toBe(4);
      for (const key of [
        'users',
        'userTrends',
        'flagTrends',
        'projectFlagTrends',
        'metricsSummaryTrends',
        'environmentTypeTrends',
      ])
        expect(res.body).toHaveProperty(key);
      expectError(await s.request('GET', path, { token: client }), 403, 'NoAccessError');
    });
});

describe('POST /api/signal-endpoint/:endpointName', () => {
  it('accepts a Bearer endpoint token, refuses others, is rate limited', async () => {
    const endpoint = await s.request('POST', '/api/admin/signal-endpoints', { body: { name: 'deploys' } });
    expect(endpoint.status, endpoint.text).toBe(201);
    const token = await s.request('POST', `/api/admin/signal-endpoints/${endpoint.body.id}/tokens`, {
      body: { name: 'ci' },
    });
    expect(token.status, token.text).toBe(201);
    const bearer = `Bearer ${token.body.token}`;
    const res = await s.request('POST', '/api/signal-endpoint/deploys', {
      body: { status: 'done' },
      token: bearer,
    });
    expect(res.status, res.text).toBe(202);
    expect(res.body.signalId).toEqual(expect.any(Number));
    expectError(
      await s.request('POST', '/api/signal-endpoint/deploys', { token: bearer }),
      429,
      'TooManyRequestsError',
    );
    const unauthorised = await s.request('POST', '/api/signal-endpoint/deploys', { token: s.adminToken });
    expectError(unauthorised, 401, 'AuthenticationRequired');
    expectError(
      await s.request('POST', '/api/signal-endpoint/nowhere', { token: bearer }),
      404,
      'NotFoundError',
    );
    expectError(
      await s.request('POST', '/api/signal-endpoint/deploys', {
        raw: 'x',
        contentType: 'text/plain',
        token: bearer,
      }),
      415,
      'ContentTypeerror',
    );
    const signals = await s.request('GET', `/api/admin/signal-endpoints/${endpoint.body.id}/signals`);
    expect(signals.body.signals).toHaveLength(1);
  });
});
