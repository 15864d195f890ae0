import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addStrategy, createFeature } from '../testing/fixtures.js';
import { startTestServer, type TestServer } from '../testing/harness.js';

/** The SDK-facing APIs through the router. */
let s: TestServer;
let client: string;
let frontend: string;
const P = '/api/admin/projects/default';
beforeAll(async () => {
  s = await startTestServer();
  client = await s.token('client');
  frontend = await s.token('frontend');
  await createFeature(s, 'shown', 'default', { impressionData: true });
  await createFeature(s, 'hidden');
  await addStrategy(s, 'shown', 'development', { name: 'userWithId', parameters: { userIds: 'alice' } });
  await addStrategy(s, 'shown', 'development', { name: 'default', disabled: true });
  await s.request('POST', `${P}/features/shown/environments/development/on`);
});
afterAll(() => s.close());

describe('GET /api/client/features', () => {
  it('answers version 2 with an ETag and leaves disabled strategies out', async () => {
    const res = await s.request('GET', '/api/client/features', { token: client });
    expect(res.status).toBe(200);
    expect(res.body.version).toBe(2);
    const shown = res.body.features.find((f: { name: string }) => f.name === 'shown');
    expect(shown.enabled).toBe(true);
    expect(shown.strategies.map((st: { name: string }) => st.name)).toEqual(['userWithId']);
    expect(res.headers.get('etag')).toBe(res.body.meta.etag);
  });
  it('304 for a matching If-None-Match, 200 again after a change', async () => {
    const first = await s.request('GET', '/api/client/features', { token: client });
    const etag = first.headers.get('etag')!;
    const again = await s.request('GET', '/api/client/features', {
      token: client,
      headers: { 'if-none-match': etag },
    });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
    await s.request('POST', `${P}/features/hidden/environments/development/on`);
    const changed = await s.request('GET', '/api/client/features', {
      token: client,
      headers: { 'if-none-match': etag },
    });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
  });
  it('filters by namePrefix and project query parameters', async () => {
    const res = await s.request('GET', '/api/client/features?namePrefix=sh&project=default', {
      token: client,
    });
    expect(res.body.features.map((f: { name: string }) => f.name)).toEqual(['shown']);
    const none = await s.request('GET', '/api/client/features?project=other', { token: client });
    expect(none.body.features).toEqual([]);
  });
});

describe('GET|POST /api/frontend', () => {
  it('answers only the features that are on for the context', async () => {
    const alice = await s.request('GET', '/api/frontend?userId=alice&properties[plan]=pro', {
      token: frontend,
    });
    expect(alice.status).toBe(200);
    const toggle = alice.body.toggles.find((t: { name: string }) => t.name === 'shown');
    expect(toggle).toMatchObject({
      enabled: true,
      impressionData: true,
      variant: { name: 'disabled', enabled: false },
    });
    const bob = await s.request('GET', '/api/frontend?userId=bob', { token: frontend });
    expect(bob.body.toggles.map((t: { name: string }) => t.name)).not.toContain('shown');
    const posted = await s.request('POST', '/api/frontend', {
      token: frontend,
      body: { context: { userId: 'alice' } },
    });
    expect(posted.body.toggles.map((t: { name: string }) => t.name)).toContain('shown');
    const flat = await s.request('POST', '/api/frontend', { token: frontend, body: { userId: 'alice' } });
    expect(flat.body.toggles.map((t: { name: string }) => t.name)).toContain('shown');
  });
});
