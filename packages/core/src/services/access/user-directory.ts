import type { z } from 'zod';
import type { Caller } from '../../auth/caller.js';
import type {
  accessCandidatesSchema,
  adminCountSchema,
  inactiveDeleteSchema,
  inactiveUsersSchema,
  Role,
  UserView,
  userProfileSchema,
  userSearchQuerySchema,
  userSearchResultSchema,
} from '../../domain/user.js';
import type { OperationRunner } from '../../operations/run-operation.js';
import {
  countAdmins,
  deleteInactiveUsers,
  getUserProfile,
  getUserRoles,
  listAccessCandidates,
  listInactiveUsers,
  searchUsers,
} from './user-directory-operations.js';

export { inactiveDeleteSchema, userSearchQuerySchema } from '../../domain/user.js';

/**
 * The user directory beyond create/update/delete: the signed-in user's profile and roles, search,
 * the admin count, inactive users, and who can be given access. Typed wrappers over
 * `user-directory-operations.ts`, which HTTP serves too.
 */
export function createUserDirectory(run: OperationRunner) {
  return {
    /** The signed-in user's root role and the projects they have roles in. */
    profile: (caller: Caller): Promise<z.output<typeof userProfileSchema>> => run(getUserProfile, caller, {}),
    /** The signed-in user's root role and project roles. */
    roles: (caller: Caller): Promise<Role[]> => run(getUserRoles, caller, {}),
    /** Users whose name, e-mail or username contain q. */
    search: (
      caller: Caller,
      query: z.input<typeof userSearchQuerySchema>,
    ): Promise<z.output<typeof userSearchResultSchema>> => run(searchUsers, caller, query),
    /** Users and groups that can be given access. */
    access: (caller: Caller): Promise<z.output<typeof accessCandidatesSchema>> =>
      run(listAccessCandidates, caller, {}),
    /** Root Admins with and without a password, and service accounts (Admins). */
    adminCount: (caller: Caller): Promise<z.output<typeof adminCountSchema>> => run(countAdmins, caller, {}),
    /** Users not seen for 180 days (Admins). */
    inactive: (caller: Caller): Promise<z.output<typeof inactiveUsersSchema>> =>
      run(listInactiveUsers, caller, {}),
    /** Deletes those of the users that are inactive; never the caller (Admins). */
    deleteInactive: (
      caller: Caller,
      input: z.input<typeof inactiveDeleteSchema>,
    ): Promise<{ deleted: number[] }> => run(deleteInactiveUsers, caller, input),
  };
}

export type UserDirectory = ReturnType<typeof createUserDirectory>;
export type { UserView };
