import type { z } from 'zod';
import type { Caller } from '../../auth/caller.js';
import type {
  addProjectAccessSchema,
  projectAccessSchema,
  projectRolesSchema,
  roleAccessSchema,
} from '../../domain/user.js';
import type { OperationRunner } from '../../operations/run-operation.js';
import type { ServiceDeps } from '../deps.js';
import {
  addProjectAccess,
  addRoleAccess,
  listProjectAccess,
  removeGroupProjectAccess,
  removeUserProjectAccess,
  setGroupProjectRole,
  setGroupProjectRoles,
  setUserProjectRoles,
} from './project-access-operations.js';

export { addProjectAccessSchema } from '../../domain/user.js';

/** Who has which roles in a project, plus the roles that can be given there. */
export type ProjectAccessView = z.output<typeof projectAccessSchema>;

/**
 * Project access functions of the user service: role assignments of users and groups in projects.
 * Typed wrappers over `project-access-operations.ts`, which HTTP serves too.
 */
export function createProjectAccess(deps: ServiceDeps, run: OperationRunner) {
  const { store } = deps;
  return {
    /** Deprecated: gives the group exactly this role (project-group-role-changed). */
    setGroupProjectRole: (
      caller: Caller,
      projectId: string,
      groupId: number,
      roleId: number,
    ): Promise<void> => run(setGroupProjectRole, caller, { projectId, groupId, roleId }),

    /** Replaces the roles a user has in a project; an empty list removes access. */
    setUserProjectRoles: (
      caller: Caller,
      projectId: string,
      userId: number,
      roles: readonly number[],
    ): Promise<void> => run(setUserProjectRoles, caller, { projectId, userId, roles: [...roles] }),

    /** Replaces a group's roles in a project; an empty list removes its access. */
    setGroupProjectRoles: (
      caller: Caller,
      projectId: string,
      groupId: number,
      input: z.input<typeof projectRolesSchema>,
    ): Promise<void> => run(setGroupProjectRoles, caller, { ...input, projectId, groupId }),

    /** Takes every role the user or group has in the project; NOT_FOUND when it has none there. */
    removeProjectAccess: (
      caller: Caller,
      projectId: string,
      subject: { userId: number } | { groupId: number },
    ): Promise<void> =>
      'userId' in subject
        ? run(removeUserProjectAccess, caller, { projectId, userId: subject.userId })
        : run(removeGroupProjectAccess, caller, { projectId, groupId: subject.groupId }),

    /** Gives one role to the listed users and groups (project-access-added). */
    addRoleAccess: (
      caller: Caller,
      projectId: string,
      roleId: number,
      input: z.input<typeof roleAccessSchema>,
    ): Promise<void> => run(addRoleAccess, caller, { ...input, projectId, roleId }),

    /** Adds every role to every user and group, keeping roles they had (project-access-added). */
    addAccess: (
      caller: Caller,
      projectId: string,
      input: z.input<typeof addProjectAccessSchema>,
    ): Promise<void> => run(addProjectAccess, caller, { ...input, projectId }),

    /** Who has which roles in a project, plus the roles that can be given there. */
    listProjectAccess: (caller: Caller, projectId: string): Promise<ProjectAccessView> =>
      run(listProjectAccess, caller, { projectId }),

    /** Distinct users with a role in the project, directly or through a group (project overview). */
    async countProjectMembers(caller: Caller, projectId: string): Promise<number> {
      await deps.policy.require(caller, 'NONE', { project: projectId });
      const members = new Set<number>();
      for (const a of await store.projectAccess.list(projectId)) {
        if (a.userId !== null) members.add(a.userId);
        if (a.groupId !== null) for (const id of await store.groups.listUsers(a.groupId)) members.add(id);
      }
      return members.size;
    },
  };
}
