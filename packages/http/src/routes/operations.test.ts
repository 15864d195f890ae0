import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errorBody, startTestServer, type TestServer } from '../testing/harness.js';

let s: TestServer;
beforeEach(async () => {
  s = await startTestServer();
});
afterEach(() => s.close());

const asUser = (id: number) => ({ token: null, headers: { 'x-test-user': String(id) } });

describe('health and readiness', () => {
  it('answer without credentials', async () => {
    expect((await s.request('GET', '/health', { token: null })).body).toEqual({ health: 'GOOD' });
    const ready = await s.request('GET', '/ready', { token: null });
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ health: 'GOOD' });
  });
});

describe('maintenance mode', () => {
  it('refuses admin changes with a 503 that says why, while SDKs and reads are served', async () => {
    const client = await s.token('client');
    expect((await s.request('GET', '/api/admin/maintenance')).body).toEqual({ enabled: false });
    expect((await s.request('POST', '/api/admin/maintenance', { body: { enabled: true } })).status).toBe(204);
    expect((await s.request('GET', '/api/admin/maintenance')).body).toEqual({ enabled: true });

    const refused = await s.request('POST', '/api/admin/projects/default/features', {
      body: { name: 'blocked' },
    });
    expect(refused.status).toBe(503);
    expect(errorBody(refused)).toMatchObject({ name: 'MaintenanceError' });
    expect(errorBody(refused).message).toContain('maintenance mode');
    expect((await s.request('GET', '/api/admin/projects/default/features')).body.features).toEqual([]);
    expect((await s.request('GET', '/api/client/features', { token: client })).status).toBe(200);
    const metrics = await s.request('POST', '/api/client/register', {
      token: client,
      body: {
        appName: 'app',
        instanceId: 'i1',
        strategies: [],
        started: new Date().toISOString(),
        interval: 10_000,
      },
    });
    expect(metrics.status).toBeLessThan(300);

    expect((await s.request('POST', '/api/admin/maintenance', { body: { enabled: false } })).status).toBe(
      204,
    );
    expect(
      (await s.request('POST', '/api/admin/projects/default/features', { body: { name: 'ok' } })).status,
    ).toBe(200);
    const events = await s.request('GET', '/api/admin/events?type=setting-updated');
    const toggles = events.body.events.filter((e: { type: string }) => e.type === 'setting-updated');
    expect(toggles.map((e: { data: { enabled: boolean } }) => e.data.enabled)).toEqual([false, true]);
  });

  it('is toggled by root Admins only, with a body naming what is wrong', async () => {
    const editor = await s.user('Editor');
    const forbidden = await s.request('POST', '/api/admin/maintenance', {
      ...asUser(editor),
      body: { enabled: true },
    });
    expect(forbidden.status).toBe(403);
    const bad = await s.request('POST', '/api/admin/maintenance', { body: { enabled: 'yes' } });
    expect(bad.status).toBe(400);
    expect(errorBody(bad).message).toContain('enabled');
    expect((await s.request('GET', '/api/admin/maintenance')).body).toEqual({ enabled: false });
  });
});

describe('instance views', () => {
  it('give the UI configuration and, to Admins, statistics as JSON and CSV', async () => {
    const config = await s.request('GET', '/api/admin/ui-config');
    expect(config.body).toMatchObject({
      name: 'Flagstaff',
      maintenanceMode: false,
      authenticationType: 'simple',
    });
    await s.request('POST', '/api/admin/projects/default/features', { body: { name: 'counted' } });
    const stats = await s.request('GET', '/api/admin/instance-admin/statistics');
    expect(stats.body).toMatchObject({ featureToggles: 1, projects: 1, environments: expect.any(Number) });
    const csv = await fetch(`${s.base}/api/admin/instance-admin/statistics/csv`, {
      headers: { authorization: s.adminToken },
    });
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const [header, row] = (await csv.text()).trim().split('\n');
    expect(header?.split(',')).toContain('featureToggles');
    expect(row?.split(',')[header?.split(',').indexOf('featureToggles') ?? -1]).toBe('1');
    const viewer = await s.user('Viewer');
    expect((await s.request('GET', '/api/admin/instance-admin/statistics', asUser(viewer))).status).toBe(403);
  });
});
