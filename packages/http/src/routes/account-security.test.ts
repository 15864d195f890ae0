import { createHash, createHmac, hkdfSync } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { errorBody, startTestServer, type TestServer } from '../testing/harness.js';

/**
 * Findings of the outside review on accounts: reset links (F3), what an Admin's reset revokes and
 * how long personal tokens live (F19), and what invite sign-up tells about existing users (F20).
 */
const SERVER_KEY = 'test-server-key-0123456789abcdef0123456789abcdef';
const STRONG = 'Correct-Horse-9-Battery';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function start(options: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  const s = await startTestServer(options);
  servers.push(s);
  return s;
}

const asUser = (id: number) => ({ token: null, headers: { 'x-test-user': String(id) } });

/** A reset token as the service builds one, signed under `key`. */
async function forge(s: TestServer, userId: number, expires: number, key: string | Buffer): Promise<string> {
  const user = await s.flagstaff.store.users.get(userId);
  const signature = createHmac('sha256', key)
    .update(`${userId}.${expires}.${user?.passwordHash ?? ''}`)
    .digest('base64url');
  return `${userId}.${expires}.${signature}`;
}

/** The link key, derived as docs/security.md says: HKDF-SHA256 of the server key, its own label. */
const linkKey = (serverKey: string): Buffer =>
  Buffer.from(hkdfSync('sha256', serverKey, '', 'flagstaff password-reset link v1', 32));

async function validate(s: TestServer, token: string) {
  return s.request('GET', `/auth/reset/validate?token=${encodeURIComponent(token)}`, { token: null });
}

async function userWithPassword(s: TestServer, email: string): Promise<number> {
  const id = await s.user('Editor', email);
  const set = await s.request('POST', `/api/admin/user-admin/${id}/change-password`, {
    body: { password: STRONG },
  });
  expect(set.status, set.text).toBe(200);
  return id;
}

async function login(s: TestServer, username: string, password = STRONG): Promise<string> {
  const res = await s.request('POST', '/auth/simple/login', { token: null, body: { username, password } });
  expect(res.status, res.text).toBe(200);
  return res.headers.get('set-cookie')?.split(';')[0] ?? '';
}

async function makePat(s: TestServer, userId: number, expiresAt = new Date(Date.now() + 30 * DAY)) {
  return s.request('POST', '/api/admin/user/tokens', {
    ...asUser(userId),
    body: { description: 'ci', expiresAt: expiresAt.toISOString() },
  });
}

describe('password reset links (F3)', () => {
  it('F3: a reset link signed with a key from the database copy is refused', async () => {
    const s = await start({ flagstaff: { secretKey: SERVER_KEY } });
    const id = await userWithPassword(s, 'victim@example.com');
    const made = await s.request('POST', '/api/admin/user-admin/reset-password', { body: { id } });
    expect(made.status, made.text).toBe(200);
    // Making a link stores no key: a backup holds nothing that signs one.
    expect(await s.flagstaff.store.settings.get('password-reset.key')).toBeNull();
    // The old settings row, as an older version wrote it (and a backup may still hold it).
    const oldKey = 'ab'.repeat(32);
    await s.flagstaff.store.transaction((tx) => tx.settings.set('password-reset.key', oldKey));
    const expires = Date.now() + HOUR;
    // The sealing key (SHA-256 of the server key) is not the link key either.
    const sealingKey = createHash('sha256').update(SERVER_KEY).digest();
    for (const key of [oldKey, sealingKey, SERVER_KEY]) {
      const token = await forge(s, id, expires, key);
      expect((await validate(s, token)).status).toBe(401);
      const reset = await s.request('POST', '/auth/reset/password', {
        token: null,
        body: { token, password: `${STRONG}-forged` },
      });
      expect(reset.status).toBe(401);
      expect(errorBody(reset).message).toContain('invalid or has expired');
    }
    await login(s, 'victim@example.com');
  });

  it('F3: a link whose expiry lies more than 24 hours ahead is refused, though signed with the right key', async () => {
    const s = await start({ flagstaff: { secretKey: SERVER_KEY } });
    const id = await userWithPassword(s, 'far@example.com');
    const key = linkKey(SERVER_KEY);
    const farAhead = await forge(s, id, Date.now() + 25 * HOUR, key);
    expect((await validate(s, farAhead)).status).toBe(401);
    const year2099 = await forge(s, id, Date.parse('2099-01-01T00:00:00Z'), key);
    const reset = await s.request('POST', '/auth/reset/password', {
      token: null,
      body: { token: year2099, password: `${STRONG}-late` },
    });
    expect(reset.status).toBe(401);
    // The same key with an expiry within 24 hours works: the refusal above is the expiry's.
    expect((await validate(s, await forge(s, id, Date.now() + HOUR, key))).status).toBe(200);
  });

  it('F3: a normal link works once, with or without a server key', async () => {
    for (const secretKey of [SERVER_KEY, undefined]) {
      const s = await start({ flagstaff: secretKey === undefined ? {} : { secretKey } });
      const id = await userWithPassword(s, 'normal@example.com');
      const made = await s.request('POST', '/api/admin/user-admin/reset-password', { body: { id } });
      const token = new URL(made.body.resetPasswordUrl, 'http://x').searchParams.get('token') ?? '';
      expect((await validate(s, token)).body).toMatchObject({ id, email: 'normal@example.com' });
      const reset = await s.request('POST', '/auth/reset/password', {
        token: null,
        body: { token, password: 'Brand-New-Pass-77' },
      });
      expect(reset.status, reset.text).toBe(200);
      await login(s, 'normal@example.com', 'Brand-New-Pass-77');
      expect((await validate(s, token)).status).toBe(401);
      expect(await s.flagstaff.store.settings.get('password-reset.key')).toBeNull();
    }
  });
});

describe('password resets and personal access tokens (F19)', () => {
  it("F19: an Admin setting a user's password ends the user's sessions and personal access tokens", async () => {
    const s = await start();
    const id = await userWithPassword(s, 'taken@example.com');
    const cookie = await login(s, 'taken@example.com');
    const pat = await makePat(s, id);
    expect(pat.status, pat.text).toBe(201);
    expect((await s.request('GET', '/api/admin/projects', { token: pat.body.secret })).status).toBe(200);
    const reset = await s.request('POST', `/api/admin/user-admin/${id}/change-password`, {
      body: { password: 'Taken-Back-Pass-55' },
    });
    expect(reset.status, reset.text).toBe(200);
    expect((await s.request('GET', '/api/admin/projects', { token: pat.body.secret })).status).toBe(401);
    expect((await s.request('GET', '/api/admin/user', { token: null, headers: { cookie } })).status).toBe(
      401,
    );
    expect((await s.request('GET', '/api/admin/user/tokens', asUser(id))).body.pats).toEqual([]);
  });

  it("F19: a reset link ends the user's sessions and personal access tokens", async () => {
    const s = await start();
    const id = await userWithPassword(s, 'linked@example.com');
    const cookie = await login(s, 'linked@example.com');
    const pat = await makePat(s, id);
    const made = await s.request('POST', '/api/admin/user-admin/reset-password', { body: { id } });
    const token = new URL(made.body.resetPasswordUrl, 'http://x').searchParams.get('token') ?? '';
    const reset = await s.request('POST', '/auth/reset/password', {
      token: null,
      body: { token, password: 'Linked-New-Pass-66' },
    });
    expect(reset.status, reset.text).toBe(200);
    expect((await s.request('GET', '/api/admin/projects', { token: pat.body.secret })).status).toBe(401);
    expect((await s.request('GET', '/api/admin/user', { token: null, headers: { cookie } })).status).toBe(
      401,
    );
  });

  it('F19: a user changing their own password keeps their personal access tokens', async () => {
    const s = await start();
    const id = await userWithPassword(s, 'own@example.com');
    const cookie = await login(s, 'own@example.com');
    const pat = await makePat(s, id);
    const changed = await s.request('POST', '/api/admin/user/change-password', {
      token: null,
      headers: { cookie, 'sec-fetch-site': 'same-origin' },
      body: { oldPassword: STRONG, password: 'Own-New-Pass-88' },
    });
    expect(changed.status, changed.text).toBe(200);
    expect((await s.request('GET', '/api/admin/projects', { token: pat.body.secret })).status).toBe(200);
  });

  it('F19: a personal access token expiring beyond the lifetime limit (default 365 days) is a 400 naming it', async () => {
    const s = await start();
    const id = await s.user('Editor');
    const in2099 = await makePat(s, id, new Date('2099-01-01T00:00:00Z'));
    expect(in2099.status).toBe(400);
    expect(errorBody(in2099).message).toContain('expiresAt');
    expect(errorBody(in2099).message).toContain('365 days');
    expect((await makePat(s, id, new Date(Date.now() + 366 * DAY))).status).toBe(400);
    expect((await makePat(s, id, new Date(Date.now() + 364 * DAY))).status).toBe(201);

    const short = await start({ flagstaff: { personalTokenMaxLifetimeDays: 30 } });
    const other = await short.user('Editor');
    const tooLong = await makePat(short, other, new Date(Date.now() + 31 * DAY));
    expect(tooLong.status).toBe(400);
    expect(errorBody(tooLong).message).toContain('30 days');
    expect((await makePat(short, other, new Date(Date.now() + 29 * DAY))).status).toBe(201);
  });
});

describe('invite sign-up (F20)', () => {
  it('F20: signing up with a taken e-mail or username is a 400 that does not tell whether the account exists', async () => {
    const s = await start();
    await s.request('POST', '/api/admin/user-admin', {
      body: { email: 'known@example.com', username: 'known', rootRole: 'Viewer' },
    });
    const invite = await s.request('POST', '/api/admin/invite-link/tokens', {
      body: { name: 'team', expiresAt: new Date(Date.now() + DAY).toISOString() },
    });
    expect(invite.status, invite.text).toBe(201);
    const signup = (body: object) =>
      s.request('POST', `/invite/${invite.body.secret}/signup`, { token: null, body });
    const takenEmail = await signup({ email: 'KNOWN@example.com', password: STRONG });
    const takenUsername = await signup({ email: 'fresh@example.com', username: 'known', password: STRONG });
    for (const res of [takenEmail, takenUsername]) {
      expect(res.status).toBe(400);
      const { message } = errorBody(res);
      expect(message).toMatch(/^Could not sign up with these details/);
      expect(message.toLowerCase()).not.toMatch(/known@|exists|taken|already/);
    }
    expect(errorBody(takenEmail).message).toBe(errorBody(takenUsername).message);
    expect((await signup({ email: 'new@example.com', password: STRONG })).status).toBe(200);
  });
});
