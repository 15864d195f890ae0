import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errorBody, startTestServer, type TestServer } from '../testing/harness.js';

let s: TestServer;
let now = Date.parse('2026-03-01T00:00:00Z');
beforeEach(async () => {
  now = Date.parse('2026-03-01T00:00:00Z');
  s = await startTestServer({ flagstaff: { clock: { now: () => new Date(now) } } });
});
afterEach(() => s.close());

const S = '/api/admin/strategies';
const F = '/api/admin/projects/default/features';
const asUser = (id: number) => ({ token: null, headers: { 'x-test-user': String(id) } });

describe('strategy definitions', () => {
  it('list the built-ins with parameters, and manage a custom strategy through its life', async () => {
    const list = await s.request('GET', S);
    const rollout = list.body.strategies.find((x: { name: string }) => x.name === 'flexibleRollout');
    expect(rollout).toMatchObject({ editable: false, deprecated: false });
    expect(rollout.parameters.map((p: { name: string }) => p.name)).toEqual([
      'rollout',
      'stickiness',
      'groupId',
    ]);

    const body = {
      name: 'byCountry',
      description: 'On in some countries',
      parameters: [{ name: 'countries', type: 'list', description: 'ISO codes', required: true }],
    };
    const created = await s.request('POST', S, { body });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'byCountry',
      editable: true,
      parameters: [{ name: 'countries', type: 'list' }],
    });
    expect((await s.request('POST', S, { body })).status).toBe(409);
    expect((await s.request('POST', S, { body: { name: 'default' } })).status).toBe(409);
    const badType = await s.request('POST', S, {
      body: { name: 'x', parameters: [{ name: 'p', type: 'date' }] },
    });
    expect(badType.status).toBe(400);
    expect(errorBody(badType).message).toContain('type');

    const updated = await s.request('PUT', `${S}/byCountry`, {
      body: { description: 'Countries', parameters: [] },
    });
    expect(updated.body).toMatchObject({ description: 'Countries', parameters: [] });
    expect((await s.request('PUT', `${S}/default`, { body: { description: 'x' } })).status).toBe(400);

    // In use: a feature strategy of that name can be added, and the definition cannot go.
    await s.request('POST', F, { body: { name: 'geo' } });
    await s.request('POST', `${F}/geo/environments/development/strategies`, {
      body: { name: 'byCountry', parameters: { countries: 'NO,SE' } },
    });
    const inUse = await s.request('DELETE', `${S}/byCountry`);
    expect(inUse.status).toBe(409);
    expect(errorBody(inUse).message).toContain('geo');

    expect((await s.request('POST', `${S}/gradualRolloutRandom/deprecate`)).status).toBe(200);
    expect((await s.request('GET', `${S}/gradualRolloutRandom`)).body.deprecated).toBe(true);
    expect((await s.request('POST', `${S}/gradualRolloutRandom/reactivate`)).status).toBe(200);
    expect((await s.request('GET', `${S}/gradualRolloutRandom`)).body.deprecated).toBe(false);
    expect((await s.request('POST', `${S}/default/deprecate`)).status).toBe(400);
    const viewer = await s.user('Viewer');
    expect((await s.request('POST', S, { ...asUser(viewer), body: { name: 'v' } })).status).toBe(403);
    expect((await s.request('GET', `${S}/nope`)).status).toBe(404);
    const types = (await s.request('GET', '/api/admin/events?type=strategy-created')).body.events.map(
      (e: { type: string }) => e.type,
    );
    expect(types).toContain('strategy-created');
  });

  it('find the feature strategies constrained on a context field', async () => {
    await s.request('POST', '/api/admin/context', { body: { name: 'region' } });
    await s.request('POST', F, { body: { name: 'eu' } });
    await s.request('POST', `${F}/eu/environments/development/strategies`, {
      body: { name: 'default', constraints: [{ contextName: 'region', operator: 'IN', values: ['eu'] }] },
    });
    const res = await s.request('GET', '/api/admin/context/region/strategies');
    expect(res.body.strategies).toEqual([
      expect.objectContaining({
        featureName: 'eu',
        projectId: 'default',
        strategyName: 'default',
        environment: 'development',
      }),
    ]);
    expect((await s.request('GET', '/api/admin/context/nope/strategies')).status).toBe(404);
  });
});

describe('feature types', () => {
  it('have lifetimes that decide when a feature is potentially stale', async () => {
    const types = await s.request('GET', '/api/admin/feature-types');
    expect(types.body.types.find((t: { id: string }) => t.id === 'release').lifetimeDays).toBe(40);
    await s.request('POST', F, { body: { name: 'old', type: 'release' } });
    now += 20 * 86_400_000;
    expect(
      (await s.request('GET', '/api/admin/projects/default/health-report')).body.potentiallyStaleCount,
    ).toBe(0);
    const set = await s.request('PUT', '/api/admin/feature-types/release/lifetime', {
      body: { lifetimeDays: 10 },
    });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ id: 'release', lifetimeDays: 10 });
    expect(
      (await s.request('GET', '/api/admin/projects/default/health-report')).body.potentiallyStaleCount,
    ).toBe(1);
    await s.request('PUT', '/api/admin/feature-types/release/lifetime', { body: { lifetimeDays: null } });
    expect(
      (await s.request('GET', '/api/admin/projects/default/health-report')).body.potentiallyStaleCount,
    ).toBe(0);
    expect(
      (await s.request('PUT', '/api/admin/feature-types/nope/lifetime', { body: { lifetimeDays: 1 } }))
        .status,
    ).toBe(404);
    const bad = await s.request('PUT', '/api/admin/feature-types/release/lifetime', {
      body: { lifetimeDays: -1 },
    });
    expect(bad.status).toBe(400);
    expect(errorBody(bad).message).toContain('lifetimeDays');
  });
});
