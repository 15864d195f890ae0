import { z } from 'zod';
import { hashPassword, validatePassword, verifyPassword } from '../../auth/password.js';
import type { Principal } from '../../auth/principal.js';
import { changeOwnPasswordSchema, currentUserSchema, setUserPasswordSchema } from '../../domain/session.js';
import { ROLES, type UserView } from '../../domain/user.js';
import { FlagstaffError, invalid } from '../../errors.js';
import { defineOperation } from '../../operations/define-operation.js';
import { nowIso } from '../deps.js';
import { hashSessionId } from './session-ids.js';
import { storePassword } from './store-password.js';
import { requireUser, userView } from './user-view.js';

/** The view of a caller that is no stored user: admin tokens and unauthenticated mode look like an Admin. */
const principalView = (principal: Exclude<Principal, { kind: 'user' }>): UserView => ({
  id: 0,
  isAPI: principal.kind === 'api-token',
  name: principal.name,
  email: '',
  username: principal.name,
  imageUrl: '',
  inviteLink: '',
  loginAttempts: 0,
  emailSent: false,
  rootRole:
    principal.kind === 'api-token' && principal.tokenType !== 'admin' ? ROLES.Viewer.id : ROLES.Admin.id,
  seenAt: null,
  createdAt: new Date(0).toISOString(),
  accountType: principal.kind === 'api-token' ? 'Service Account' : 'User',
  permissions: [],
});

/**
 * GET /api/admin/user: the caller's user view and the permissions the policy grants it (the admin
 * UI's session). Admin tokens and unauthenticated mode get an Admin-like view (`isAPI: true` for
 * tokens). NOT_FOUND when the user of a user principal no longer exists.
 */
export const getCurrentUser = defineOperation({
  id: 'accounts.currentUser',
  summary: 'The signed-in user (or token) and the permissions it holds',
  kind: 'read',
  permission: 'NONE',
  input: z.object({}),
  output: currentUserSchema,
  run: async (_input, { deps, repos, caller }) => {
    const { principal } = caller;
    const permissions = await deps.policy.permissionsOf(caller);
    const user =
      principal.kind === 'user'
        ? userView(await requireUser(repos, principal.userId))
        : principalView(principal);
    return { user, permissions, feedback: [], splash: {} };
  },
});

/**
 * A signed-in user changes their own password, giving the current one. Every other session of
 * theirs ends; `currentSessionId` (the session making the request) stays. FORBIDDEN for anything
 * but a user (session or personal token); VALIDATION naming `password` (rules of
 * `validatePassword`), `confirmPassword` (differs) or `oldPassword` (wrong, or the user has none);
 * user-updated. Both hashes are computed before the transaction opens.
 */
export const changeOwnPassword = defineOperation({
  id: 'accounts.changePassword',
  summary: "Change the signed-in user's password (ends their other sessions)",
  kind: 'write',
  permission: 'USER',
  input: changeOwnPasswordSchema,
  output: z.void(),
  prepare: async (body, { deps, repos, caller }) => {
    validatePassword(body.password, 'password');
    if (body.confirmPassword !== undefined && body.confirmPassword !== body.password)
      throw invalid('confirmPassword', 'must be the same as "password".');
    const user = await requireUser(repos, deps.policy.requireUser(caller));
    if (!user.passwordHash || !(await verifyPassword(body.oldPassword, user.passwordHash)))
      throw invalid('oldPassword', 'is not your current password.');
    return { userId: user.id, oldHash: user.passwordHash, passwordHash: await hashPassword(body.password) };
  },
  run: async ({ currentSessionId }, { deps, repos, actor, prepared }) => {
    const before = await requireUser(repos, prepared.userId);
    if (before.passwordHash !== prepared.oldHash)
      throw new FlagstaffError('CONFLICT', 'The password changed meanwhile; try again.');
    const keep = currentSessionId === undefined ? undefined : hashSessionId(currentSessionId);
    await storePassword(repos, actor, before, prepared.passwordHash, keep, nowIso(deps));
  },
});

/**
 * An Admin sets another user's password; every session and personal access token of that user
 * ends. NOT_FOUND for an unknown user; VALIDATION naming `password`; user-updated.
 */
export const setUserPassword = defineOperation({
  id: 'accounts.setPassword',
  summary: "Set another user's password (ends their sessions)",
  kind: 'write',
  permission: 'ADMIN',
  input: setUserPasswordSchema,
  output: z.void(),
  prepare: async ({ id, password }, { repos }) => {
    validatePassword(password, 'password');
    await requireUser(repos, id);
    return hashPassword(password);
  },
  run: async ({ id }, { deps, repos, actor, prepared }) => {
    const before = await requireUser(repos, id);
    await storePassword(repos, actor, before, prepared, undefined, nowIso(deps), true);
  },
});
