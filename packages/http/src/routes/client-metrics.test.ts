import { SYSTEM } from '@flagstaff/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFeature } from '../testing/fixtures.js';
import { errorBody, startTestServer, type TestServer } from '../testing/harness.js';

/** SDK registrations and metrics through the router: client, Edge bulk and frontend. */
let s: TestServer;
let client: string;
let frontend: string;
const P = '/api/admin/projects/default';
const now = () => new Date().toISOString();
const metrics = (toggles: Record<string, unknown>) => ({
  appName: 'web',
  instanceId: 'i1',
  bucket: { start: now(), stop: now(), toggles },
});
const lastSeen = async (feature: string, environment: string) => {
  const res = await s.request('GET', `${P}/features/${feature}`);
  return res.body.environments.find((e: { name: string }) => e.name === environment).lastSeenAt;
};

beforeAll(async () => {
  s = await startTestServer({ flagstaff: { metricsFlushIntervalMs: 0 } });
  client = await s.token('client');
  frontend = await s.token('frontend');
  await createFeature(s, 'shown');
  await createFeature(s, 'bulked');
  await createFeature(s, 'clicked');
});
afterAll(() => s.close());

describe('POST /api/client/register and /api/client/metrics', () => {
  it('202 for both; the counts and lastSeenAt are written at the next flush', async () => {
    const register = await s.request('POST', '/api/client/register', {
      token: client,
      body: { appName: 'web', instanceId: 'i1', strategies: ['default'], started: now(), interval: 10000 },
    });
    expect(register.status, register.text).toBe(202);
    const sent = await s.request('POST', '/api/client/metrics', {
      token: client,
      body: metrics({ shown: { yes: 3, no: 1, variants: { blue: 2 } } }),
    });
    expect(sent.status, sent.text).toBe(202);
    expect(sent.text).toBe('');
    expect(await lastSeen('shown', 'development')).toBeNull();
    await s.flagstaff.metrics.flush();
    expect(await lastSeen('shown', 'development')).toEqual(expect.any(String));
    const [bucket] = await s.flagstaff.store.metrics.listBuckets('2000-01-01T00:00:00.000Z');
    expect(bucket).toMatchObject({ featureName: 'shown', environment: 'development', yes: 3, no: 1 });
    expect((await s.flagstaff.metrics.applications(SYSTEM)).map((a) => a.instanceId)).toEqual(['i1']);
  });

  it('400 naming the property for a malformed report', async () => {
    const missing = await s.request('POST', '/api/client/metrics', {
      token: client,
      body: { appName: 'web' },
    });
    expect(missing.status).toBe(400);
    expect(errorBody(missing).message).toContain('"bucket"');
    const negative = await s.request('POST', '/api/client/metrics', {
      token: client,
      body: metrics({ shown: { yes: -1 } }),
    });
    expect(negative.status).toBe(400);
    expect(errorBody(negative).message).toContain('"bucket.toggles.shown.yes"');
  });

  it('400 ExceedsLimitError past 1000 toggles in a bucket; 413 past the body limit', async () => {
    const toggles = Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`f${i}`, { yes: 1 }]));
    const many = await s.request('POST', '/api/client/metrics', { token: client, body: metrics(toggles) });
    expect(many.status).toBe(400);
    expect(errorBody(many)).toMatchObject({ name: 'ExceedsLimitError' });
    expect(many.body.message).toContain('at most 1000');
    const huge = Object.fromEntries(
      Array.from({ length: 900 }, (_, i) => [`${'x'.repeat(120)}${i}`, { yes: 1 }]),
    );
    const large = await s.request('POST', '/api/client/metrics', { token: client, body: metrics(huge) });
    expect(large.status).toBe(413);
    expect(errorBody(large).name).toBe('ContentTooLarge');
  });

  it('401 without a token, 403 with a frontend token', async () => {
    const body = metrics({ shown: { yes: 1 } });
    expect((await s.request('POST', '/api/client/metrics', { token: null, body })).status).toBe(401);
    expect((await s.request('POST', '/api/client/metrics', { token: frontend, body })).status).toBe(403);
  });
});

describe('POST /api/client/metrics/bulk', () => {
  it('takes Edge batches for the token environment and remembers unknown flags', async () => {
    const entry = (featureName: string, environment: string) => ({
      featureName,
      appName: 'edge-app',
      environment,
      timestamp: now(),
      yes: 2,
      no: 1,
      variants: {},
    });
    const res = await s.request('POST', '/api/client/metrics/bulk', {
      token: client,
      body: {
        applications: [
          { appName: 'edge-app', instanceId: 'pod-1', environment: 'development', connectVia: [] },
        ],
        metrics: [
          entry('bulked', 'development'),
          entry('bulked', 'production'),
          entry('bulkd', 'development'),
        ],
      },
    });
    expect(res.status, res.text).toBe(202);
    await s.flagstaff.metrics.flush();
    expect(await lastSeen('bulked', 'development')).toEqual(expect.any(String));
    expect(await lastSeen('bulked', 'production')).toBeNull();
    expect((await s.flagstaff.metrics.unknownFlags(SYSTEM)).map((f) => [f.name, f.appName])).toEqual([
      ['bulkd', 'edge-app'],
    ]);
    const bad = await s.request('POST', '/api/client/metrics/bulk', { token: client, body: { metrics: [] } });
    expect(bad.status).toBe(400);
    expect(errorBody(bad).message).toContain('"applications"');
  });
});

describe('POST /api/frontend/client/metrics and /register', () => {
  it('202 with a frontend token (the shapes unleash-proxy-client sends), 403 with a client token', async () => {
    const register = await s.request('POST', '/api/frontend/client/register', {
      token: frontend,
      body: {
        appName: 'browser-app',
        instanceId: 'browser',
        sdkVersion: 'unleash-client-js:3.7.0',
        environment: 'default',
        interval: 30000,
        started: now(),
        platformName: 'browser',
      },
    });
    expect(register.status, register.text).toBe(202);
    const body = {
      appName: 'browser-app',
      instanceId: 'browser',
      bucket: { start: now(), stop: now(), toggles: { clicked: { yes: 1, no: 0, variants: { b: 1 } } } },
    };
    expect((await s.request('POST', '/api/frontend/client/metrics', { token: frontend, body })).status).toBe(
      202,
    );
    expect((await s.request('POST', '/api/frontend/client/metrics', { token: client, body })).status).toBe(
      403,
    );
    await s.flagstaff.metrics.flush();
    expect(await lastSeen('clicked', 'development')).toEqual(expect.any(String));
    expect((await s.flagstaff.metrics.applications(SYSTEM)).map((a) => a.appName)).toContain('browser-app');
  });
});
