import type { Caller } from '../../auth/caller.js';
import type { CreateGroupInput, UpdateGroupInput } from '../../domain/user.js';
import type { OperationRunner } from '../../operations/run-operation.js';
import {
  addGroupUsers,
  createGroup,
  deleteGroup,
  getGroup,
  listGroups,
  removeGroupUser,
  updateGroup,
} from './group-operations.js';
import type { GroupView } from './user-view.js';

/**
 * Groups of users (reading them is for anyone signed in, changing them for Admins): typed wrappers
 * over `group-operations.ts`, which HTTP serves too.
 */
export function createGroupService(run: OperationRunner) {
  return {
    /** Every group with its members and the projects it has a role in. */
    list: async (caller: Caller): Promise<GroupView[]> => (await run(listGroups, caller, {})).groups,
    /** One group with its members and projects, or NOT_FOUND. */
    get: (caller: Caller, id: number): Promise<GroupView> => run(getGroup, caller, { id }),
    /** Creates a group (group-created) with its initial users (group-user-added). */
    create: (caller: Caller, input: CreateGroupInput): Promise<GroupView> => run(createGroup, caller, input),
    /** Changes a group; `users`, when given, becomes its whole membership. */
    update: (caller: Caller, id: number, input: UpdateGroupInput): Promise<GroupView> =>
      run(updateGroup, caller, { ...input, id }),
    /** Deletes a group; its members lose the project roles they had through it. */
    remove: (caller: Caller, id: number): Promise<void> => run(deleteGroup, caller, { id }),
    /** Adds users to a group; ones already in it are ignored. */
    addUsers: (caller: Caller, groupId: number, userIds: readonly number[]): Promise<GroupView> =>
      run(addGroupUsers, caller, { id: groupId, users: userIds.map((id) => ({ user: { id } })) }),
    /** Removes one user from a group; NOT_FOUND when they are not in it. */
    removeUser: (caller: Caller, groupId: number, userId: number): Promise<GroupView> =>
      run(removeGroupUser, caller, { id: groupId, userId }),
  };
}

export type GroupService = ReturnType<typeof createGroupService>;
