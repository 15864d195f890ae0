import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addStrategy, createFeature, createSegment, FUTURE } from './testing/fixtures.js';
import { errorBody, startTestServer, type TestServer } from './testing/harness.js';

/** Rows of the contract's endpoint table (first half): success status and body, each documented error status. */
let s: TestServer;
let client: string;
let viewer: string;
let strategyId: string;
const F = '/api/admin/projects/default/features';

beforeAll(async () => {
  s = await startTestServer();
  client = await s.token('client');
  viewer = String(await s.user('Viewer'));
  await createFeature(s, 'checkout');
  strategyId = (await addStrategy(s, 'checkout')).id;
});
afterAll(() => s.close());

const viewerOpts = () => ({ token: null, headers: { 'x-test-user': viewer } });
const expectError = (res: Awaited<ReturnType<TestServer['request']>>, status: number, name: string) => {
  expect(res.status, res.text).toBe(status);
  expect(errorBody(res).name).toBe(name);
};

describe('POST /api/admin/playground (deprecated)', () => {
  const body = { environment: 'development', projects: '*', context: { appName: 'web', userId: 'u1' } };
  it('200 with the input echoed and every feature evaluated', async () => {
    const res = await s.request('POST', '/api/admin/playground', { body });
    expect(res.status).toBe(200);
    expect(res.body.input).toMatchObject({ environment: 'development', context: { appName: 'web' } });
    expect(res.body.features.map((f: { name: string }) => f.name)).toContain('checkout');
  });
  it('400 naming the property, 401 without a token', async () => {
    const res = await s.request('POST', '/api/admin/playground', {
      body: { environment: 'development', context: {} },
    });
    expectError(res, 400, 'ValidationError');
    expect(res.body.message).toContain('context.appName');
    expectError(
      await s.request('POST', '/api/admin/playground', { body, token: null }),
      401,
      'AuthenticationRequired',
    );
  });
});

describe('PUT /api/admin/projects/:projectId/features/:featureName', () => {
  it('200 with the feature; only given properties change', async () => {
    const res = await s.request('PUT', `${F}/checkout`, { body: { description: 'Pay', stale: true } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'checkout', description: 'Pay', stale: true, type: 'release' });
  });
  it('401, 403, 404, 415', async () => {
    expectError(
      await s.request('PUT', `${F}/checkout`, { body: {}, token: null }),
      401,
      'AuthenticationRequired',
    );
    expectError(await s.request('PUT', `${F}/checkout`, { body: {}, ...viewerOpts() }), 403, 'NoAccessError');
    expectError(await s.request('PUT', `${F}/nope`, { body: {} }), 404, 'NotFoundError');
    expectError(
      await s.request('PUT', `/api/admin/projects/nope/features/checkout`, { body: {} }),
      404,
      'NotFoundError',
    );
    expectError(
      await s.request('PUT', `${F}/checkout`, { raw: 'x', contentType: 'text/plain' }),
      415,
      'ContentTypeerror',
    );
  });
});

describe('events', () => {
  it('POST /api/admin/events/search: 200 with version, events and totalEvents', async () => {
    const res = await s.request('POST', '/api/admin/events/search', {
      body: { feature: 'checkout', limit: 2 },
    });
    expect(res.status).toBe(200);
    expect(res.body.version).toBe(1);
    expect(res.body.events.length).toBeLessThanOrEqual(2);
    expect(res.body.totalEvents).toBeGreaterThanOrEqual(res.body.events.length);
    expect(res.body.events[0]).toMatchObject({ featureName: 'checkout', project: 'default' });
  });
  it('GET /api/admin/events: 200 with version and events, newest first', async () => {
    const res = await s.request('GET', '/api/admin/events?project=default');
    expect(res.status).toBe(200);
    expect(res.body.version).toBe(1);
    const ids = res.body.events.map((e: { id: number }) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });
  it('GET /api/admin/events/:featureName: 200 with toggleName and totalEvents; 401', async () => {
    const res = await s.request('GET', '/api/admin/events/checkout');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ version: 1, toggleName: 'checkout' });
    expect(res.body.totalEvents).toBe(res.body.events.length);
    expect((await s.request('GET', '/api/admin/events/never-existed')).body.events).toEqual([]);
    expectError(
      await s.request('GET', '/api/admin/events/checkout', { token: null }),
      401,
      'AuthenticationRequired',
    );
  });
});

describe('PATCH …/environments/:environment/strategies/:strategyId', () => {
  const path = () => `${F}/checkout/environments/development/strategies/${strategyId}`;
  it('200 with the patched strategy', async () => {
    const res = await s.request('PATCH', path(), {
      body: [{ op: 'replace', path: '/parameters/rollout', value: '50' }],
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: strategyId,
      name: 'flexibleRollout',
      parameters: { rollout: '50' },
    });
  });
  it('400, 401, 403 naming permission and environment, 404, 415', async () => {
    expectError(
      await s.request('PATCH', path(), { body: [{ op: 'jump', path: '/x' }] }),
      400,
      'ValidationError',
    );
    expectError(await s.request('PATCH', path(), { body: [], token: null }), 401, 'AuthenticationRequired');
    const forbidden = await s.request('PATCH', path(), { body: [], ...viewerOpts() });
    expectError(forbidden, 403, 'NoAccessError');
    expect(forbidden.body.message).toBe(
      'You need the "UPDATE_FEATURE_STRATEGY" permission to perform this action in the "development" environment.',
    );
    const unknown = `${F}/checkout/environments/development/strategies/00000000-0000-4000-8000-000000000000`;
    expectError(await s.request('PATCH', unknown, { body: [] }), 404, 'NotFoundError');
    expectError(
      await s.request('PATCH', path(), { raw: '[]', contentType: 'text/plain' }),
      415,
      'ContentTypeerror',
    );
  });
});

describe('project read models', () => {
  for (const [path, check] of [
    [
      '/api/admin/projects/default/overview',
      (b: unknown) =>
        expect(b).toMatchObject({
          version: expect.any(Number),
          name: 'Default',
          health: expect.any(Number),
          stats: expect.any(Object),
        }),
    ],
    [
      '/api/admin/environments/project/default',
      (b: { environments: { name: string }[] }) =>
        expect(b.environments.map((e) => e.name)).toEqual(['development', 'production']),
    ],
    [
      '/api/admin/projects/default/dora',
      (b: unknown) => expect(b).toMatchObject({ features: expect.any(Array) }),
    ],
  ] as const) {
    it(`GET ${path}: 200, 401, 403 (client token), 404`, async () => {
      const res = await s.request('GET', path);
      expect(res.status).toBe(200);
      check(res.body);
      expectError(await s.request('GET', path, { token: null }), 401, 'AuthenticationRequired');
      expectError(await s.request('GET', path, { token: client }), 403, 'NoAccessError');
      expectError(await s.request('GET', path.replace('default', 'nope')), 404, 'NotFoundError');
    });
  }
});

describe('invite links', () => {
  it('POST /api/admin/invite-link/tokens: 201 with a relative location header', async () => {
    const res = await s.request('POST', '/api/admin/invite-link/tokens', {
      body: { name: 'team', expiresAt: FUTURE },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'team', enabled: true, role: { name: 'Viewer' } });
    expect(res.headers.get('location')).toBe(`tokens/${res.body.secret}`);
    const followed = await s.request('GET', `/api/admin/invite-link/${res.headers.get('location')}`);
    expect(followed.body.secret).toBe(res.body.secret);
  });
  it('POST: 400, 401, 403', async () => {
    const path = '/api/admin/invite-link/tokens';
    const missing = await s.request('POST', path, { body: { name: 'x' } });
    expectError(missing, 400, 'ValidationError');
    expect(missing.body.message).toContain('expiresAt');
    expectError(
      await s.request('POST', path, { body: { name: 'x', expiresAt: FUTURE }, token: null }),
      401,
      'AuthenticationRequired',
    );
    expectError(
      await s.request('POST', path, { body: { name: 'x', expiresAt: FUTURE }, ...viewerOpts() }),
      403,
      'NoAccessError',
    );
  });
  it('GET /api/admin/invite-link/tokens: 200 with tokens', async () => {
    const res = await s.request('GET', '/api/admin/invite-link/tokens');
    expect(res.status).toBe(200);
    expect(res.body.tokens.length).toBeGreaterThan(0);
  });
});

describe('POST /api/admin/features-batch/export', () => {
  it('200 with features, featureStrategies, featureEnvironments', async () => {
    const res = await s.request('POST', '/api/admin/features-batch/export', {
      body: { environment: 'development', features: ['checkout'] },
    });
    expect(res.status).toBe(200);
    expect(res.body.features.map((f: { name: string }) => f.name)).toEqual(['checkout']);
    expect(res.body.featureStrategies.length).toBe(1);
    expect(Array.isArray(res.body.featureEnvironments)).toBe(true);
  });
  it('downloadFile answers an attachment; 404 for unknown features', async () => {
    const res = await s.request('POST', '/api/admin/features-batch/export', {
      body: { environment: 'development', project: 'default', downloadFile: true },
    });
    expect(res.headers.get('content-disposition')).toContain('attachment');
    const missing = await s.request('POST', '/api/admin/features-batch/export', {
      body: { environment: 'development', features: ['ghost'] },
    });
    expectError(missing, 404, 'NotFoundError');
  });
});

describe('GET /api/admin/api-tokens/:name', () => {
  it('200 with every token of the name (empty when none), 401, 403', async () => {
    const res = await s.request('GET', '/api/admin/api-tokens/client-token');
    expect(res.status).toBe(200);
    expect(res.body.tokens).toHaveLength(1);
    expect(res.body.tokens[0]).toMatchObject({
      tokenName: 'client-token',
      type: 'client',
      environment: 'development',
    });
    expect(res.body.tokens[0].secret).not.toBe(client);
    expect((await s.request('GET', '/api/admin/api-tokens/nobody')).body).toEqual({ tokens: [] });
    expectError(
      await s.request('GET', '/api/admin/api-tokens/x', { token: null }),
      401,
      'AuthenticationRequired',
    );
    expectError(await s.request('GET', '/api/admin/api-tokens/x', { ...viewerOpts() }), 403, 'NoAccessError');
  });
});

describe('GET /api/admin/segments/:id/strategies', () => {
  it('200 with strategies and changeRequestStrategies', async () => {
    const segment = await createSegment(s, 'beta');
    const strategy = await addStrategy(s, 'checkout', 'development', { segments: [segment.id] });
    const res = await s.request('GET', `/api/admin/segments/${segment.id}/strategies`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      strategies: [
        {
          id: strategy.id,
          featureName: 'checkout',
          projectId: 'default',
          environment: 'development',
          strategyName: 'flexibleRollout',
        },
      ],
      changeRequestStrategies: [],
    });
    expectError(await s.request('GET', '/api/admin/segments/999/strategies'), 404, 'NotFoundError');
  });
});
