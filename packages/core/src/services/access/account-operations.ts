import { z } from 'zod';
import type { Principal } from '../../auth/principal.js';
import { currentUserSchema } from '../../domain/session.js';
import { ROLES, type UserView } from '../../domain/user.js';
import { defineOperation } from '../../operations/define-operation.js';
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
