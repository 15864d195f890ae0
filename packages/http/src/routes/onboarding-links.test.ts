import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/harness.js';

const STRONG = 'Correct-Horse-9-Battery';
const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function start(options: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  const s = await startTestServer(options);
  servers.push(s);
  return s;
}

/** The token a set-password or reset link carries. */
const tokenOf = (link: string): string => new URL(link).searchParams.get('token') ?? '';

/** A GET that does not follow redirects. */
const getManual = (s: TestServer, path: string) => fetch(`${s.base}${path}`, { redirect: 'manual' });

describe('POST /api/admin/user-admin answers a one-time set-password link', () => {
  it('is absolute on the request origin and mount path, and works once', async () => {
    const s = await start({ prefix: '/flags' });
    const created = await s.request('POST', '/api/admin/user-admin', {
      body: { email: 'newcomer@example.com', name: 'New Comer', rootRole: 'Viewer' },
    });
    expect(created.status, created.text).toBe(201);
    const link: string = created.body.inviteLink;
    expect(link).toMatch(new RegExp(`^${s.base}/new-user\\?token=`));
    const token = tokenOf(link);

    const valid = await s.request('GET', `/auth/reset/validate?token=${encodeURIComponent(token)}`, {
      token: null,
    });
    expect(valid.status, valid.text).toBe(200);
    expect(valid.body.email).toBe('newcomer@example.com');

    const weak = await s.request('POST', '/auth/reset/password', {
      token: null,
      body: { token, password: 'short' },
    });
    expect(weak.status).toBe(400);
    expect(weak.body.message).toMatch(/password/i);

    const set = await s.request('POST', '/auth/reset/password', {
      token: null,
      body: { token, password: STRONG },
    });
    expect(set.status, set.text).toBe(200);
    const login = await s.request('POST', '/auth/simple/login', {
      token: null,
      body: { username: 'newcomer@example.com', password: STRONG },
    });
    expect(login.status, login.text).toBe(200);

    const again = await s.request('POST', '/auth/reset/password', {
      token: null,
      body: { token, password: 'Another-Horse-8-Battery' },
    });
    expect(again.status).toBe(401);
    const revalidate = await s.request('GET', `/auth/reset/validate?token=${encodeURIComponent(token)}`, {
      token: null,
    });
    expect(revalidate.status).toBe(401);
  });

  it('uses the configured base URL when there is one', async () => {
    const s = await start({ flagstaff: { baseUrl: 'https://flags.example.com/' } });
    const created = await s.request('POST', '/api/admin/user-admin', {
      body: { email: 'based@example.com', rootRole: 'Editor' },
    });
    expect(created.body.inviteLink).toMatch(/^https:\/\/flags\.example\.com\/new-user\?token=/);
    const invite = await s.request('POST', '/api/admin/invite-link/tokens', {
      body: { name: 'team', expiresAt: new Date(Date.now() + 86_400_000).toISOString() },
    });
    expect(invite.body.url).toBe(`https://flags.example.com/new-user?invite=${invite.body.secret}`);
  });

  it('is not listed with the user afterwards', async () => {
    const s = await start();
    const created = await s.request('POST', '/api/admin/user-admin', {
      body: { email: 'once@example.com', rootRole: 'Viewer' },
    });
    const listed = await s.request('GET', `/api/admin/user-admin/${created.body.id}`);
    expect(listed.body.inviteLink).toBe('');
  });
});

describe('invite links and the reference public paths', () => {
  it('answers invite links with an absolute URL', async () => {
    const s = await start();
    const invite = await s.request('POST', '/api/admin/invite-link/tokens', {
      body: { name: 'team', expiresAt: new Date(Date.now() + 86_400_000).toISOString() },
    });
    expect(invite.status, invite.text).toBe(201);
    expect(invite.body.url).toBe(`${s.base}/new-user?invite=${invite.body.secret}`);
    const list = await s.request('GET', '/api/admin/invite-link/tokens');
    expect(list.body.tokens[0].url).toBe(invite.body.url);
    const one = await s.request('GET', `/api/admin/invite-link/tokens/${invite.body.secret}`);
    expect(one.body.url).toBe(invite.body.url);
  });

  it('redirects /new-user?invite= to the UI sign-up page and ?token= to its set-password page', async () => {
    const s = await start({ prefix: '/flags' });
    const invite = await getManual(s, '/new-user?invite=abc123');
    expect(invite.status).toBe(302);
    expect(invite.headers.get('location')).toBe('/flags/ui/signup?invite=abc123');
    const token = await getManual(s, '/new-user?token=1.2.x%2By');
    expect(token.status).toBe(302);
    expect(token.headers.get('location')).toBe('/flags/ui/new-user?token=1.2.x%2By');
    const reset = await getManual(s, '/reset-password?token=7.8.z');
    expect(reset.status).toBe(302);
    expect(reset.headers.get('location')).toBe('/flags/ui/reset-password?token=7.8.z');
  });

  it('makes reset links absolute too', async () => {
    const s = await start();
    const id = await s.user('Editor', 'forgetful@example.com');
    const res = await s.request('POST', '/api/admin/user-admin/reset-password', { body: { id } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.resetPasswordUrl).toMatch(new RegExp(`^${s.base}/reset-password\\?token=`));
  });
});
