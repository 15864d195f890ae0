import { z } from 'zod';
import {
  addProjectAccessInputSchema,
  addRoleAccessInputSchema,
  type ProjectRoleAssignment,
  projectAccessProjectSchema,
  projectAccessSchema,
  projectGroupSchema,
  projectUserSchema,
  type Role,
  setGroupProjectRoleSchema,
  setGroupProjectRolesSchema,
  setUserProjectRolesSchema,
} from '../../domain/user.js';
import { FlagstaffError, invalid } from '../../errors.js';
import { defineOperation, type OperationDeps } from '../../operations/define-operation.js';
import type { Repositories } from '../../ports/repositories.js';
import type { ReadRepositories } from '../../ports/store.js';
import { type Actor, nowIso } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';
import { requireProject } from '../projects/project-service.js';
import { groupView, requireGroup, requireRole, requireUser, userView } from './user-view.js';

type Subject = { userId: number } | { groupId: number };

/** Every project access operation is judged in the project of its path. */
const projectScope = (input: { projectId?: string | undefined }) => ({ project: input.projectId });

/** Loads a role and insists it is one that can be given in a project. */
async function requireProjectRole(repos: ReadRepositories, roleId: number, path: string): Promise<Role> {
  const role = await requireRole(repos, roleId);
  if (role.type !== 'project' && role.type !== 'custom')
    throw invalid(path, `must be a project role; role ${roleId} ("${role.name}") is a root role.`);
  return role;
}

const rolesOf = (assignments: readonly ProjectRoleAssignment[], subject: Subject): number[] =>
  assignments
    .filter((a) => ('userId' in subject ? a.userId === subject.userId : a.groupId === subject.groupId))
    .map((a) => a.roleId);

interface AccessFields {
  roleId: number;
  roles: number[];
  addedAt: string;
}

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

/** Replaces a user's or group's roles in a project, with the event naming what it had before. */
async function replaceRoles(
  deps: OperationDeps,
  tx: Repositories,
  actor: Actor,
  projectId: string,
  subject: Subject,
  roleIds: readonly number[],
): Promise<void> {
  await requireProject(tx, projectId);
  if ('userId' in subject) await requireUser(tx, subject.userId);
  else await requireGroup(tx, subject.groupId);
  for (const [i, r] of roleIds.entries()) await requireProjectRole(tx, r, `roles[${i}]`);
  const roles = [...new Set(roleIds)];
  const before = rolesOf(await tx.projectAccess.list(projectId), subject);
  await tx.projectAccess.setRoles(projectId, subject, roles, nowIso(deps));
  await writeEvents(tx, actor, nowIso(deps), [
    {
      type: 'userId' in subject ? 'project-access-user-roles-updated' : 'project-access-group-roles-updated',
      project: projectId,
      data: { ...subject, roles },
      preData: { ...subject, roles: before },
    },
  ]);
}

/** Takes every role the subject has in the project; NOT_FOUND when it has none there. */
async function removeAccess(
  deps: OperationDeps,
  tx: Repositories,
  actor: Actor,
  projectId: string,
  subject: Subject,
): Promise<void> {
  await requireProject(tx, projectId);
  const name =
    'userId' in subject
      ? (await requireUser(tx, subject.userId)).email
      : (await requireGroup(tx, subject.groupId)).name;
  const before = rolesOf(await tx.projectAccess.list(projectId), subject);
  if (before.length === 0)
    throw new FlagstaffError(
      'NOT_FOUND',
      `${'userId' in subject ? 'User' : 'Group'} "${name ?? Object.values(subject)[0]}" has no role in project "${projectId}".`,
    );
  await tx.projectAccess.setRoles(projectId, subject, [], nowIso(deps));
  await writeEvents(tx, actor, nowIso(deps), [
    {
      type: 'userId' in subject ? 'project-access-user-roles-deleted' : 'project-access-group-roles-deleted',
      project: projectId,
      preData: { ...subject, roles: before },
    },
  ]);
}

/** Adds every role to every user and group, keeping roles they had (project-access-added). */
async function addAccess(
  deps: OperationDeps,
  tx: Repositories,
  actor: Actor,
  projectId: string,
  body: { roles: number[]; users: number[]; groups: number[] },
): Promise<void> {
  if (body.users.length === 0 && body.groups.length === 0)
    throw new FlagstaffError('VALIDATION', '"users" must list at least one user (or "groups" a group).', {
      path: 'users',
    });
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
}

/** Who has which roles in a project, plus the roles that can be given there. */
export const listProjectAccess = defineOperation({
  id: 'projectAccess.list',
  summary: 'List who has which role in a project',
  kind: 'read',
  permission: 'NONE',
  scope: projectScope,
  input: projectAccessProjectSchema,
  output: projectAccessSchema,
  run: async ({ projectId }, { repos }) => {
    await requireProject(repos, projectId);
    const assignments = await repos.projectAccess.list(projectId);
    const users = [];
    for (const [id, access] of bySubject(assignments, 'userId')) {
      const user = await repos.users.get(id);
      if (user) users.push({ ...userView(user), ...access });
    }
    const groups = [];
    for (const [id, access] of bySubject(assignments, 'groupId')) {
      const group = await repos.groups.get(id);
      if (group) groups.push({ ...(await groupView(repos, group)), ...access });
    }
    const roles = (await repos.roles.list()).filter((r) => r.type === 'project' || r.type === 'custom');
    return { roles, users, groups };
  },
});

/** Adds every listed role to every listed user and group, keeping roles they had (project-access-added). */
export const addProjectAccess = defineOperation({
  id: 'projectAccess.add',
  summary: 'Give users and groups roles in a project',
  kind: 'write',
  permission: 'UPDATE_PROJECT',
  scope: projectScope,
  input: addProjectAccessInputSchema,
  output: z.void(),
  run: async ({ projectId, ...body }, { deps, repos, actor }) =>
    addAccess(deps, repos, actor, projectId, body),
});

/** Gives one role to the listed users and groups (project-access-added). */
export const addRoleAccess = defineOperation({
  id: 'projectAccess.addRole',
  summary: 'Give one role in a project to users and groups',
  kind: 'write',
  permission: 'UPDATE_PROJECT',
  scope: projectScope,
  input: addRoleAccessInputSchema,
  output: z.void(),
  run: async ({ projectId, roleId, users, groups }, { deps, repos, actor }) =>
    addAccess(deps, repos, actor, projectId, { roles: [roleId], users, groups }),
});

/** Replaces the roles a user has in a project; an empty list removes access (project-access-user-roles-updated). */
export const setUserProjectRoles = defineOperation({
  id: 'projectAccess.setUserRoles',
  summary: "Set a user's roles in a project",
  kind: 'write',
  permission: 'UPDATE_PROJECT',
  scope: projectScope,
  input: setUserProjectRolesSchema,
  output: z.void(),
  run: ({ projectId, userId, roles }, { deps, repos, actor }) =>
    replaceRoles(deps, repos, actor, projectId, { userId }, roles),
});

/** Replaces a group's roles in a project; an empty list removes its access (project-access-group-roles-updated). */
export const setGroupProjectRoles = defineOperation({
  id: 'projectAccess.setGroupRoles',
  summary: "Set a group's roles in a project (an empty list removes its access)",
  kind: 'write',
  permission: 'UPDATE_PROJECT',
  scope: projectScope,
  input: setGroupProjectRolesSchema,
  output: z.void(),
  run: ({ projectId, groupId, roles }, { deps, repos, actor }) =>
    replaceRoles(deps, repos, actor, projectId, { groupId }, roles),
});

/** Deprecated: gives the group exactly this role (project-group-role-changed). */
export const setGroupProjectRole = defineOperation({
  id: 'projectAccess.setGroupRole',
  summary: "Set a group's role in a project",
  kind: 'write',
  permission: 'UPDATE_PROJECT',
  scope: projectScope,
  input: setGroupProjectRoleSchema,
  output: z.void(),
  run: async ({ projectId, groupId, roleId }, { deps, repos, actor }) => {
    await requireProject(repos, projectId);
    await requireGroup(repos, groupId);
    await requireProjectRole(repos, roleId, 'roleId');
    const before = rolesOf(await repos.projectAccess.list(projectId), { groupId });
    await repos.projectAccess.setRoles(projectId, { groupId }, [roleId], nowIso(deps));
    await writeEvents(repos, actor, nowIso(deps), [
      {
        type: 'project-group-role-changed',
        project: projectId,
        data: { groupId, roleId },
        preData: { groupId, roles: before },
      },
    ]);
  },
});

/** Removes a user from a project (every role they have there); NOT_FOUND when they have none. */
export const removeUserProjectAccess = defineOperation({
  id: 'projectAccess.removeUser',
  summary: 'Remove a user from a project (every role they have there)',
  kind: 'write',
  permission: 'UPDATE_PROJECT',
  scope: projectScope,
  input: projectUserSchema,
  output: z.void(),
  run: ({ projectId, userId }, { deps, repos, actor }) =>
    removeAccess(deps, repos, actor, projectId, { userId }),
});

/** Removes a group from a project (every role it has there); NOT_FOUND when it has none. */
export const removeGroupProjectAccess = defineOperation({
  id: 'projectAccess.removeGroup',
  summary: 'Remove a group from a project (every role it has there)',
  kind: 'write',
  permission: 'UPDATE_PROJECT',
  scope: projectScope,
  input: projectGroupSchema,
  output: z.void(),
  run: ({ projectId, groupId }, { deps, repos, actor }) =>
    removeAccess(deps, repos, actor, projectId, { groupId }),
});
