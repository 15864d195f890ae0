import { z } from 'zod';
import type { Caller } from '../../auth/caller.js';
import { seesProject } from '../../auth/principal.js';
import {
  addGroupUsersSchema,
  createGroupSchema,
  type GroupRecord,
  groupIdSchema,
  groupListSchema,
  groupSearchQuerySchema,
  groupSearchResultSchema,
  groupViewSchema,
  removeGroupUserSchema,
  updateGroupInputSchema,
} from '../../domain/user.js';
import { conflict, FlagstaffError, invalid } from '../../errors.js';
import { defineOperation, type OperationDeps } from '../../operations/define-operation.js';
import type { Repositories } from '../../ports/repositories.js';
import type { ReadRepositories } from '../../ports/store.js';
import { type Actor, nowIso } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';
import { type GroupView, groupView, requireGroup } from './user-view.js';

/** NOT_FOUND naming the index of the first id that is no user, so the caller knows which entry. */
async function requireUsers(repos: ReadRepositories, userIds: readonly number[]): Promise<void> {
  for (const [i, id] of userIds.entries())
    if (!(await repos.users.get(id)))
      throw new FlagstaffError('NOT_FOUND', `"users[${i}]": could not find user "${id}".`, {
        path: `users[${i}]`,
      });
}

/** A group's root role must be a root role (or none). */
async function requireRootRole(repos: ReadRepositories, roleId: number | null | undefined): Promise<void> {
  if (roleId == null) return;
  const role = await repos.roles.get(roleId);
  if (!role || role.type === 'project' || role.type === 'custom')
    throw invalid('rootRole', `must be a root role; ${roleId} is not one.`);
}

/** CONFLICT when another group already has the name. */
async function requireFreeName(repos: ReadRepositories, name: string, exceptId?: number): Promise<void> {
  if ((await repos.groups.list()).some((g) => g.name === name && g.id !== exceptId))
    throw conflict(`A group named "${name}" already exists.`, 'name');
}

/** Adds users to a group and writes group-user-added for those not already in it. */
async function addUsers(
  deps: OperationDeps,
  tx: Repositories,
  actor: Actor,
  groupId: number,
  userIds: readonly number[],
) {
  await requireUsers(tx, userIds);
  const at = nowIso(deps);
  const added = await tx.groups.addUsers(groupId, userIds, at);
  if (added.length > 0)
    await writeEvents(tx, actor, at, [{ type: 'group-user-added', data: { groupId, userIds: added } }]);
}

/** Removes users from a group and writes group-user-removed for those who were in it. */
async function removeUsers(
  deps: OperationDeps,
  tx: Repositories,
  actor: Actor,
  groupId: number,
  userIds: readonly number[],
) {
  const removed = await tx.groups.removeUsers(groupId, userIds);
  if (removed.length > 0)
    await writeEvents(tx, actor, nowIso(deps), [
      { type: 'group-user-removed', data: { groupId, userIds: removed } },
    ]);
}

/**
 * Adds to each view the projects its group has a role in; the policy says which projects the
 * caller sees, and the others are left out.
 */
async function withProjects(
  deps: OperationDeps,
  repos: ReadRepositories,
  caller: Caller,
  views: GroupView[],
): Promise<GroupView[]> {
  const [assignments, visibility] = await Promise.all([
    repos.projectAccess.list(),
    deps.policy.visibleProjects(caller),
  ]);
  return views.map((view) => ({
    ...view,
    projects: [
      ...new Set(
        assignments
          .filter((a) => a.groupId === view.id && seesProject(visibility, a.projectId))
          .map((a) => a.projectId),
      ),
    ].sort(),
  }));
}

const one = async (
  deps: OperationDeps,
  repos: ReadRepositories,
  caller: Caller,
  view: GroupView,
): Promise<GroupView> => (await withProjects(deps, repos, caller, [view]))[0] ?? view;

/** Every group with its members and the projects it has a role in. */
export const listGroups = defineOperation({
  id: 'groups.list',
  summary: 'List groups',
  kind: 'read',
  permission: 'NONE',
  input: z.object({}),
  output: groupListSchema,
  run: async (_input, { deps, repos, caller }) => {
    const groups = await repos.groups.list();
    const views = await Promise.all(groups.map((g) => groupView(repos, g)));
    return { groups: await withProjects(deps, repos, caller, views) };
  },
});

/**
 * Groups whose name or description holds q (any case), by name; at most 100, each with how many
 * users it has: what a picker asks while someone types, instead of loading every group.
 */
export const searchGroups = defineOperation({
  id: 'groups.search',
  summary: 'Search groups by name or description (q)',
  kind: 'read',
  permission: 'NONE',
  input: groupSearchQuerySchema,
  output: groupSearchResultSchema,
  run: async ({ q: raw }, { repos }) => {
    const q = raw.trim().toLowerCase();
    const matches = (await repos.groups.list())
      .filter((g) => q === '' || [g.name, g.description].some((v) => v?.toLowerCase().includes(q)))
      .sort((a, b) => a.name.localeCompare(b.name))
      .slice(0, 100);
    return Promise.all(
      matches.map(async (g) => ({
        id: g.id,
        name: g.name,
        userCount: (await repos.groups.listUsers(g.id)).length,
      })),
    );
  },
});

/** One group with its members and projects, or NOT_FOUND. */
export const getGroup = defineOperation({
  id: 'groups.get',
  summary: 'Get a group',
  kind: 'read',
  permission: 'NONE',
  input: groupIdSchema,
  output: groupViewSchema,
  run: async ({ id }, { deps, repos, caller }) =>
    one(deps, repos, caller, await groupView(repos, await requireGroup(repos, id))),
});

/** Creates a group (group-created) with its initial users (group-user-added). */
export const createGroup = defineOperation({
  id: 'groups.create',
  summary: 'Create a group',
  kind: 'write',
  permission: 'ADMIN',
  input: createGroupSchema,
  output: groupViewSchema,
  run: async (body, { deps, repos, actor, caller }) => {
    await requireFreeName(repos, body.name);
    await requireRootRole(repos, body.rootRole);
    const userIds = body.users.map((u) => u.user.id);
    await requireUsers(repos, userIds);
    const at = nowIso(deps);
    const group = await repos.groups.insert({
      name: body.name,
      description: body.description ?? null,
      rootRole: body.rootRole ?? null,
      createdAt: at,
      createdBy: actor.name,
    });
    await writeEvents(repos, actor, at, [{ type: 'group-created', data: group }]);
    await addUsers(deps, repos, actor, group.id, userIds);
    return one(deps, repos, caller, await groupView(repos, group));
  },
});

/**
 * Changes a group's name, description or root role (group-updated); `users`, when given, becomes
 * its whole membership (group-user-added / group-user-removed for the difference).
 */
export const updateGroup = defineOperation({
  id: 'groups.update',
  summary: 'Update a group (name, description, root role; `users`, when given, replaces its members)',
  kind: 'write',
  permission: 'ADMIN',
  input: updateGroupInputSchema,
  output: groupViewSchema,
  run: async ({ id, ...body }, { deps, repos, actor, caller }) => {
    const before = await requireGroup(repos, id);
    const after: GroupRecord = {
      ...before,
      name: body.name ?? before.name,
      description: body.description === undefined ? before.description : body.description,
      rootRole: body.rootRole === undefined ? before.rootRole : body.rootRole,
    };
    if (after.name !== before.name) await requireFreeName(repos, after.name, id);
    if (after.rootRole !== before.rootRole) await requireRootRole(repos, after.rootRole);
    if (body.users)
      await requireUsers(
        repos,
        body.users.map((u) => u.user.id),
      );
    if (
      after.name !== before.name ||
      after.description !== before.description ||
      after.rootRole !== before.rootRole
    ) {
      await repos.groups.update(after);
      await writeEvents(repos, actor, nowIso(deps), [
        { type: 'group-updated', data: after, preData: before },
      ]);
    }
    if (body.users) {
      const wanted = new Set(body.users.map((u) => u.user.id));
      const current = await repos.groups.listUsers(id);
      await removeUsers(
        deps,
        repos,
        actor,
        id,
        current.filter((u) => !wanted.has(u)),
      );
      await addUsers(deps, repos, actor, id, [...wanted]);
    }
    return one(deps, repos, caller, await groupView(repos, after));
  },
});

/** Deletes a group; its members lose the project roles they had through it (group-deleted). */
export const deleteGroup = defineOperation({
  id: 'groups.delete',
  summary: 'Delete a group; its members lose the project roles they had through it',
  kind: 'write',
  permission: 'ADMIN',
  input: groupIdSchema,
  output: z.void(),
  run: async ({ id }, { deps, repos, actor }) => {
    const before = await requireGroup(repos, id);
    const members = await repos.groups.listUsers(id);
    await repos.groups.delete(id);
    await writeEvents(repos, actor, nowIso(deps), [
      { type: 'group-deleted', preData: { ...before, userIds: members } },
    ]);
  },
});

/** Adds users to a group; ones already in it are ignored (group-user-added). */
export const addGroupUsers = defineOperation({
  id: 'groups.addUsers',
  summary: 'Add users to a group',
  kind: 'write',
  permission: 'ADMIN',
  input: addGroupUsersSchema,
  output: groupViewSchema,
  run: async ({ id, users }, { deps, repos, actor, caller }) => {
    const group = await requireGroup(repos, id);
    await addUsers(
      deps,
      repos,
      actor,
      id,
      users.map((u) => u.user.id),
    );
    return one(deps, repos, caller, await groupView(repos, group));
  },
});

/** Removes one user from a group (group-user-removed); NOT_FOUND when they are not in it. */
export const removeGroupUser = defineOperation({
  id: 'groups.removeUser',
  summary: 'Remove a user from a group',
  kind: 'write',
  permission: 'ADMIN',
  input: removeGroupUserSchema,
  output: groupViewSchema,
  run: async ({ id, userId }, { deps, repos, actor, caller }) => {
    const group = await requireGroup(repos, id);
    if (!(await repos.groups.listUsers(id)).includes(userId))
      throw new FlagstaffError('NOT_FOUND', `User "${userId}" is not a member of group "${group.name}".`);
    await removeUsers(deps, repos, actor, id, [userId]);
    return one(deps, repos, caller, await groupView(repos, group));
  },
});
