// Sign-in floods over real loopback HTTP: each attempt costs a 32 MiB scrypt (a decoy one for
// unknown names), so the hashes in flight are bounded per client address and overall.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AddressedAnswer, requestFrom } from './testing/from-address.js';
import { startTestServer, type TestServer } from './testing/harness.js';

const PASSWORD = 'Correct-Horse-42';

const login = (
  base: string,
  username: string,
  password: string,
  from = '127.0.0.1',
): Promise<AddressedAnswer> =>
  requestFrom(base, 'POST', '/auth/simple/login', { from, body: { username, password } });

async function withUser(s: TestServer, username: string): Promise<void> {
  const created = await s.request('POST', '/api/admin/user-admin', {
    body: { email: `${username}@example.com`, username, rootRole: 'Viewer' },
  });
  const reset = await s.request('POST', `/api/admin/user-admin/${created.body.id}/change-password`, {
    body: { password: PASSWORD },
  });
  expect(reset.status, reset.text).toBe(200);
}

const bogus = (n: number) => `nobody-${n}-${Math.random().toString(36).slice(2)}`;

describe('login floods', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    await withUser(s, 'ann');
  });
  afterAll(() => s.close());

  it('F8: 40 parallel bogus logins from one address: the excess get 429 with Retry-After, and a valid login during the flood succeeds', async () => {
    const flood = Array.from({ length: 40 }, (_, i) =>
      login(s.base, bogus(i), 'Wrong-Secret-42', '127.0.0.2'),
    );
    const valid = login(s.base, 'ann', PASSWORD, '127.0.0.1');
    const [answers, ok] = await Promise.all([Promise.all(flood), valid]);

    expect(ok.status).toBe(200);
    const limited = answers.filter((a) => a.status === 429);
    // The address holds at most two hashes at once (the default share), so nearly all are refused;
    // a loaded machine may finish a hash before the last requests arrive, hence not exactly 38.
    expect(limited.length).toBeGreaterThanOrEqual(30);
    for (const a of limited) {
      expect(a.retryAfter).toBe('1');
      expect(a.body.name).toBe('TooManyRequestsError');
      expect(a.body.message).toContain('your address');
    }
    expect(answers.filter((a) => a.status !== 429).every((a) => a.status === 401)).toBe(true);
    // Nothing is held once the flood is over: the same address signs in normally.
    expect((await login(s.base, 'ann', PASSWORD, '127.0.0.2')).status).toBe(200);
  });
});

describe('login floods from many addresses', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ flagstaff: { loginHashLimits: { maxInFlight: 1, maxQueued: 2 } } });
    await withUser(s, 'bob');
  });
  afterAll(() => s.close());

  it('F8: past the overall bound every address gets 429 with Retry-After, and the bound frees again', async () => {
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => login(s.base, bogus(i), 'Wrong-Secret-42', `127.0.0.${10 + i}`)),
    );
    const limited = answers.filter((a) => a.status === 429);
    expect(limited.length).toBeGreaterThanOrEqual(6);
    for (const a of limited) {
      expect(a.retryAfter).toBe('1');
      expect(a.body.message).toContain('busy');
    }
    expect(answers.filter((a) => a.status !== 429).every((a) => a.status === 401)).toBe(true);
    expect((await login(s.base, 'bob', PASSWORD, '127.0.0.9')).status).toBe(200);
  });
});
