import { randomBytes, scryptSync } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { SYSTEM } from '../../auth/caller.js';
import { createFlagstaff, type Flagstaff } from '../../flagstaff.js';
import { createMemoryStore } from '../../memory/index.js';
import { withWriteTransactions } from '../../testing/write-transactions.js';
import { createTestClock, createTestFlagstaff, type TestClock } from '../test-support.js';
import { signIn } from './session-operations.js';
import { hashSessionId } from './session-service.js';

const PASSWORD = 'Very-Secret-42';
let flagstaff: Flagstaff;
let clock: TestClock;
let annId: number;

/** Ann, an Editor with e-mail Ann@Example.com, username ann and PASSWORD. */
async function addAnn(f: Flagstaff): Promise<number> {
  const ann = await f.users.create(SYSTEM, {
    name: 'Ann',
    email: 'Ann@Example.com',
    username: 'ann',
    rootRole: 'Editor',
  });
  await f.accounts.resetPassword(SYSTEM, ann.id, { password: PASSWORD });
  return ann.id;
}

beforeEach(async () => {
  ({ flagstaff, clock } = await createTestFlagstaff());
  annId = await addAnn(flagstaff);
});

const failure = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail('expected a failure'),
    (e: unknown) => e,
  );

describe('login', () => {
  it('takes a username or an e-mail in any case, and opens a session that authenticates', async () => {
    const result = await flagstaff.sessions.login({ username: 'ann', password: PASSWORD, ip: '10.1.2.3' });
    expect(result.sessionId).toMatch(/^[0-9a-f]{64}$/);
    expect(result.expiresAt).toBe('2026-01-03T00:00:00.000Z');
    expect(result.user).toMatchObject({ id: annId, username: 'ann', email: 'Ann@Example.com', rootRole: 2 });
    expect(result.user).not.toHaveProperty('passwordHash');
    expect(await flagstaff.sessions.authenticate(result.sessionId)).toEqual({
      kind: 'user',
      userId: annId,
      name: 'Ann@Example.com',
      rootRole: 'Editor',
    });
    const byEmail = await flagstaff.sessions.login({ username: 'ANN@example.com', password: PASSWORD });
    expect(byEmail.user.id).toBe(annId);
    expect((await flagstaff.store.users.get(annId))?.seenAt).toBe('2026-01-01T00:00:00.000Z');
  });

  it('stores only a hash of the session id', async () => {
    const { sessionId } = await flagstaff.sessions.login({
      username: 'ann',
      password: PASSWORD,
      ip: '10.1.2.3',
    });
    expect(await flagstaff.store.sessions.get(sessionId)).toBeNull();
    expect(await flagstaff.store.sessions.get(hashSessionId(sessionId))).toMatchObject({
      userId: annId,
      ip: '10.1.2.3',
    });
  });

  it('answers a wrong password, an unknown user and a user without a password alike', async () => {
    await flagstaff.users.create(SYSTEM, { username: 'nopass' });
    const errors = await Promise.all([
      failure(flagstaff.sessions.login({ username: 'ann', password: 'Wrong-Secret-42' })),
      failure(flagstaff.sessions.login({ username: 'nobody', password: PASSWORD })),
      failure(flagstaff.sessions.login({ username: 'nopass', password: PASSWORD })),
      failure(flagstaff.sessions.login({ username: 'Ann', password: PASSWORD })),
    ]);
    for (const error of errors)
      expect(error).toMatchObject({
        code: 'UNAUTHENTICATED',
        message: 'The combination of password and username you provided is invalid.',
      });
  });

  it('refuses malformed bodies naming the property, storing nothing', async () => {
    await expect(flagstaff.sessions.login({ username: '', password: 'x' })).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('"username"'),
    });
    await expect(flagstaff.run.unknown(signIn, SYSTEM, { username: 'ann' })).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('"password"'),
    });
    expect(await flagstaff.store.loginThrottles.get('ann')).toBeNull();
  });

  it('upgrades a hash in the first format on a successful login', async () => {
    const salt = randomBytes(16).toString('hex');
    const old = `scrypt$${salt}$${scryptSync(PASSWORD, salt, 32).toString('hex')}`;
    const ann = (await flagstaff.store.users.get(annId))!;
    await withWriteTransactions(flagstaff.store).users.update({ ...ann, passwordHash: old });
    await flagstaff.sessions.login({ username: 'ann', password: PASSWORD });
    expect((await flagstaff.store.users.get(annId))?.passwordHash).toMatch(/^\$scrypt\$ln=15,/);
    await flagstaff.sessions.login({ username: 'ann', password: PASSWORD });
  });
});

describe('login throttling', () => {
  const fail = (f: Flagstaff, username = 'ann') =>
    failure(f.sessions.login({ username, password: 'Wrong-Secret-42' }));

  it('locks a name after 5 failures for 5 minutes, even for the right password; success resets', async () => {
    for (let i = 0; i < 5; i++) expect(await fail(flagstaff)).toMatchObject({ code: 'UNAUTHENTICATED' });
    clock.advance(1000);
    expect(await failure(flagstaff.sessions.login({ username: 'ANN', password: PASSWORD }))).toMatchObject({
      code: 'RATE_LIMITED',
      message: 'Too many failed logins for ann; try again in 299 seconds.',
      details: { retryAfterSeconds: 299 },
    });
    clock.advance(299_000);
    await flagstaff.sessions.login({ username: 'ann', password: PASSWORD });
    expect(await flagstaff.store.loginThrottles.get('ann')).toBeNull();
    for (let i = 0; i < 4; i++) await fail(flagstaff);
    await flagstaff.sessions.login({ username: 'ann', password: PASSWORD });
  });

  it('counts unknown names too, and forgets failures older than the window', async () => {
    for (let i = 0; i < 4; i++) await fail(flagstaff, 'ghost');
    clock.advance(16 * 60_000);
    await fail(flagstaff, 'ghost');
    expect(await flagstaff.store.loginThrottles.get('ghost')).toMatchObject({
      failures: 1,
      lockedUntil: null,
    });
  });

  it('is shared by every process over one store, with configurable limits', async () => {
    const store = createMemoryStore();
    const shared = createTestClock();
    const options = { store, clock: shared, loginThrottle: { maxFailures: 3, lockMs: 60_000 } };
    const one = await createFlagstaff(options);
    const two = await createFlagstaff(options);
    await addAnn(one);
    await fail(one);
    await fail(two);
    await fail(one);
    expect(await fail(two)).toMatchObject({ code: 'RATE_LIMITED', details: { retryAfterSeconds: 60 } });
    shared.advance(60_000);
    await two.sessions.login({ username: 'ann', password: PASSWORD });
  });
});

describe('sessions', () => {
  it('end after 48 idle hours; use extends them, written at most once a minute', async () => {
    const { sessionId } = await flagstaff.sessions.login({ username: 'ann', password: PASSWORD });
    const stored = () => flagstaff.store.sessions.get(hashSessionId(sessionId));
    clock.advance(30_000);
    await flagstaff.sessions.authenticate(sessionId);
    expect((await stored())?.lastSeenAt).toBe('2026-01-01T00:00:00.000Z');
    clock.advance(40_000);
    await flagstaff.sessions.authenticate(sessionId);
    // The stamp is written in its own transaction after the answer: let it land.
    await new Promise((resolve) => setImmediate(resolve));
    expect(await stored()).toMatchObject({
      lastSeenAt: '2026-01-01T00:01:10.000Z',
      expiresAt: '2026-01-03T00:01:10.000Z',
    });
    clock.set('2026-01-03T00:01:09.999Z');
    expect(await flagstaff.sessions.authenticate(sessionId)).not.toBeNull();
    await new Promise((resolve) => setImmediate(resolve));
    // That use extended the session by another 48 hours from then.
    clock.set('2026-01-05T00:01:09.998Z');
    expect(await flagstaff.sessions.authenticate(sessionId)).not.toBeNull();
    clock.advance(48 * 3_600_000);
    expect(await flagstaff.sessions.authenticate(sessionId)).toBeNull();
  });

  it('take their idle lifetime from the options', async () => {
    const short = await createFlagstaff({ store: flagstaff.store, clock, sessionIdleTtlMs: 10 * 60_000 });
    const { sessionId, expiresAt } = await short.sessions.login({ username: 'ann', password: PASSWORD });
    expect(expiresAt).toBe('2026-01-01T00:10:00.000Z');
    clock.advance(10 * 60_000);
    expect(await short.sessions.authenticate(sessionId)).toBeNull();
    await expect(createFlagstaff({ store: createMemoryStore(), sessionIdleTtlMs: 5 })).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('sessionIdleTtlMs'),
    });
  });

  it('follow the user: a new root role applies at once, a deleted user is signed out', async () => {
    const { sessionId } = await flagstaff.sessions.login({ username: 'ann', password: PASSWORD });
    const ann = (await flagstaff.store.users.get(annId))!;
    await withWriteTransactions(flagstaff.store).users.update({ ...ann, rootRole: 3 });
    expect(await flagstaff.sessions.authenticate(sessionId)).toMatchObject({ rootRole: 'Viewer' });
    await withWriteTransactions(flagstaff.store).users.delete(annId);
    expect(await flagstaff.sessions.authenticate(sessionId)).toBeNull();
    expect(await flagstaff.store.sessions.get(hashSessionId(sessionId))).toBeNull();
  });

  it('logout ends one session; unknown and malformed ids are nobody', async () => {
    const first = await flagstaff.sessions.login({ username: 'ann', password: PASSWORD });
    const second = await flagstaff.sessions.login({ username: 'ann', password: PASSWORD });
    await flagstaff.sessions.logout(first.sessionId);
    await flagstaff.sessions.logout(first.sessionId);
    await flagstaff.sessions.logout('not-a-session');
    expect(await flagstaff.sessions.authenticate(first.sessionId)).toBeNull();
    expect(await flagstaff.sessions.authenticate(second.sessionId)).not.toBeNull();
    expect(await flagstaff.sessions.authenticate('0'.repeat(64))).toBeNull();
    expect(await flagstaff.sessions.authenticate('short')).toBeNull();
    expect(await flagstaff.sessions.logoutUser(annId)).toBe(1);
    expect(await flagstaff.sessions.authenticate(second.sessionId)).toBeNull();
  });
});
