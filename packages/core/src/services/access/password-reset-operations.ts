import { z } from 'zod';
import { hashPassword, validatePassword } from '../../auth/password.js';
import {
  passwordCheckSchema,
  resetLinkAnswerSchema,
  resetLinkSchema,
  resetLinkUserSchema,
  resetTokenQuerySchema,
  resetWithTokenSchema,
} from '../../domain/password-reset.js';
import type { UserRecord } from '../../domain/user.js';
import { notFound } from '../../errors.js';
import { defineOperation } from '../../operations/define-operation.js';
import type { ReadRepositories } from '../../ports/store.js';
import { nowIso } from '../deps.js';
import { invalidResetLink } from './reset-links.js';
import { storePassword } from './store-password.js';

/** A user by id (a number, or digits), e-mail or username; NOT_FOUND naming what was given. */
async function findUser(repos: ReadRepositories, id: string | number): Promise<UserRecord> {
  if (typeof id === 'number' || /^\d+$/.test(id)) {
    const user = await repos.users.get(Number(id));
    if (user) return user;
  }
  const text = String(id);
  const user = (await repos.users.getByEmail(text)) ?? (await repos.users.getByUsername(text));
  if (!user) throw notFound('user', text);
  return user;
}

/**
 * A password reset link for a user (id, e-mail or username), valid 24 hours; Flagstaff sends no
 * e-mail, the Admin passes it on. Relative unless a base URL is configured.
 */
export const createResetLink = defineOperation({
  id: 'passwords.resetLink',
  summary: 'A password reset link for a user (id, e-mail or username), valid 24 hours; no e-mail is sent',
  kind: 'read',
  permission: 'ADMIN',
  input: resetLinkSchema,
  output: resetLinkAnswerSchema,
  run: async ({ id }, { deps, repos }) => ({
    resetPasswordUrl: deps.resetLinks.resetLink(await findUser(repos, id)),
  }),
});

/** Whom a reset link is for; UNAUTHENTICATED when it is invalid or has expired (anyone may ask). */
export const validateResetLink = defineOperation({
  id: 'passwords.validateResetLink',
  summary: 'Whom a password reset link is for (401 when invalid or expired)',
  kind: 'read',
  permission: 'PUBLIC',
  input: resetTokenQuerySchema,
  output: resetLinkUserSchema,
  run: async ({ token }, { deps, repos }) => {
    const user = await deps.resetLinks.userOf(repos, token);
    return { id: user.id, name: user.name, email: user.email, username: user.username, token };
  },
});

/**
 * Sets a new password with a reset link, which then no longer works. An Admin made the link, so
 * this is an Admin reset: the user's sessions and personal tokens end (user-updated, recorded as
 * the user). The link is checked and the password hashed before the transaction opens.
 */
export const resetPasswordWithLink = defineOperation({
  id: 'passwords.resetWithLink',
  summary: 'Set a new password with a reset link (the link then stops working)',
  kind: 'write',
  permission: 'PUBLIC',
  input: resetWithTokenSchema,
  output: z.void(),
  prepare: async ({ token, password }, { deps, repos }) => {
    validatePassword(password, 'password');
    const user = await deps.resetLinks.userOf(repos, token);
    return { userId: user.id, oldHash: user.passwordHash, passwordHash: await hashPassword(password) };
  },
  run: async (_body, { deps, repos, prepared }) => {
    const before = await repos.users.get(prepared.userId);
    // Used or changed meanwhile: the link was for the password it had.
    if (!before || before.passwordHash !== prepared.oldHash) throw invalidResetLink();
    const actor = { name: before.email ?? before.username ?? `user ${before.id}`, userId: before.id };
    await storePassword(repos, actor, before, prepared.passwordHash, undefined, nowIso(deps), true);
  },
});

async function checkPassword({ password }: z.output<typeof passwordCheckSchema>): Promise<void> {
  validatePassword(password, 'password');
}

/** Whether a password meets the rules: nothing, or VALIDATION naming what is missing (signed-in callers). */
export const checkPasswordRules = defineOperation({
  id: 'passwords.check',
  summary: 'Check a password against the rules (400 naming what is missing)',
  kind: 'read',
  permission: 'NONE',
  input: passwordCheckSchema,
  output: z.void(),
  run: checkPassword,
});

/** The same check for anyone, for the pages reset and invite links open. */
export const checkPasswordRulesPublic = defineOperation({
  id: 'passwords.checkPublic',
  summary: 'Check a password against the rules (400 naming what is missing)',
  kind: 'read',
  permission: 'PUBLIC',
  input: passwordCheckSchema,
  output: z.void(),
  run: checkPassword,
});
