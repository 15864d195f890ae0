import type { Caller } from '../../auth/caller.js';
import type { CreateUserInput, Role, UpdateUserInput, UserView } from '../../domain/user.js';
import type { OperationRunner } from '../../operations/run-operation.js';
import type { ServiceDeps } from '../deps.js';
import { createGroupService } from './group-service.js';
import {
  createUser,
  getRole,
  getUser,
  listRoles,
  listUsers,
  removeUser,
  updateUser,
} from './user-operations.js';
import { createProjectAccess } from './user-project-access.js';

export { insertUser } from './user-operations.js';

/** What the user service needs from elsewhere. */
export interface UserServiceOptions {
  /** Runs the operations the typed wrappers stand for. */
  run: OperationRunner;
}

/**
 * Users, groups, roles and who has which role in which project: typed wrappers over
 * `user-operations.ts` and `group-operations.ts`, which HTTP serves too.
 */
export function createUserService(deps: ServiceDeps, { run }: UserServiceOptions) {
  return {
    /** Every user, ordered by id (Admins). */
    list: async (caller: Caller): Promise<UserView[]> => (await run(listUsers, caller, {})).users,

    /** One user or NOT_FOUND (Admins). */
    get: (caller: Caller, id: number): Promise<UserView> => run(getUser, caller, { id }),

    /**
     * Creates a user with a root role (default Viewer) (user-created). The answer's `inviteLink` is
     * the user's one-time set-password link (24 hours), when the instance can make one.
     */
    create: (caller: Caller, input: CreateUserInput): Promise<UserView> => run(createUser, caller, input),

    /**
     * Changes a user's name, e-mail and/or root role (user-updated). A new root role ends the
     * user's sessions. NOT_FOUND; VALIDATION naming the property; CONFLICT when the e-mail is taken.
     */
    update: (caller: Caller, id: number, input: UpdateUserInput): Promise<UserView> =>
      run(updateUser, caller, { ...input, id }),

    /** Deletes a user with their sessions, group memberships and project roles (user-deleted). NOT_FOUND. */
    remove: (caller: Caller, id: number): Promise<void> => run(removeUser, caller, { id }),

    groups: createGroupService(run),

    roles: {
      /** Every role (built-in root and project roles first), ordered by id. */
      list: async (caller: Caller): Promise<Role[]> => (await run(listRoles, caller, {})).roles,
      /** One role or NOT_FOUND. */
      get: (caller: Caller, id: number): Promise<Role> => run(getRole, caller, { id }),
    },

    ...createProjectAccess(deps, run),
  };
}

export type UserService = ReturnType<typeof createUserService>;
