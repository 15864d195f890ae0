import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody, startTestServer, type TestServer } from '../testing/harness.js';

/**
 * Findings of the outside review on the session cookie: malformed cookies (F14), cross-site sign-in
 * and sign-out (F17), and when the cookie is Secure (F21).
 */
const PASSWORD = 'Correct-Horse-42';
let s: TestServer;
let secure: TestServer;
let host: string;

async function withUser(server: TestServer): Promise<void> {
  const id = await server.user('Editor', 'ann@example.com');
  const set = await server.request('POST', `/api/admin/user-admin/${id}/change-password`, {
    body: { password: PASSWORD },
  });
  expect(set.status, set.text).toBe(200);
}

beforeAll(async () => {
  s = await startTestServer();
  secure = await startTestServer({ router: { secureCookies: true } });
  await withUser(s);
  await withUser(secure);
  host = new URL(s.base).host;
});
afterAll(async () => {
  await s.close();
  await secure.close();
});

function login(server: TestServer, headers: Record<string, string> = {}) {
  return server.request('POST', '/auth/simple/login', {
    token: null,
    headers,
    body: { username: 'ann@example.com', password: PASSWORD },
  });
}
const cookieOf = (res: { headers: Headers }) => res.headers.get('set-cookie')?.split(';')[0] ?? '';
const me = (cookie: string) => s.request('GET', '/api/admin/user', { token: null, headers: { cookie } });

describe('a malformed session cookie (F14)', () => {
  it('F14: a malformed percent-encoded session cookie is treated as absent: 401, not 500', async () => {
    for (const cookie of ['flagstaff-session=%E0%A4%A', 'other=1; flagstaff-session=%']) {
      const res = await me(cookie);
      expect(res.status, res.text).toBe(401);
      expect(errorBody(res).name).toBe('AuthenticationRequired');
    }
    const logout = await s.request('POST', '/logout', {
      token: null,
      headers: { cookie: 'flagstaff-session=%E0%A4%A', 'sec-fetch-site': 'same-origin' },
    });
    expect(logout.status).toBe(204);
    // A good cookie beside a bad one of another name still works.
    const good = cookieOf(await login(s));
    expect((await me(`broken=%E0%A4%A; ${good}`)).status).toBe(200);
  });
});

describe('cross-site sign-in and sign-out (F17)', () => {
  const crossSite: Record<string, string>[] = [
    { 'sec-fetch-site': 'cross-site' },
    { 'sec-fetch-site': 'same-site' },
    { origin: 'https://evil.example' },
  ];

  it('F17: a sign-in another site sends is a 403 that sets no cookie', async () => {
    for (const headers of crossSite) {
      const res = await login(s, headers);
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(errorBody(res).message).toContain('another site');
      expect(res.headers.get('set-cookie')).toBeNull();
    }
  });

  it('F17: a sign-out another site sends is a 403 and the session stays', async () => {
    const cookie = cookieOf(await login(s));
    for (const headers of crossSite) {
      const res = await s.request('POST', '/logout', { token: null, headers: { cookie, ...headers } });
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(errorBody(res).message).toContain('another site');
      expect(res.headers.get('set-cookie')).toBeNull();
    }
    expect((await me(cookie)).status).toBe(200);
  });

  it('F17: the UI (same origin) and clients without browser headers still sign in and out', async () => {
    const sameOrigin: Record<string, string>[] = [
      { 'sec-fetch-site': 'same-origin' },
      { origin: `http://${host}` },
      {},
    ];
    for (const headers of sameOrigin) {
      const signedIn = await login(s, headers);
      expect(signedIn.status, JSON.stringify(headers)).toBe(200);
      const cookie = cookieOf(signedIn);
      const out = await s.request('POST', '/logout', { token: null, headers: { cookie, ...headers } });
      expect(out.status, JSON.stringify(headers)).toBe(204);
      expect((await me(cookie)).status).toBe(401);
    }
  });
});

describe('the Secure attribute (F21)', () => {
  it('F21: by default the cookie is Secure only behind X-Forwarded-Proto: https', async () => {
    expect((await login(s)).headers.get('set-cookie')).not.toContain('Secure');
    expect((await login(s, { 'x-forwarded-proto': 'https' })).headers.get('set-cookie')).toContain(
      '; Secure',
    );
  });

  it('F21: secureCookies: true marks the session cookie Secure on every request, sign-out included', async () => {
    const res = await login(secure);
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get('set-cookie')).toMatch(/; HttpOnly; SameSite=Lax; .*Secure/);
    const out = await secure.request('POST', '/logout', { token: null, headers: { cookie: cookieOf(res) } });
    expect(out.headers.get('set-cookie')).toContain('; Secure');
  });
});
