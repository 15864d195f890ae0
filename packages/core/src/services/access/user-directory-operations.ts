import { z } from 'zod';
import {
  accessCandidatesSchema,
  adminCountSchema,
  inactiveDeletedSchema,
  inactiveDeleteSchema,
  inactiveUsersSchema,
  ROLES,
  type Role,
  type UserRecord,
  userProfileSchema,
  userRolesSchema,
  userSearchQuerySchema,
  userSearchResultSchema,
} from '../../domain/user.js';
import { defineOperation } from '../../operations/define-operation.js';
import type { ReadRepositories } from '../../ports/store.js';
import { deleteUser } from './user-operations.js';
import { userView } from './user-view.js';

/** A user counts as inactive after this long without signing in (the reference's 180 days). */
const INACTIVE_MS = 180 * 24 * 60 * 60 * 1000;

const inactive = (user: UserRecord, now: number): boolean =>
  Date.parse(user.seenAt ?? user.createdAt) < now - INACTIVE_MS;

/** The short user the reference's access and search lists use. */
const brief = (user: UserRecord) => {
  const view = userView(user);
  return {
    id: view.id,
    name: view.name,
    email: view.email,
    username: view.username,
    imageUrl: view.imageUrl,
    accountType: view.accountType,
  };
};

/** A user's root role, their project roles and the projects they have roles in. */
async function rolesOf(
  repos: ReadRepositories,
  userId: number,
): Promise<{ root: Role | null; project: Role[]; projects: string[] }> {
  const user = await repos.users.get(userId);
  const roles = await repos.roles.list();
  const root = roles.find((r) => r.id === user?.rootRole) ?? null;
  const assignments = await repos.projectAccess.forUser(userId, await repos.groups.groupsOf(userId));
  return {
    root,
    project: roles.filter((r) => assignments.some((a) => a.roleId === r.id)),
    projects: [...new Set(assignments.map((a) => a.projectId))].sort(),
  };
}

/** The signed-in user's root role and the projects they have roles in (users only, no API token). */
export const getUserProfile = defineOperation({
  id: 'users.profile',
  summary: "The signed-in user's root role and the projects they have roles in",
  kind: 'read',
  permission: 'USER',
  input: z.object({}),
  output: userProfileSchema,
  run: async (_input, { deps, repos, caller }) => {
    const { root, projects } = await rolesOf(repos, deps.policy.requireUser(caller));
    return { rootRole: root ?? ROLES.Viewer, projects, subscriptions: [], features: [] };
  },
});

/** The signed-in user's root role and project roles (users only). */
export const getUserRoles = defineOperation({
  id: 'users.roles',
  summary: "The signed-in user's roles",
  kind: 'read',
  permission: 'USER',
  input: z.object({}),
  output: userRolesSchema,
  run: async (_input, { deps, repos, caller }) => {
    const { root, project } = await rolesOf(repos, deps.policy.requireUser(caller));
    return [...(root ? [root] : []), ...project];
  },
});

/** Users (not service accounts) whose name, e-mail or username contain q; at most 100. */
export const searchUsers = defineOperation({
  id: 'users.search',
  summary: 'Search users by name, e-mail or username (q)',
  kind: 'read',
  permission: 'NONE',
  input: userSearchQuerySchema,
  output: userSearchResultSchema,
  run: async ({ q: raw }, { repos }) => {
    const q = raw.trim().toLowerCase();
    const matches = (await repos.users.list()).filter(
      (u) =>
        u.accountType === 'User' &&
        (q === '' || [u.name, u.email, u.username].some((v) => v?.toLowerCase().includes(q))),
    );
    return matches.slice(0, 100).map(brief);
  },
});

/** Users and groups that can be given access. */
export const listAccessCandidates = defineOperation({
  id: 'users.accessCandidates',
  summary: 'Users and groups that can be given access',
  kind: 'read',
  permission: 'NONE',
  input: z.object({}),
  output: accessCandidatesSchema,
  run: async (_input, { repos }) => {
    const groups = await repos.groups.list();
    return {
      users: (await repos.users.list()).map(brief),
      groups: await Promise.all(
        groups.map(async (g) => ({
          id: g.id,
          name: g.name,
          userCount: (await repos.groups.listUsers(g.id)).length,
        })),
      ),
    };
  },
});

/** Root Admins with and without a password, and Admin service accounts (Admins). */
export const countAdmins = defineOperation({
  id: 'users.adminCount',
  summary: 'How many root Admins there are, with and without a password, and service accounts',
  kind: 'read',
  permission: 'ADMIN',
  input: z.object({}),
  output: adminCountSchema,
  run: async (_input, { repos }) => {
    const admins = (await repos.users.list()).filter((u) => u.rootRole === ROLES.Admin.id);
    const people = admins.filter((u) => u.accountType === 'User');
    return {
      password: people.filter((u) => u.passwordHash !== null).length,
      noPassword: people.filter((u) => u.passwordHash === null).length,
      service: admins.length - people.length,
    };
  },
});

/** Users not seen for 180 days (Admins). */
export const listInactiveUsers = defineOperation({
  id: 'users.inactive',
  summary: 'Users who have not signed in for 180 days',
  kind: 'read',
  permission: 'ADMIN',
  input: z.object({}),
  output: inactiveUsersSchema,
  run: async (_input, { deps, repos }) => {
    const now = deps.clock.now().getTime();
    const inactiveUsers = (await repos.users.list())
      .filter((u) => u.accountType === 'User' && inactive(u, now))
      .map((u) => ({ ...brief(u), seenAt: u.seenAt, createdAt: u.createdAt }));
    return { version: 1 as const, inactiveUsers };
  },
});

/**
 * Deletes those of the listed users that are inactive (an active one in the list is left alone),
 * each with user-deleted, as `users.remove` does. Never the caller. Admins.
 */
export const deleteInactiveUsers = defineOperation({
  id: 'users.deleteInactive',
  summary: 'Delete those of the listed users that are inactive',
  kind: 'write',
  permission: 'ADMIN',
  input: inactiveDeleteSchema,
  output: inactiveDeletedSchema,
  run: async ({ ids }, { deps, repos, actor, caller }) => {
    const now = deps.clock.now().getTime();
    const self = caller.principal.kind === 'user' ? caller.principal.userId : null;
    const deleted: number[] = [];
    for (const id of new Set(ids)) {
      const user = await repos.users.get(id);
      if (!user || id === self || !inactive(user, now)) continue;
      await deleteUser(deps, repos, actor, user);
      deleted.push(id);
    }
    return { deleted };
  },
});
