import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errorBody, startTestServer, type TestServer } from '../testing/harness.js';

let s: TestServer;
let now = Date.parse('2026-06-01T00:00:00Z');
beforeEach(async () => {
  now = Date.parse('2026-06-01T00:00:00Z');
  s = await startTestServer({
    flagstaff: { clock: { now: () => new Date(now) }, baseUrl: 'https://flags.example' },
  });
});
afterEach(() => s.close());

const asUser = (id: number) => ({ token: null, headers: { 'x-test-user': String(id) } });
const STRONG = 'Correct-Horse-9-Battery';

describe('the signed-in user', () => {
  it('has a profile with the root role and the projects of their roles, and a list of roles', async () => {
    const id = await s.user('Editor', 'ed@example.com');
    await s.request('PUT', `/api/admin/projects/default/users/${id}/roles`, { body: { roles: [4] } });
    const profile = await s.request('GET', '/api/admin/user/profile', asUser(id));
    expect(profile.status).toBe(200);
    expect(profile.body).toMatchObject({ rootRole: { id: 2, name: 'Editor' }, projects: ['default'] });
    const roles = await s.request('GET', '/api/admin/user/roles', asUser(id));
    expect(roles.body.map((r: { name: string }) => r.name)).toEqual(['Editor', 'Owner']);
    // An API token has no profile.
    expect((await s.request('GET', '/api/admin/user/profile')).status).toBe(403);
  });
});

describe('user administration', () => {
  it('searches users, lists who can be given access and counts Admins', async () => {
    await s.user('Viewer', 'alice@example.com');
    await s.user('Admin', 'bob@example.com');
    const found = await s.request('GET', '/api/admin/user-admin/search?q=ALI');
    expect(found.body.map((u: { email: string }) => u.email)).toEqual(['alice@example.com']);
    const access = await s.request('GET', '/api/admin/user-admin/access');
    expect(access.body.users.map((u: { email: string }) => u.email)).toEqual(
      expect.arrayContaining(['alice@example.com', 'bob@example.com']),
    );
    expect(access.body.groups).toEqual([]);
    expect((await s.request('GET', '/api/admin/user-admin/admin-count')).body).toEqual({
      password: 0,
      noPassword: 1,
      service: 0,
    });
    const long = await s.request('GET', `/api/admin/user-admin/search?q=${'x'.repeat(101)}`);
    expect(long.status).toBe(400);
    expect(errorBody(long).message).toContain('q');
  });

  it('lists users inactive for 180 days and deletes only those', async () => {
    const old = await s.user('Viewer', 'old@example.com');
    now += 181 * 86_400_000;
    const fresh = await s.user('Viewer', 'fresh@example.com');
    const inactive = await s.request('GET', '/api/admin/user-admin/inactive');
    expect(inactive.body.inactiveUsers.map((u: { id: number }) => u.id)).toEqual([old]);
    const viewer = await s.user('Viewer');
    expect((await s.request('GET', '/api/admin/user-admin/inactive', asUser(viewer))).status).toBe(403);
    const deleted = await s.request('POST', '/api/admin/user-admin/inactive/delete', {
      body: { ids: [old, fresh] },
    });
    expect(deleted.body).toEqual({ deleted: [old] });
    expect((await s.request('GET', `/api/admin/user-admin/${fresh}`)).status).toBe(200);
    expect((await s.request('GET', `/api/admin/user-admin/${old}`)).status).toBe(404);
    const bad = await s.request('POST', '/api/admin/user-admin/inactive/delete', { body: { ids: ['x'] } });
    expect(bad.status).toBe(400);
    expect(errorBody(bad).message).toContain('ids');
  });

  it('checks passwords against the rules, naming what is missing', async () => {
    expect(
      (await s.request('POST', '/api/admin/user-admin/validate-password', { body: { password: STRONG } }))
        .status,
    ).toBe(200);
    const weak = await s.request('POST', '/auth/reset/validate-password', {
      token: null,
      body: { password: 'short' },
    });
    expect(weak.status).toBe(400);
    expect(errorBody(weak).message).toContain('password');
  });
});

describe('password reset links', () => {
  it('let the user set a new password once, and sign in with it', async () => {
    const id = await s.user('Editor', 'reset@example.com');
    const link = await s.request('POST', '/api/admin/user-admin/reset-password', {
      body: { id: 'reset@example.com' },
    });
    expect(link.status).toBe(200);
    const url = new URL(link.body.resetPasswordUrl);
    expect(url.origin + url.pathname).toBe('https://flags.example/reset-password');
    const token = url.searchParams.get('token') ?? '';
    const whom = await s.request('GET', `/auth/reset/validate?token=${encodeURIComponent(token)}`, {
      token: null,
    });
    expect(whom.body).toMatchObject({ id, email: 'reset@example.com' });

    const weak = await s.request('POST', '/auth/reset/password', {
      token: null,
      body: { token, password: 'weak' },
    });
    expect(weak.status).toBe(400);
    const set = await s.request('POST', '/auth/reset/password', {
      token: null,
      body: { token, password: STRONG },
    });
    expect(set.status).toBe(200);
    const login = await s.request('POST', '/auth/simple/login', {
      token: null,
      body: { username: 'reset@example.com', password: STRONG },
    });
    expect(login.status).toBe(200);
    // Used: the link was for the password the user had.
    const again = await s.request('POST', '/auth/reset/password', {
      token: null,
      body: { token, password: `${STRONG}!` },
    });
    expect(again.status).toBe(401);
    expect(errorBody(again).message).toContain('invalid or has expired');
  });

  it('expire after 24 hours, refuse forged tokens, and are made by Admins only', async () => {
    const id = await s.user('Viewer', 'late@example.com');
    const link = await s.request('POST', '/api/admin/user-admin/reset-password', { body: { id } });
    const token = new URL(link.body.resetPasswordUrl).searchParams.get('token') ?? '';
    const forged = token.replace(/\.[^.]+$/, '.AAAA');
    expect(
      (await s.request('GET', `/auth/reset/validate?token=${encodeURIComponent(forged)}`, { token: null }))
        .status,
    ).toBe(401);
    now += 24 * 3_600_000 + 1;
    expect(
      (await s.request('GET', `/auth/reset/validate?token=${encodeURIComponent(token)}`, { token: null }))
        .status,
    ).toBe(401);
    const editor = await s.user('Editor');
    expect(
      (await s.request('POST', '/api/admin/user-admin/reset-password', { ...asUser(editor), body: { id } }))
        .status,
    ).toBe(403);
    expect(
      (await s.request('POST', '/api/admin/user-admin/reset-password', { body: { id: 'nobody' } })).status,
    ).toBe(404);
  });
});
