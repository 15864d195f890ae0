import type { Caller } from '../../auth/caller.js';
import { hashPassword, validatePassword } from '../../auth/password.js';
import type { ChangePasswordInput, CurrentUser, ResetPasswordInput } from '../../domain/session.js';
import { ROLES } from '../../domain/user.js';
import { FlagstaffError, invalid } from '../../errors.js';
import type { OperationRunner } from '../../operations/run-operation.js';
import { inTransaction, nowIso, type ServiceDeps, SYSTEM_ACTOR } from '../deps.js';
import { changeOwnPassword, getCurrentUser, setUserPassword } from './account-operations.js';
import { insertUser } from './user-operations.js';

/** What `ensureAdminUser` needs: the Admin's username (default `admin`) and password. */
export interface AdminBootstrap {
  username?: string;
  password: string;
}

/** The signed-in user's own account: who they are, their password; and the first Admin. */
export function createAccountService(deps: ServiceDeps, run: OperationRunner) {
  const { store } = deps;

  return {
    /** GET /api/admin/user: the caller's user view and permissions (operation `accounts.currentUser`). */
    currentUser: (caller: Caller): Promise<CurrentUser> => run(getCurrentUser, caller, {}),

    /**
     * A signed-in user changes their own password (operation `accounts.changePassword`); every
     * other session of theirs ends, `currentSessionId` (the session making the request) stays.
     */
    changePassword: (caller: Caller, input: ChangePasswordInput, currentSessionId?: string): Promise<void> =>
      run(changeOwnPassword, caller, { ...input, currentSessionId }),

    /**
     * An Admin sets another user's password (operation `accounts.setPassword`); every session and
     * personal access token of that user ends.
     */
    resetPassword: (caller: Caller, userId: number, input: ResetPasswordInput): Promise<void> =>
      run(setUserPassword, caller, { ...input, id: userId }),

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
