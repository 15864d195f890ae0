import { z } from 'zod';
import type { Caller } from '../../auth/caller.js';
import { parseWith } from '../../domain/parse.js';
import { ROLES, type Role, type UserRecord, type UserView } from '../../domain/user.js';
import { FlagstaffError } from '../../errors.js';
import type { ServiceDeps } from '../deps.js';
import type { UserService } from './user-service.js';
import { userView } from './user-view.js';

/** A user counts as inactive after this long without signing in (the reference's 180 days). */
const INACTIVE_MS = 180 * 24 * 60 * 60 * 1000;

export const userSearchQuerySchema = z.object({
  q: z.string().max(100, 'must be at most 100 characters').default(''),
});
export const inactiveDeleteSchema = z.object({
  ids: z.array(z.number().int('must hold user ids')).max(1_000, 'must list at most 1000 users'),
});

const signedInUserId = (caller: Caller): number => {
  if (caller.principal.kind === 'user') return caller.principal.userId;
  throw new FlagstaffError('FORBIDDEN', 'This is about the signed-in user; an API token has no profile.');
};

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

/**
 * The user directory beyond create/update/delete: the signed-in user's profile and roles, search,
 * the admin count, inactive users, and who can be given access.
 */
export function createUserDirectory(deps: ServiceDeps, users: UserService) {
  const { store } = deps;

  async function rolesOf(
    userId: number,
  ): Promise<{ root: Role | null; project: Role[]; projects: string[] }> {
    const user = await store.users.get(userId);
    const roles = await store.roles.list();
    const root = roles.find((r) => r.id === user?.rootRole) ?? null;
    const assignments = await store.projectAccess.forUser(userId, await store.groups.groupsOf(userId));
    const projectRoles = roles.filter((r) => assignments.some((a) => a.roleId === r.id));
    return {
      root,
      project: projectRoles,
      projects: [...new Set(assignments.map((a) => a.projectId))].sort(),
    };
  }

  const inactive = (user: UserRecord, now: number): boolean =>
    Date.parse(user.seenAt ?? user.createdAt) < now - INACTIVE_MS;

  return {
    /** GET /api/admin/user/profile: the signed-in user's root role and the projects they have roles in. */
    async profile(caller: Caller) {
      await deps.policy.require(caller, 'NONE', {});
      const { root, projects } = await rolesOf(signedInUserId(caller));
      return { rootRole: root ?? ROLES.Viewer, projects, subscriptions: [], features: [] };
    },

    /** GET /api/admin/user/roles: the signed-in user's root role and project roles. */
    async roles(caller: Caller): Promise<Role[]> {
      await deps.policy.require(caller, 'NONE', {});
      const { root, project } = await rolesOf(signedInUserId(caller));
      return [...(root ? [root] : []), ...project];
    },

    /** GET /api/admin/user-admin/search?q=: users whose name, e-mail or username contain q. */
    async search(caller: Caller, query: unknown) {
      await deps.policy.require(caller, 'NONE', {});
      const q = parseWith(userSearchQuerySchema, query).q.trim().toLowerCase();
      const matches = (await store.users.list()).filter(
        (u) =>
          u.accountType === 'User' &&
          (q === '' || [u.name, u.email, u.username].some((v) => v?.toLowerCase().includes(q))),
      );
      return matches.slice(0, 100).map(brief);
    },

    /** GET /api/admin/user-admin/access: users and groups that can be given access. */
    async access(caller: Caller) {
      await deps.policy.require(caller, 'NONE', {});
      const groups = await store.groups.list();
      return {
        users: (await store.users.list()).map(brief),
        groups: await Promise.all(
          groups.map(async (g) => ({
            id: g.id,
            name: g.name,
            userCount: (await store.groups.listUsers(g.id)).length,
          })),
        ),
      };
    },

    /** GET /api/admin/user-admin/admin-count (Admins): root Admins with and without a password. */
    async adminCount(caller: Caller) {
      await deps.policy.require(caller, 'ADMIN', {});
      const admins = (await store.users.list()).filter((u) => u.rootRole === ROLES.Admin.id);
      const people = admins.filter((u) => u.accountType === 'User');
      return {
        password: people.filter((u) => u.passwordHash !== null).length,
        noPassword: people.filter((u) => u.passwordHash === null).length,
        service: admins.length - people.length,
      };
    },

    /** GET /api/admin/user-admin/inactive (Admins): users not seen for 180 days. */
    async inactive(caller: Caller) {
      await deps.policy.require(caller, 'ADMIN', {});
      const now = deps.clock.now().getTime();
      const inactiveUsers = (await store.users.list())
        .filter((u) => u.accountType === 'User' && inactive(u, now))
        .map((u) => ({ ...brief(u), seenAt: u.seenAt, createdAt: u.createdAt }));
      return { version: 1, inactiveUsers };
    },

    /**
     * POST /api/admin/user-admin/inactive/delete (Admins): deletes those of the users that are
     * inactive (an active one in the list is left alone), each with user-deleted. Never the caller.
     */
    async deleteInactive(caller: Caller, input: unknown): Promise<{ deleted: number[] }> {
      await deps.policy.require(caller, 'ADMIN', {});
      const { ids } = parseWith(inactiveDeleteSchema, input);
      const now = deps.clock.now().getTime();
      const self = caller.principal.kind === 'user' ? caller.principal.userId : null;
      const deleted: number[] = [];
      for (const id of new Set(ids)) {
        const user = await store.users.get(id);
        if (!user || id === self || !inactive(user, now)) continue;
        await users.remove(caller, id);
        deleted.push(id);
      }
      return { deleted };
    },
  };
}

export type UserDirectory = ReturnType<typeof createUserDirectory>;
export type { UserView };
