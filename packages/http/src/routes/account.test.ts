import { ROLES } from '@flagstaff/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody, startTestServer, type TestServer } from '../testing/harness.js';

/** Signing in with a password: the session cookie, same-origin writes, throttling, user admin. */
let s: TestServer;
const PASSWORD = 'Correct-Horse-42';
let annId: number;

beforeAll(async () => {
  s = await startTestServer({ flagstaff: { loginThrottle: { maxFailures: 3 } } });
  const created = await s.request('POST', '/api/admin/user-admin', {
    body: { email: 'ann@example.com', username: 'ann', rootRole: 'Editor' },
  });
  annId = created.body.id;
  const reset = await s.request('POST', `/api/admin/user-admin/${annId}/change-password`, {
    body: { password: PASSWORD },
  });
  expect(reset.status, reset.text).toBe(200);
});
afterAll(() => s.close());

async function login(username: string, password: string, headers: Record<string, string> = {}) {
  const res = await s.request('POST', '/auth/simple/login', {
    body: { username, password },
    token: null,
    headers,
  });
  const cookie = res.headers.get('set-cookie')?.split(';')[0] ?? '';
  return { res, cookie };
}
const withCookie = (cookie: string, extra: Record<string, string> = {}) => ({
  token: null,
  headers: { cookie, ...extra },
});

describe('POST /auth/simple/login', () => {
  it('signs in by username or e-mail and sets an HttpOnly, SameSite=Lax session cookie', async () => {
    const { res, cookie } = await login('ANN@example.com', PASSWORD);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id: annId, email: 'ann@example.com' });
    expect(res.text).not.toContain('passwordHash');
    const header = res.headers.get('set-cookie') ?? '';
    expect(header).toMatch(/^flagstaff-session=[^;]+; Path=\/; HttpOnly; SameSite=Lax/);
    expect(header).not.toContain('Secure');
    const me = await s.request('GET', '/api/admin/user', withCookie(cookie));
    expect(me.status, me.text).toBe(200);
    expect(me.body.user).toMatchObject({ id: annId, rootRole: ROLES.Editor.id });
    expect(me.body.permissions).toContainEqual({ permission: 'CREATE_PROJECT' });
  });

  it('marks the cookie Secure behind an HTTPS proxy', async () => {
    const { res } = await login('ann', PASSWORD, { 'x-forwarded-proto': 'https' });
    expect(res.headers.get('set-cookie')).toContain('; Secure');
  });

  it('a wrong password is a 401 that does not say whether the user exists', async () => {
    const wrong = await login('ann', 'nope-nope-nope');
    const unknown = await login('nobody', 'nope-nope-nope');
    expect(wrong.res.status).toBe(401);
    expect(unknown.res.status).toBe(401);
    expect(errorBody(wrong.res).message).toBe(errorBody(unknown.res).message);
    expect(wrong.res.headers.get('set-cookie')).toBeNull();
  });

  it('a body without the fields is a 400 naming them', async () => {
    const res = await s.request('POST', '/auth/simple/login', { body: { username: 'ann' }, token: null });
    expect(res.status).toBe(400);
    expect(errorBody(res).message).toContain('password');
  });

  it('repeated failures for one user are refused with a 429 and Retry-After, even with the right password', async () => {
    await s.request('POST', '/api/admin/user-admin', {
      body: { email: 'bob@example.com', rootRole: 'Viewer' },
    });
    const bob = (await s.request('GET', '/api/admin/user-admin')).body.users.find(
      (u: { email: string }) => u.email === 'bob@example.com',
    );
    await s.request('POST', `/api/admin/user-admin/${bob.id}/change-password`, {
      body: { password: PASSWORD },
    });
    for (let i = 0; i < 3; i++)
      expect((await login('bob@example.com', 'wrong-wrong-1')).res.status).toBe(401);
    const locked = await login('bob@example.com', PASSWORD);
    expect(locked.res.status).toBe(429);
    expect(errorBody(locked.res).name).toBe('TooManyRequestsError');
    expect(Number(locked.res.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('the session cookie', () => {
  it('writes only from our own origin: a cross-site write is a 403, a same-origin one works', async () => {
    const { cookie } = await login('ann', PASSWORD);
    const body = { name: 'from-cookie' };
    const crossSite = await s.request('POST', '/api/admin/projects/default/features', {
      body,
      ...withCookie(cookie, { 'sec-fetch-site': 'cross-site' }),
    });
    expect(crossSite.status).toBe(403);
    expect(errorBody(crossSite).message).toContain('another site');
    const noOrigin = await s.request('POST', '/api/admin/projects/default/features', {
      body,
      ...withCookie(cookie),
    });
    expect(noOrigin.status).toBe(403);
    expect((await s.request('GET', '/api/admin/projects/default/features/from-cookie')).status).toBe(404);
    const host = new URL(s.base).host;
    const sameOrigin = await s.request('POST', '/api/admin/projects/default/features', {
      body,
      ...withCookie(cookie, { origin: `http://${host}` }),
    });
    expect(sameOrigin.status, sameOrigin.text).toBe(200);
    const events = await s.request('GET', '/api/admin/events/from-cookie');
    expect(events.body.events[0].createdBy).toBe('ann@example.com');
  });

  it('logout ends the session and clears the cookie', async () => {
    const { cookie } = await login('ann', PASSWORD);
    const out = await s.request('POST', '/logout', withCookie(cookie, { 'sec-fetch-site': 'same-origin' }));
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toContain('Max-Age=0');
    expect((await s.request('GET', '/api/admin/user', withCookie(cookie))).status).toBe(401);
  });

  it('a demoted or deleted user loses access at once', async () => {
    // Another Admin first: the last Admin can be neither demoted nor deleted.
    await s.request('POST', '/api/admin/user-admin', {
      body: { email: 'dee@example.com', rootRole: 'Admin' },
    });
    const created = await s.request('POST', '/api/admin/user-admin', {
      body: { email: 'cy@example.com', rootRole: 'Admin' },
    });
    const id = created.body.id;
    await s.request('POST', `/api/admin/user-admin/${id}/change-password`, { body: { password: PASSWORD } });
    const { cookie } = await login('cy@example.com', PASSWORD);
    expect((await s.request('GET', '/api/admin/user-admin', withCookie(cookie))).status).toBe(200);
    const demoted = await s.request('PUT', `/api/admin/user-admin/${id}`, { body: { rootRole: 'Viewer' } });
    expect(demoted.status, demoted.text).toBe(200);
    expect((await s.request('GET', '/api/admin/user-admin', withCookie(cookie))).status).toBe(401);
    const again = await login('cy@example.com', PASSWORD);
    expect((await s.request('GET', '/api/admin/user-admin', withCookie(again.cookie))).status).toBe(403);
    expect((await s.request('DELETE', `/api/admin/user-admin/${id}`)).status).toBe(200);
    expect((await s.request('GET', '/api/admin/user', withCookie(again.cookie))).status).toBe(401);
  });

  it('a user changes their own password: the old one stops working, this session stays', async () => {
    const { cookie } = await login('ann', PASSWORD);
    const other = await login('ann', PASSWORD);
    const changed = await s.request('POST', '/api/admin/user/change-password', {
      body: { oldPassword: PASSWORD, password: 'Another-Good-Pass-7' },
      ...withCookie(cookie, { 'sec-fetch-site': 'same-origin' }),
    });
    expect(changed.status, changed.text).toBe(200);
    expect((await s.request('GET', '/api/admin/user', withCookie(cookie))).status).toBe(200);
    expect((await s.request('GET', '/api/admin/user', withCookie(other.cookie))).status).toBe(401);
    expect((await login('ann', PASSWORD)).res.status).toBe(401);
    expect((await login('ann', 'Another-Good-Pass-7')).res.status).toBe(200);
  });
});

describe('GET /api/admin/search/features', () => {
  it('pages, filters and sorts on the server; bad parameters are a 400 naming them', async () => {
    for (const name of ['search-a', 'search-b', 'search-c'])
      await s.request('POST', '/api/admin/projects/default/features', { body: { name } });
    const page = await s.request(
      'GET',
      '/api/admin/search/features?query=search-&sortBy=name&sortOrder=desc&limit=2',
    );
    expect(page.status, page.text).toBe(200);
    expect(page.body.total).toBe(3);
    expect(page.body.features.map((f: { name: string }) => f.name)).toEqual(['search-c', 'search-b']);
    const bad = await s.request('GET', '/api/admin/search/features?limit=nope');
    expect(bad.status).toBe(400);
    expect(errorBody(bad).message).toContain('limit');
  });
});
