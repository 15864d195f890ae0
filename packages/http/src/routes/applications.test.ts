import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errorBody, startTestServer, type TestServer } from '../testing/harness.js';

let s: TestServer;
beforeEach(async () => {
  s = await startTestServer();
});
afterEach(() => s.close());

const asUser = (id: number) => ({ token: null, headers: { 'x-test-user': String(id) } });

async function reportFrom(
  token: string,
  instanceId: string,
  toggles: Record<string, { yes: number; no: number }>,
) {
  const now = new Date().toISOString();
  const reg = await s.request('POST', '/api/client/register', {
    token,
    headers: { 'unleash-sdk': 'unleash-client-node:6.1.0' },
    body: {
      appName: 'web',
      instanceId,
      sdkVersion: 'unleash-client-node:6.1.0',
      strategies: ['default'],
      started: now,
      interval: 10_000,
    },
  });
  expect(reg.status).toBeLessThan(300);
  const res = await s.request('POST', '/api/client/metrics', {
    token,
    body: { appName: 'web', instanceId, bucket: { start: now, stop: now, toggles } },
  });
  expect(res.status).toBe(202);
  await s.flagstaff.metrics.flush();
}

describe('applications and feature usage', () => {
  it('lists applications with their instances, overview, usage and unknown flags', async () => {
    await s.request('POST', '/api/admin/projects/default/features', { body: { name: 'checkout' } });
    const client = await s.token('client');
    await reportFrom(client, 'i-1', { checkout: { yes: 3, no: 1 }, typo: { yes: 1, no: 0 } });
    await reportFrom(client, 'i-2', { checkout: { yes: 1, no: 0 } });

    const list = await s.request('GET', '/api/admin/metrics/applications');
    expect(list.body).toEqual({
      applications: [{ appName: 'web', usage: [{ project: '*', environments: ['development'] }] }],
      total: 1,
    });
    const app = await s.request('GET', '/api/admin/metrics/applications/web');
    expect(app.body.instances.map((i: { instanceId: string }) => i.instanceId)).toEqual(['i-1', 'i-2']);
    expect(app.body.seenToggles).toEqual(['checkout']);
    const overview = await s.request('GET', '/api/admin/metrics/applications/web/overview');
    expect(overview.body).toMatchObject({ projects: ['default'], featureCount: 1 });
    expect(overview.body.environments[0]).toMatchObject({ name: 'development', instanceCount: 2 });
    const instances = await s.request('GET', '/api/admin/metrics/instances/web/environment/development');
    expect(instances.body.instances).toHaveLength(2);

    const usage = await s.request('GET', '/api/admin/client-metrics/features/checkout');
    expect(usage.body).toMatchObject({ featureName: 'checkout', seenApplications: ['web'] });
    expect(usage.body.lastHourUsage).toEqual([
      expect.objectContaining({ environment: 'development', yes: 4, no: 1 }),
    ]);
    const raw = await s.request('GET', '/api/admin/client-metrics/features/checkout/raw?hoursBack=2');
    expect(raw.body.data[0]).toMatchObject({ featureName: 'checkout', appName: 'web', yes: 4, no: 1 });
    expect(
      (await s.request('GET', '/api/admin/client-metrics/features/checkout/raw?hoursBack=100')).status,
    ).toBe(400);
    expect((await s.request('GET', '/api/admin/client-metrics/features/missing')).status).toBe(404);

    const unknown = await s.request('GET', '/api/admin/metrics/unknown-flags');
    expect(unknown.body.unknownFlags.map((f: { name: string }) => f.name)).toEqual(['typo']);
  });

  it('keeps details an Editor sets, and forgets a deleted application', async () => {
    const client = await s.token('client');
    await reportFrom(client, 'i-1', {});
    const editor = await s.user('Editor');
    const viewer = await s.user('Viewer');
    const meta = { description: 'The shop', url: 'https://shop.example', color: 'blue', icon: 'cart' };
    expect(
      (await s.request('POST', '/api/admin/metrics/applications/web', { ...asUser(viewer), body: meta }))
        .status,
    ).toBe(403);
    expect(
      (await s.request('POST', '/api/admin/metrics/applications/web', { ...asUser(editor), body: meta }))
        .status,
    ).toBe(202);
    expect((await s.request('GET', '/api/admin/metrics/applications/web')).body).toMatchObject(meta);
    const bad = await s.request('POST', '/api/admin/metrics/applications/web', {
      body: { url: 'not a url' },
    });
    expect(bad.status).toBe(400);
    expect(errorBody(bad).message).toContain('url');
    expect((await s.request('DELETE', '/api/admin/metrics/applications/web')).status).toBe(200);
    expect((await s.request('GET', '/api/admin/metrics/applications/web')).status).toBe(404);
    expect((await s.request('GET', '/api/admin/metrics/applications')).body.total).toBe(0);
    expect((await s.request('DELETE', '/api/admin/metrics/applications/web')).status).toBe(404);
  });
});

describe('outdated SDKs', () => {
  it('lists registered SDK versions older than the official minimums, instance-wide and per project', async () => {
    await s.request('POST', '/api/admin/projects/default/features', { body: { name: 'used' } });
    const client = await s.token('client');
    const now = new Date().toISOString();
    const register = (appName: string, sdkVersion: string) =>
      s.request('POST', '/api/client/register', {
        token: client,
        body: { appName, instanceId: 'i', sdkVersion, strategies: [], started: now, interval: 1 },
      });
    await register('old-node', 'unleash-client-node:5.0.0');
    await register('new-node', 'unleash-client-node:6.1.0');
    await register('old-java', 'unleash-client-java:8.0.0');
    await register('custom', 'my-own-sdk:0.1.0');
    await s.request('POST', '/api/client/metrics', {
      token: client,
      body: {
        appName: 'old-node',
        instanceId: 'i',
        bucket: { start: now, stop: now, toggles: { used: { yes: 1, no: 0 } } },
      },
    });
    await s.flagstaff.metrics.flush();
    expect((await s.request('GET', '/api/admin/metrics/sdks/outdated')).body).toEqual({
      sdks: [
        { sdkVersion: 'unleash-client-java:8.0.0', applications: ['old-java'] },
        { sdkVersion: 'unleash-client-node:5.0.0', applications: ['old-node'] },
      ],
    });
    expect((await s.request('GET', '/api/admin/projects/default/sdks/outdated')).body).toEqual({
      sdks: [{ sdkVersion: 'unleash-client-node:5.0.0', applications: ['old-node'] }],
    });
    expect((await s.request('GET', '/api/admin/projects/nope/sdks/outdated')).status).toBe(404);
  });
});
