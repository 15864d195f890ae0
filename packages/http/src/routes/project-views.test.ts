import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errorBody, startTestServer, type TestServer } from '../testing/harness.js';

let s: TestServer;
beforeEach(async () => {
  s = await startTestServer();
});
afterEach(() => s.close());

const P = '/api/admin/projects/default';
const asUser = (id: number) => ({ token: null, headers: { 'x-test-user': String(id) } });

describe('project API tokens', () => {
  it('are made, listed and deleted by the project’s Owner, scoped to the project', async () => {
    await s.request('POST', '/api/admin/projects', { body: { id: 'shop', name: 'Shop' } });
    const owner = await s.user('Viewer', 'owner@example.com');
    await s.request('PUT', `/api/admin/projects/shop/users/${owner}/roles`, { body: { roles: [4] } });
    const made = await s.request('POST', '/api/admin/projects/shop/api-tokens', {
      ...asUser(owner),
      body: { tokenName: 'shop-web', type: 'client', environment: 'development' },
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ tokenName: 'shop-web', type: 'client', projects: ['shop'] });
    // Root-wide tokens are not the project's.
    await s.token('client');
    const listed = await s.request('GET', '/api/admin/projects/shop/api-tokens', asUser(owner));
    expect(listed.body.tokens.map((t: { tokenName: string }) => t.tokenName)).toEqual(['shop-web']);
    const features = await s.request('GET', '/api/client/features', { token: made.body.secret });
    expect(features.status).toBe(200);
    const stranger = await s.user('Viewer');
    expect(
      (
        await s.request('POST', '/api/admin/projects/shop/api-tokens', {
          ...asUser(stranger),
          body: { tokenName: 'x', type: 'client', environment: 'development' },
        })
      ).status,
    ).toBe(403);
    const admin = await s.request('POST', '/api/admin/projects/shop/api-tokens', {
      body: { tokenName: 'x', type: 'admin' },
    });
    expect(admin.status).toBe(400);
    expect(errorBody(admin).message).toContain('type');
    const del = await s.request(
      'DELETE',
      `/api/admin/projects/shop/api-tokens/${encodeURIComponent(made.body.secret)}`,
      asUser(owner),
    );
    expect(del.status).toBe(200);
    expect((await s.request('GET', '/api/client/features', { token: made.body.secret })).status).toBe(401);
    expect(
      (
        await s.request(
          'DELETE',
          `/api/admin/projects/shop/api-tokens/${encodeURIComponent(made.body.secret)}`,
        )
      ).status,
    ).toBe(404);
    expect((await s.request('GET', '/api/admin/projects/nope/api-tokens')).status).toBe(404);
  });
});

describe('project views', () => {
  it('show flag creators, applications, status, health report and insights', async () => {
    const editor = await s.user('Editor', 'ed@example.com');
    await s.request('POST', `${P}/features`, { ...asUser(editor), body: { name: 'a' } });
    await s.request('POST', `${P}/features`, { body: { name: 'b' } });
    await s.request('POST', `${P}/stale`, { body: { features: ['b'], stale: true } });
    const client = await s.token('client');
    const now = new Date().toISOString();
    await s.request('POST', '/api/client/register', {
      token: client,
      body: {
        appName: 'web',
        instanceId: 'i1',
        sdkVersion: 'unleash-client-node:6.1.0',
        strategies: [],
        started: now,
        interval: 1,
      },
    });
    await s.request('POST', '/api/client/metrics', {
      token: client,
      body: {
        appName: 'web',
        instanceId: 'i1',
        bucket: { start: now, stop: now, toggles: { a: { yes: 1, no: 0 } } },
      },
    });
    await s.flagstaff.metrics.flush();

    const creators = await s.request('GET', `${P}/flag-creators`);
    expect(creators.body.map((c: { name: string }) => c.name)).toEqual(
      expect.arrayContaining(['ed@example.com']),
    );
    const apps = await s.request('GET', `${P}/applications`);
    expect(apps.body).toMatchObject({
      total: 1,
      applications: [{ name: 'web', environments: ['development'], instances: ['i1'] }],
    });
    expect(apps.body.applications[0].sdks).toEqual([{ name: 'unleash-client-node', versions: ['6.1.0'] }]);
    const status = await s.request('GET', `${P}/status`);
    expect(status.body.staleFlags).toEqual({ total: 1 });
    expect(status.body.health.current).toBe(50);
    // `a` was reported by an SDK in development: pre-live.
    expect(status.body.lifecycleSummary.initial.currentFlags).toBe(1);
    expect(status.body.lifecycleSummary.preLive.currentFlags).toBe(1);
    expect(status.body.activityCountByDate.at(-1).count).toBeGreaterThan(0);
    const report = await s.request('GET', `${P}/health-report`);
    expect(report.body).toMatchObject({ name: 'Default', health: 50, staleCount: 1, activeCount: 1 });
    const insights = await s.request('GET', `${P}/insights`);
    expect(insights.body.health).toMatchObject({ rating: 50, staleCount: 1 });
    expect(insights.body.featureTypeCounts).toEqual([{ type: 'release', count: 2 }]);
    for (const view of ['status', 'insights', 'applications', 'flag-creators', 'health-report'])
      expect((await s.request('GET', `/api/admin/projects/nope/${view}`)).status).toBe(404);
  });
});
