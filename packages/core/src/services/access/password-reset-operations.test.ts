import { beforeEach, describe, expect, it } from 'vitest';
import { callerOf } from '../../auth/caller.js';
import type { Flagstaff } from '../../flagstaff.js';
import { alice, createTestFlagstaff, type TestClock, userCaller } from '../test-support.js';
import {
  checkPasswordRules,
  checkPasswordRulesPublic,
  createResetLink,
  resetPasswordWithLink,
  validateResetLink,
} from './password-reset-operations.js';

const PASSWORD = 'Very-Secret-42';
const NEW_PASSWORD = 'Even-More-Secret-43';
const anyone = callerOf({ kind: 'anonymous', name: 'anonymous' });
let flagstaff: Flagstaff;
let clock: TestClock;
let annId: number;

const tokenOf = (url: string) => decodeURIComponent(new URL(url, 'http://x').searchParams.get('token')!);

beforeEach(async () => {
  ({ flagstaff, clock } = await createTestFlagstaff());
  const ann = await flagstaff.users.create(alice, { email: 'ann@example.com', username: 'ann' });
  annId = ann.id;
  await flagstaff.accounts.resetPassword(alice, annId, { password: PASSWORD });
});

describe('password reset operations', () => {
  it('make a link for Admins only, by id, e-mail or username; NOT_FOUND names what was given', async () => {
    for (const id of [annId, String(annId), 'ann@example.com', 'ann']) {
      const { resetPasswordUrl } = await flagstaff.run(createResetLink, alice, { id });
      expect(resetPasswordUrl).toMatch(/^\/reset-password\?token=/);
    }
    await expect(
      flagstaff.run(createResetLink, userCaller(annId, 'Editor'), { id: 'ann' }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await expect(flagstaff.run(createResetLink, alice, { id: 'nobody' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringContaining('nobody'),
    });
  });

  it('let anyone holding the link see whom it is for and set a password once; sessions end', async () => {
    const { sessionId } = await flagstaff.sessions.login({ username: 'ann', password: PASSWORD });
    const token = tokenOf((await flagstaff.run(createResetLink, alice, { id: 'ann' })).resetPasswordUrl);
    expect(await flagstaff.run(validateResetLink, anyone, { token })).toEqual({
      id: annId,
      name: null,
      email: 'ann@example.com',
      username: 'ann',
      token,
    });
    await expect(
      flagstaff.run(resetPasswordWithLink, anyone, { token, password: 'short' }),
    ).rejects.toMatchObject({ code: 'VALIDATION', details: { path: 'password' } });
    await flagstaff.run(resetPasswordWithLink, anyone, { token, password: NEW_PASSWORD });
    expect(await flagstaff.sessions.authenticate(sessionId)).toBeNull();
    await flagstaff.sessions.login({ username: 'ann', password: NEW_PASSWORD });
    const [event] = await flagstaff.store.events.search({ type: 'user-updated', limit: 1 });
    expect(event).toMatchObject({ createdBy: 'ann@example.com', createdByUserId: annId });
    // The link was for the old password: it is dead now.
    for (const attempt of [
      flagstaff.run(validateResetLink, anyone, { token }),
      flagstaff.run(resetPasswordWithLink, anyone, { token, password: NEW_PASSWORD }),
    ])
      await expect(attempt).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
  });

  it('refuse a link after 24 hours and a forged one', async () => {
    const token = tokenOf((await flagstaff.run(createResetLink, alice, { id: annId })).resetPasswordUrl);
    const [id, expires] = token.split('.');
    await expect(
      flagstaff.run(validateResetLink, anyone, { token: `${id}.${expires}.forged` }),
    ).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    clock.advance(24 * 60 * 60 * 1000);
    await expect(flagstaff.run(validateResetLink, anyone, { token })).rejects.toMatchObject({
      code: 'UNAUTHENTICATED',
    });
  });

  it('check a password against the rules: signed-in callers on the admin API, anyone on the public one', async () => {
    await flagstaff.run(checkPasswordRules, userCaller(annId, 'Viewer'), { password: NEW_PASSWORD });
    await flagstaff.run(checkPasswordRulesPublic, anyone, { password: NEW_PASSWORD });
    await expect(flagstaff.run(checkPasswordRules, anyone, { password: NEW_PASSWORD })).rejects.toMatchObject(
      { code: 'UNAUTHENTICATED' },
    );
    await expect(
      flagstaff.run(checkPasswordRulesPublic, anyone, { password: 'aaaaaaaaaaaa' }),
    ).rejects.toMatchObject({ code: 'VALIDATION', details: { path: 'password' } });
  });
});
