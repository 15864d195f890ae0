import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/harness.js';

/** The admin UI served under the mount path, from a built directory. */
let s: TestServer;
let dir: string;
const script = `console.log(${JSON.stringify('x'.repeat(4000))});`;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'flagstaff-ui-'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><html><head><title>Flagstaff</title></head></html>');
  writeFileSync(join(dir, 'assets', 'app-3f2a1c.js'), script);
  writeFileSync(join(dir, 'secret.txt'), 'outside');
  s = await startTestServer({ prefix: '/flags', router: { ui: { assetsDir: join(dir) } } });
});
afterAll(async () => {
  await s.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${s.base}${path}`, { headers, redirect: 'manual' });

describe('ui option', () => {
  it('redirects ui to ui/ and answers index.html with the mount path as its base, not cached', async () => {
    const redirect = await get('/ui');
    expect(redirect.status).toBe(308);
    expect(redirect.headers.get('location')).toBe('/flags/ui/');
    const index = await get('/ui/');
    expect(index.status).toBe(200);
    expect(index.headers.get('cache-control')).toBe('no-cache');
    expect(index.headers.get('content-type')).toContain('text/html');
    expect(await index.text()).toContain('<head><base href="/flags/ui/"><title>');
  });

  it('answers deep links with index.html so the app routes them', async () => {
    const deep = await get('/ui/projects/default/features/checkout');
    expect(deep.status).toBe(200);
    expect(await deep.text()).toContain('<base href="/flags/ui/">');
  });

  it('serves hashed assets immutable, compressed when the client accepts it', async () => {
    const plain = await get('/ui/assets/app-3f2a1c.js', { 'accept-encoding': 'identity' });
    expect(plain.status).toBe(200);
    expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(plain.headers.get('content-type')).toContain('text/javascript');
    expect(await plain.text()).toBe(script);
    const zipped = await get('/ui/assets/app-3f2a1c.js', { 'accept-encoding': 'gzip' });
    expect(zipped.headers.get('vary')).toBe('Accept-Encoding');
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    // fetch decodes gzip itself: what arrived is the same script.
    expect(await zipped.text()).toBe(script);
  });

  it('a missing asset is a 404, and paths cannot climb out of the directory', async () => {
    expect((await get('/ui/assets/app-old.js')).status).toBe(404);
    const climb = await get('/ui/..%2f..%2fetc%2fpasswd');
    expect(await climb.text()).not.toContain('root:');
    expect((await get('/ui/assets/%E0%A4%A')).status).toBe(404);
  });

  it('leaves the API as it was', async () => {
    expect((await s.request('GET', '/api/admin/projects')).status).toBe(200);
    expect((await s.request('GET', '/api/admin/projects', { token: null })).status).toBe(401);
  });
});

describe('security headers', () => {
  it('F12: UI answers carry a CSP that forbids framing, nosniff, X-Frame-Options and Referrer-Policy', async () => {
    for (const path of [
      '/ui/',
      '/ui/projects/default',
      '/ui/assets/app-3f2a1c.js',
      '/ui/assets/gone-1.js',
      '/ui',
    ]) {
      const res = await get(path);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp, path).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(res.headers.get('x-frame-options')).toBe('DENY');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    }
  });

  it('F12: API answers (success, error, 404, openapi) carry X-Content-Type-Options: nosniff', async () => {
    const answers = [
      await s.request('GET', '/api/admin/projects'),
      await s.request('GET', '/api/admin/projects/nowhere'),
      await s.request('GET', '/api/admin/no-such-route'),
      await s.request('GET', '/api/admin/projects', { token: null }),
      await s.request('GET', '/docs/openapi.json'),
    ];
    for (const res of answers) expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
