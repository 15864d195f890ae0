import { z } from 'zod';
import type { Caller } from '../../auth/caller.js';
import { parseWith } from '../../domain/parse.js';
import {
  type ProjectRoleAssignment,
  projectRolesSchema,
  type Role,
  roleAccessSchema,
  type UserView,
} from '../../domain/user.js';
import { FlagstaffError, invalid } from '../../errors.js';
import type { ReadRepositories } from '../../ports/store.js';
import { type Actor, inTransaction, nowIso, type ServiceDeps } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';
import { requireProject } from '../projects/project-service.js';
import { type GroupView, groupView, requireGroup, requireRole, requireUser, userView } from './user-view.js';

const idOrObject = z.union([z.number().int(), z.object({ id: z.number().int() }).transform((o) => o.id)]);

/** POST /projects/:p/access: every listed user and group gets every listed role. */
export const addProjectAccessSchema = z.object({
  roles: z.array(z.number().int()).min(1, 'must list at least one role'),
  users: z.array(idOrObject).default([]),
  groups: z.array(idOrObject).default([]),
});

/** A subject's roles in a project, as GET /projects/:p/access lists them. */
interface AccessFields {
  /** The first role, for clients that know only one role per subject. */
  roleId: number;
  roles: number[];
  addedAt: string;
}

export interface ProjectAccessView {
  roles: Role[];
  users: (UserView & AccessFields)[];
  groups: (GroupView & AccessFields)[];
}

const requireId = (path: string, value: number): number => {
  if (!Number.isSafeInteger(value)) throw invalid(path, 'must be an integer id.');
  return value;
};

/** Loads a role and insists it is one that can be given in a project. */
async function requireProjectRole(repos: ReadRepositories, roleId: number, path: string): Promise<Role> {
  const role = await requireRole(repos, requireId(path, roleId));
  if (role.type !== 'project' && role.type !== 'custom')
    throw invalid(path, `must be a project role; role ${roleId} ("${role.name}") is a root role.`);
  return role;
}

const rolesOf = (
  assignments: readonly ProjectRoleAssignment[],
  subject: { userId: number } | { groupId: number },
): number[] =>
  assignments
    .filter((a) => ('userId' in subject ? a.userId === subject.userId : a.groupId === subject.groupId))
    .map((a) => a.roleId);

/** Groups assignments by user or group id, keeping each subject's roles and first grant time. */
function bySubject(
  assignments: readonly ProjectRoleAssignment[],
  key: 'userId' | 'groupId',
): Map<number, AccessFields> {
  const out = new Map<number, AccessFields>();
  for (const a of assignments) {
    const id = a[key];
    if (id === null) continue;
    const entry = out.get(id);
    if (entry) entry.roles.push(a.roleId);
    else out.set(id, { roleId: a.roleId, roles: [a.roleId], addedAt: a.createdAt });
  }
  return out;
}

/** Project access functions of the user service: role assignments of users and groups in projects. */
export function createProjectAccess(deps: ServiceDeps) {
  const { store } = deps;
  /** Replaces a user's or group's roles in a project, with the event naming what it had before. */
  function replaceRoles(
    actor: Actor,
    projectId: string,
    subject: { userId: number } | { groupId: number },
    roleIds: readonly number[],
  ): Promise<void> {
    return inTransaction(deps, async (tx) => {
      await requireProject(tx, projectId);
      if ('userId' in subject) await requireUser(tx, requireId('userId', subject.userId));
      else await requireGroup(tx, requireId('groupId', subject.groupId));
      for (const [i, r] of roleIds.entries()) await requireProjectRole(tx, r, `roles[${i}]`);
      const roles = [...new Set(roleIds)];
      const before = rolesOf(await tx.projectAccess.list(projectId), subject);
      await tx.projectAccess.setRoles(projectId, subject, roles, nowIso(deps));
      await writeEvents(tx, actor, nowIso(deps), [
        {
          type:
            'userId' in subject ? 'project-access-user-roles-updated' : 'project-access-group-roles-updated',
          project: projectId,
          data: { ...subject, roles },
          preData: { ...subject, roles: before },
        },
      ]);
    });
  }

  const service = {
    /** Deprecated PUT /projects/:p/groups/:g/roles/:r: gives the group exactly this role (project-group-role-changed). */
    async setGroupProjectRole(
      caller: Caller,
      projectId: string,
      groupId: number,
      roleId: number,
    ): Promise<void> {
      const actor = await deps.policy.permit(caller, 'UPDATE_PROJECT', { project: projectId });
      return inTransaction(deps, async (tx) => {
        await requireProject(tx, projectId);
        await requireGroup(tx, requireId('groupId', groupId));
        await requireProjectRole(tx, roleId, 'roleId');
        const before = rolesOf(await tx.projectAccess.list(projectId), { groupId });
        await tx.projectAccess.setRoles(projectId, { groupId }, [roleId], nowIso(deps));
        await writeEvents(tx, actor, nowIso(deps), [
          {
            type: 'project-group-role-changed',
            project: projectId,
            data: { groupId, roleId },
            preData: { groupId, roles: before },
          },
        ]);
      });
    },

    /** Replaces the roles a user has in a project; an empty list removes access (project-access-user-roles-updated). */
    async setUserProjectRoles(
      caller: Caller,
      projectId: string,
      userId: number,
      roleIds: readonly number[],
    ): Promise<void> {
      const actor = await deps.policy.permit(caller, 'UPDATE_PROJECT', { project: projectId });
      await replaceRoles(actor, projectId, { userId }, roleIds);
    },

    /** PUT /projects/:p/groups/:g/roles: replaces the group's roles; an empty list removes its access (project-access-group-roles-updated). */
    async setGroupProjectRoles(
      caller: Caller,
      projectId: string,
      groupId: number,
      input: unknown,
    ): Promise<void> {
      const actor = await deps.policy.permit(caller, 'UPDATE_PROJECT', { project: projectId });
      const { roles } = parseWith(projectRolesSchema, input);
      await replaceRoles(actor, projectId, { groupId }, roles);
    },

    /**
     * DELETE /projects/:p/users/:u/roles and /groups/:g/roles: takes every role the subject has in
     * the project (project-access-user-roles-deleted / -group-roles-deleted). NOT_FOUND when the
     * subject does not exist or has no role there, so a stale page learns it was already gone.
     */
    async removeProjectAccess(
      caller: Caller,
      projectId: string,
      subject: { userId: number } | { groupId: number },
    ): Promise<void> {
      const actor = await deps.policy.permit(caller, 'UPDATE_PROJECT', { project: projectId });
      return inTransaction(deps, async (tx) => {
        await requireProject(tx, projectId);
        const name =
          'userId' in subject
            ? (await requireUser(tx, requireId('userId', subject.userId))).email
            : (await requireGroup(tx, requireId('groupId', subject.groupId))).name;
        const before = rolesOf(await tx.projectAccess.list(projectId), subject);
        if (before.length === 0)
          throw new FlagstaffError(
            'NOT_FOUND',
            `${'userId' in subject ? 'User' : 'Group'} "${name ?? Object.values(subject)[0]}" has no role in project "${projectId}".`,
          );
        await tx.projectAccess.setRoles(projectId, subject, [], nowIso(deps));
        await writeEvents(tx, actor, nowIso(deps), [
          {
            type:
              'userId' in subject
                ? 'project-access-user-roles-deleted'
                : 'project-access-group-roles-deleted',
            project: projectId,
            preData: { ...subject, roles: before },
          },
        ]);
      });
    },

    /** POST /projects/:p/role/:r/access: gives one role to the listed users and groups (project-access-added). */
    async addRoleAccess(caller: Caller, projectId: string, roleId: number, input: unknown): Promise<void> {
      await deps.policy.require(caller, 'UPDATE_PROJECT', { project: projectId });
      const body = parseWith(roleAccessSchema, input);
      return service.addAccess(caller, projectId, { roles: [roleId], ...body });
    },

    /** POST /projects/:p/access: adds every role to every user and group, keeping roles they had (project-access-added). */
    async addAccess(caller: Caller, projectId: string, input: unknown): Promise<void> {
      const actor = await deps.policy.permit(caller, 'UPDATE_PROJECT', { project: projectId });
      const body = parseWith(addProjectAccessSchema, input);
      if (body.users.length === 0 && body.groups.length === 0)
        throw new FlagstaffError('VALIDATION', '"users" must list at least one user (or "groups" a group).', {
          path: 'users',
        });
      return inTransaction(deps, async (tx) => {
        await requireProject(tx, projectId);
        for (const [i, r] of body.roles.entries()) await requireProjectRole(tx, r, `roles[${i}]`);
        for (const id of body.users) await requireUser(tx, id);
        for (const id of body.groups) await requireGroup(tx, id);
        const existing = await tx.projectAccess.list(projectId);
        const at = nowIso(deps);
        for (const userId of new Set(body.users)) {
          const roles = [...new Set([...rolesOf(existing, { userId }), ...body.roles])];
          await tx.projectAccess.setRoles(projectId, { userId }, roles, at);
        }
        for (const groupId of new Set(body.groups)) {
          const roles = [...new Set([...rolesOf(existing, { groupId }), ...body.roles])];
          await tx.projectAccess.setRoles(projectId, { groupId }, roles, at);
        }
        await writeEvents(tx, actor, at, [
          {
            type: 'project-access-added',
            project: projectId,
            data: { roles: body.roles, users: body.users, groups: body.groups },
          },
        ]);
      });
    },

    /** Who has which roles in a project, plus the roles that can be given there. */
    async listProjectAccess(caller: Caller, projectId: string): Promise<ProjectAccessView> {
      await deps.policy.require(caller, 'NONE', { project: projectId });
      await requireProject(store, projectId);
      const assignments = await store.projectAccess.list(projectId);
      const users: ProjectAccessView['users'] = [];
      for (const [id, access] of bySubject(assignments, 'userId')) {
        const user = await store.users.get(id);
        if (user) users.push({ ...userView(user), ...access });
      }
      const groups: ProjectAccessView['groups'] = [];
      for (const [id, access] of bySubject(assignments, 'groupId')) {
        const group = await store.groups.get(id);
        if (group) groups.push({ ...(await groupView(store, group)), ...access });
      }
      const roles = (await store.roles.list()).filter((r) => r.type === 'project' || r.type === 'custom');
      return { roles, users, groups };
    },

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
  return service;
}
