import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errorBody, startTestServer, type TestServer } from './testing/harness.js';

let s: TestServer;
beforeEach(async () => {
  s = await startTestServer();
});
afterEach(() => s.close());

const preflight = (origin: string) =>
  fetch(`${s.base}/api/frontend`, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'GET',
      'access-control-request-headers': 'authorization',
    },
  });

describe('CORS for the frontend API', () => {
  it('lets any origin call it by default, and only the listed ones once an Admin sets them', async () => {
    const token = await s.token('frontend');
    const call = (origin: string) =>
      fetch(`${s.base}/api/frontend`, { headers: { authorization: token, origin } });
    const open = await call('https://shop.example');
    expect(open.status).toBe(200);
    expect(open.headers.get('access-control-allow-origin')).toBe('*');
    const pre = await preflight('https://shop.example');
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-headers')).toContain('authorization');

    const set = await s.request('POST', '/api/admin/ui-config/cors', {
      body: { frontendApiOrigins: ['https://shop.example'] },
    });
    expect(set.status).toBe(204);
    expect((await s.request('GET', '/api/admin/ui-config')).body.frontendApiOrigins).toEqual([
      'https://shop.example',
    ]);
    const allowed = await call('https://shop.example');
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://shop.example');
    expect(allowed.headers.get('vary')).toContain('Origin');
    const other = await call('https://evil.example');
    expect(other.status).toBe(200);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    expect((await preflight('https://evil.example')).headers.get('access-control-allow-origin')).toBeNull();
    // The admin and client APIs never answer with CORS headers.
    const admin = await fetch(`${s.base}/api/admin/projects`, {
      headers: { authorization: s.adminToken, origin: 'https://shop.example' },
    });
    expect(admin.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('names a bad origin and is for root Admins only', async () => {
    const bad = await s.request('POST', '/api/admin/ui-config/cors', {
      body: { frontendApiOrigins: ['https://a.example/path'] },
    });
    expect(bad.status).toBe(400);
    expect(errorBody(bad).message).toContain('frontendApiOrigins');
    const editor = await s.user('Editor');
    const refused = await s.request('POST', '/api/admin/ui-config/cors', {
      token: null,
      headers: { 'x-test-user': String(editor) },
      body: { frontendApiOrigins: ['*'] },
    });
    expect(refused.status).toBe(403);
  });
});

describe('CORS for OFREP', () => {
  it('lets browser providers on allowed origins evaluate, with their headers and the ETag exposed', async () => {
    const token = await s.token('frontend');
    const pre = await fetch(`${s.base}/ofrep/v1/evaluate/flags`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://shop.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-api-key, content-type',
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    expect(pre.headers.get('access-control-allow-headers')).toContain('x-api-key');
    const bulk = await fetch(`${s.base}/ofrep/v1/evaluate/flags`, {
      method: 'POST',
      headers: { 'x-api-key': token, origin: 'https://shop.example', 'content-type': 'application/json' },
      body: JSON.stringify({ context: { targetingKey: 'u' } }),
    });
    expect(bulk.status).toBe(200);
    expect(bulk.headers.get('access-control-allow-origin')).toBe('*');
    expect(bulk.headers.get('access-control-expose-headers')).toBe('ETag');
    const { eventStreams } = (await bulk.json()) as { eventStreams: { endpoint: { requestUri: string } }[] };
    const stream = await fetch(new URL(eventStreams[0]!.endpoint.requestUri, s.base), {
      headers: { origin: 'https://shop.example' },
    });
    expect(stream.headers.get('access-control-allow-origin')).toBe('*');
    await stream.body?.cancel();
  });
});
