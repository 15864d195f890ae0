import type { Caller } from '../../auth/caller.js';
import { hashPassword, validatePassword, verifyPassword } from '../../auth/password.js';
import { parseWith } from '../../domain/parse.js';
import { type CurrentUser, changePasswordSchema, resetPasswordSchema } from '../../domain/session.js';
import { ROLES, type UserRecord } from '../../domain/user.js';
import { FlagstaffError, invalid } from '../../errors.js';
import type { OperationRunner } from '../../operations/run-operation.js';
import type { Repositories } from '../../ports/repositories.js';
import { type Actor, inTransaction, nowIso, type ServiceDeps, SYSTEM_ACTOR } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';
import { getCurrentUser } from './account-operations.js';
import { hashSessionId } from './session-service.js';
import { insertUser } from './user-operations.js';
import { requireUser, userView } from './user-view.js';

/** What `ensureAdminUser` needs: the Admin's username (default `admin`) and password. */
export interface AdminBootstrap {
  username?: string;
  password: string;
}

/**
 * Stores a new password hash, ends the user's sessions (all, or all but `keepIdHash`) and writes
 * user-updated. The event says that the password changed, never what it is or its hash.
 *
 * `revokeTokens` also deletes the user's personal access tokens. A reset by an Admin (directly or
 * through a reset link) does: it is how an account someone else may control is taken back, and a
 * token made by that someone must not outlive it. A user changing their own password keeps their
 * tokens: they proved the old password and made those tokens themselves; they delete any they doubt.
 */
export async function storePassword(
  tx: Repositories,
  actor: Actor,
  before: UserRecord,
  passwordHash: string,
  keepIdHash: string | undefined,
  at: string,
  revokeTokens = false,
): Promise<void> {
  const after: UserRecord = { ...before, passwordHash };
  await tx.users.update(after);
  await tx.sessions.deleteForUser(before.id, keepIdHash);
  const revoked = revokeTokens ? await tx.personalTokens.deleteForUser(before.id) : 0;
  const data = {
    ...userView(after),
    passwordChanged: true,
    ...(revoked > 0 ? { personalTokensRevoked: revoked } : {}),
  };
  await writeEvents(tx, actor, at, [{ type: 'user-updated', data, preData: userView(before) }]);
}

/** The signed-in user's own account: who they are, their password; and the first Admin. */
export function createAccountService(deps: ServiceDeps, run: OperationRunner) {
  const { store } = deps;

  return {
    /** GET /api/admin/user: the caller's user view and permissions (operation `accounts.currentUser`). */
    currentUser: (caller: Caller): Promise<CurrentUser> => run(getCurrentUser, caller, {}),

    /**
     * A signed-in user changes their own password, giving the current one. Every other session of
     * theirs ends; `currentSessionId` (the session making the request) stays. FORBIDDEN for anything
     * but a user principal; VALIDATION naming `password` (rules of `validatePassword`),
     * `confirmPassword` (differs) or `oldPassword` (wrong, or the user has none); user-updated.
     */
    async changePassword(caller: Caller, input: unknown, currentSessionId?: string): Promise<void> {
      await deps.policy.require(caller, 'NONE');
      const { principal } = caller;
      if (principal.kind !== 'user')
        throw new FlagstaffError('FORBIDDEN', 'Only a signed-in user can change their own password.');
      const body = parseWith(changePasswordSchema, input);
      validatePassword(body.password, 'password');
      if (body.confirmPassword !== undefined && body.confirmPassword !== body.password)
        throw invalid('confirmPassword', 'must be the same as "password".');
      const user = await requireUser(store, principal.userId);
      if (!user.passwordHash || !(await verifyPassword(body.oldPassword, user.passwordHash)))
        throw invalid('oldPassword', 'is not your current password.');
      const passwordHash = await hashPassword(body.password);
      const actor: Actor = { name: principal.name, userId: principal.userId };
      await inTransaction(deps, async (tx) => {
        const before = await requireUser(tx, principal.userId);
        if (before.passwordHash !== user.passwordHash)
          throw new FlagstaffError('CONFLICT', 'The password changed meanwhile; try again.');
        const keep = currentSessionId === undefined ? undefined : hashSessionId(currentSessionId);
        await storePassword(tx, actor, before, passwordHash, keep, nowIso(deps));
      });
    },

    /**
     * An Admin sets another user's password (the route requires ADMIN); every session and personal
     * access token of that user ends. NOT_FOUND for an unknown user; VALIDATION naming `password`;
     * user-updated.
     */
    async resetPassword(caller: Caller, userId: number, input: unknown): Promise<void> {
      const actor = await deps.policy.permit(caller, 'ADMIN', {});
      const body = parseWith(resetPasswordSchema, input);
      validatePassword(body.password, 'password');
      await requireUser(store, userId);
      const passwordHash = await hashPassword(body.password);
      await inTransaction(deps, async (tx) => {
        const before = await requireUser(tx, userId);
        await storePassword(tx, actor, before, passwordHash, undefined, nowIso(deps), true);
      });
    },

    /**
     * First start: creates the Admin user `username` (default `admin`) with the password, only
     * while no user has a password. Returns whether it created the user. VALIDATION when the
     * password breaks the rules; CONFLICT when a user with that username exists (without a password).
     */
    async ensureAdminUser(input: AdminBootstrap): Promise<boolean> {
      const username = input.username ?? 'admin';
      if (username.trim() === '') throw invalid('username', 'must be a non-empty username.');
      validatePassword(input.password, 'password');
      if ((await store.users.countWithPassword()) > 0) return false;
      const passwordHash = await hashPassword(input.password);
      return inTransaction(deps, async (tx) => {
        // Another process may have bootstrapped meanwhile; transactions of a store are serialized.
        if ((await tx.users.countWithPassword()) > 0) return false;
        if (await tx.users.getByUsername(username))
          throw new FlagstaffError('CONFLICT', `A user with the username "${username}" already exists.`);
        await insertUser(tx, SYSTEM_ACTOR, nowIso(deps), {
          name: null,
          email: null,
          username,
          rootRole: ROLES.Admin.id,
          passwordHash,
        });
        return true;
      });
    },
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
