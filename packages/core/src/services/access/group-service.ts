import type { Caller } from '../../auth/caller.js';
import { seesProject } from '../../auth/principal.js';
import { parseWith } from '../../domain/parse.js';
import { createGroupSchema, type GroupRecord, updateGroupSchema } from '../../domain/user.js';
import { conflict, FlagstaffError, invalid } from '../../errors.js';
import type { Repositories } from '../../ports/repositories.js';
import type { ReadRepositories } from '../../ports/store.js';
import { type Actor, inTransaction, nowIso, type ServiceDeps } from '../deps.js';
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

/** Groups of users: create, edit, membership, delete. Changing groups is for Admins. */
export function createGroupService(deps: ServiceDeps) {
  const { store } = deps;

  /** Adds users to a group and writes group-user-added for those not already in it. */
  async function addUsers(tx: Repositories, actor: Actor, groupId: number, userIds: readonly number[]) {
    await requireUsers(tx, userIds);
    const at = nowIso(deps);
    const added = await tx.groups.addUsers(groupId, userIds, at);
    if (added.length > 0)
      await writeEvents(tx, actor, at, [{ type: 'group-user-added', data: { groupId, userIds: added } }]);
  }

  /** Removes users from a group and writes group-user-removed for those who were in it. */
  async function removeUsers(tx: Repositories, actor: Actor, groupId: number, userIds: readonly number[]) {
    const removed = await tx.groups.removeUsers(groupId, userIds);
    if (removed.length > 0)
      await writeEvents(tx, actor, nowIso(deps), [
        { type: 'group-user-removed', data: { groupId, userIds: removed } },
      ]);
  }

  /** Adds to each view the projects its group has a role in, leaving out those the caller may not see. */
  async function withProjects(caller: Caller, views: GroupView[]): Promise<GroupView[]> {
    const [assignments, visibility] = await Promise.all([
      store.projectAccess.list(),
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

  /** `withProjects` for one view (read after a command commits, so it sees what the command wrote). */
  const one = async (caller: Caller, view: GroupView): Promise<GroupView> =>
    (await withProjects(caller, [view]))[0] ?? view;

  return {
    /** Every group with its members and the projects it has a role in. */
    async list(caller: Caller): Promise<GroupView[]> {
      await deps.policy.require(caller, 'NONE', {});
      const groups = await store.groups.list();
      return withProjects(caller, await Promise.all(groups.map((g) => groupView(store, g))));
    },

    /** One group with its members and projects, or NOT_FOUND. */
    async get(caller: Caller, id: number): Promise<GroupView> {
      await deps.policy.require(caller, 'NONE', {});
      return one(caller, await groupView(store, await requireGroup(store, id)));
    },

    /** Creates a group (group-created) with its initial users (group-user-added). */
    async create(caller: Caller, input: unknown): Promise<GroupView> {
      const actor = await deps.policy.permit(caller, 'ADMIN', {});
      const body = parseWith(createGroupSchema, input);
      return one(
        caller,
        await inTransaction(deps, async (tx) => {
          await requireFreeName(tx, body.name);
          await requireRootRole(tx, body.rootRole);
          const userIds = body.users.map((u) => u.user.id);
          await requireUsers(tx, userIds);
          const at = nowIso(deps);
          const group = await tx.groups.insert({
            name: body.name,
            description: body.description ?? null,
            rootRole: body.rootRole ?? null,
            createdAt: at,
            createdBy: actor.name,
          });
          await writeEvents(tx, actor, at, [{ type: 'group-created', data: group }]);
          await addUsers(tx, actor, group.id, userIds);
          return groupView(tx, group);
        }),
      );
    },

    /**
     * Changes a group's name, description or root role (group-updated); `users`, when given, becomes
     * its whole membership (group-user-added / group-user-removed for the difference).
     */
    async update(caller: Caller, id: number, input: unknown): Promise<GroupView> {
      const actor = await deps.policy.permit(caller, 'ADMIN', {});
      const body = parseWith(updateGroupSchema, input);
      return one(
        caller,
        await inTransaction(deps, async (tx) => {
          const before = await requireGroup(tx, id);
          const after: GroupRecord = {
            ...before,
            name: body.name ?? before.name,
            description: body.description === undefined ? before.description : body.description,
            rootRole: body.rootRole === undefined ? before.rootRole : body.rootRole,
          };
          if (after.name !== before.name) await requireFreeName(tx, after.name, id);
          if (after.rootRole !== before.rootRole) await requireRootRole(tx, after.rootRole);
          if (body.users)
            await requireUsers(
              tx,
              body.users.map((u) => u.user.id),
            );
          if (
            after.name !== before.name ||
            after.description !== before.description ||
            after.rootRole !== before.rootRole
          ) {
            await tx.groups.update(after);
            await writeEvents(tx, actor, nowIso(deps), [
              { type: 'group-updated', data: after, preData: before },
            ]);
          }
          if (body.users) {
            const wanted = new Set(body.users.map((u) => u.user.id));
            const current = await tx.groups.listUsers(id);
            await removeUsers(
              tx,
              actor,
              id,
              current.filter((u) => !wanted.has(u)),
            );
            await addUsers(tx, actor, id, [...wanted]);
          }
          return groupView(tx, after);
        }),
      );
    },

    /** Deletes a group; its members lose the project roles they had through it (group-deleted). */
    async remove(caller: Caller, id: number): Promise<void> {
      const actor = await deps.policy.permit(caller, 'ADMIN', {});
      return inTransaction(deps, async (tx) => {
        const before = await requireGroup(tx, id);
        const members = await tx.groups.listUsers(id);
        await tx.groups.delete(id);
        await writeEvents(tx, actor, nowIso(deps), [
          { type: 'group-deleted', preData: { ...before, userIds: members } },
        ]);
      });
    },

    /** Adds users to a group; ones already in it are ignored (group-user-added). */
    async addUsers(caller: Caller, groupId: number, userIds: readonly number[]): Promise<GroupView> {
      const actor = await deps.policy.permit(caller, 'ADMIN', {});
      return one(
        caller,
        await inTransaction(deps, async (tx) => {
          const group = await requireGroup(tx, groupId);
          await addUsers(tx, actor, groupId, userIds);
          return groupView(tx, group);
        }),
      );
    },

    /** Removes one user from a group (group-user-removed); NOT_FOUND when they are not in it. */
    async removeUser(caller: Caller, groupId: number, userId: number): Promise<GroupView> {
      const actor = await deps.policy.permit(caller, 'ADMIN', {});
      return one(
        caller,
        await inTransaction(deps, async (tx) => {
          const group = await requireGroup(tx, groupId);
          if (!(await tx.groups.listUsers(groupId)).includes(userId))
            throw new FlagstaffError(
              'NOT_FOUND',
              `User "${userId}" is not a member of group "${group.name}".`,
            );
          await removeUsers(tx, actor, groupId, [userId]);
          return groupView(tx, group);
        }),
      );
    },
  };
}

export type GroupService = ReturnType<typeof createGroupService>;
