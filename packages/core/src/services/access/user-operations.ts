import { z } from 'zod';
import {
  createUserSchema,
  ROLES,
  roleIdSchema,
  roleListSchema,
  roleSchema,
  type UserRecord,
  type UserView,
  updateUserInputSchema,
  userIdSchema,
  userListSchema,
  userViewSchema,
} from '../../domain/user.js';
import { conflict, FlagstaffError, invalid } from '../../errors.js';
import { defineOperation, type OperationDeps } from '../../operations/define-operation.js';
import type { Repositories } from '../../ports/repositories.js';
import type { ReadRepositories } from '../../ports/store.js';
import { type Actor, nowIso } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';
import { requireRole, requireUser, userView } from './user-view.js';

/**
 * Nobody could administer the instance in the UI again if its last Admin who signs in lost the role,
 * so deleting or demoting that user is refused (CONFLICT naming the property).
 */
async function requireAnotherAdmin(
  tx: Repositories,
  user: UserRecord,
  refusal: (who: string) => string,
): Promise<void> {
  if (user.rootRole !== ROLES.Admin.id || user.accountType !== 'User') return;
  const admins = (await tx.users.list()).filter(
    (u) => u.rootRole === ROLES.Admin.id && u.accountType === 'User',
  );
  if (admins.length > 1) return;
  const who = user.name ?? user.username ?? user.email ?? `user ${user.id}`;
  throw new FlagstaffError('CONFLICT', `${refusal(who)}; make another user an Admin first.`, {
    path: 'rootRole',
  });
}

const ROOT_ROLE_IDS = { Admin: ROLES.Admin.id, Editor: ROLES.Editor.id, Viewer: ROLES.Viewer.id } as const;

/** A root role's id from an id or a built-in root role's name. */
const rootRoleId = (role: number | keyof typeof ROOT_ROLE_IDS): number =>
  typeof role === 'string' ? ROOT_ROLE_IDS[role] : role;

/** VALIDATION naming `rootRole` unless the id is a root role's. */
async function requireRootRole(repos: ReadRepositories, roleId: number): Promise<void> {
  const role = await repos.roles.get(roleId);
  if (!role || (role.type !== 'root' && role.type !== 'root-custom'))
    throw invalid('rootRole', `must be a root role; ${roleId} is not one.`);
}

/** Inserts a user and writes user-created; shared with invite-link signups. */
export async function insertUser(
  tx: Repositories,
  actor: Actor,
  at: string,
  fields: Pick<UserRecord, 'name' | 'email' | 'username' | 'rootRole' | 'passwordHash'>,
): Promise<UserView> {
  if (fields.email && (await tx.users.getByEmail(fields.email)))
    throw conflict(`A user with e-mail "${fields.email}" already exists.`, 'email');
  const user = await tx.users.insert({
    ...fields,
    imageUrl: null,
    accountType: 'User',
    loginAttempts: 0,
    emailSent: false,
    seenAt: null,
    createdAt: at,
    scimId: null,
  });
  const view = userView(user);
  await writeEvents(tx, actor, at, [{ type: 'user-created', data: view }]);
  return view;
}

/**
 * Deletes a user with their sessions, group memberships, project roles and personal tokens
 * (user-deleted); CONFLICT for the last Admin. Shared with the deletion of inactive users.
 */
export async function deleteUser(
  deps: OperationDeps,
  tx: Repositories,
  actor: Actor,
  user: UserRecord,
): Promise<void> {
  await requireAnotherAdmin(tx, user, (who) => `${who} is the last Admin and cannot be deleted`);
  await tx.users.delete(user.id);
  await tx.personalTokens.deleteForUser(user.id);
  await writeEvents(tx, actor, nowIso(deps), [{ type: 'user-deleted', preData: userView(user) }]);
}

/** Every user, ordered by id (Admins). */
export const listUsers = defineOperation({
  id: 'users.list',
  summary: 'List users',
  kind: 'read',
  permission: 'ADMIN',
  input: z.object({}),
  output: userListSchema,
  run: async (_input, { repos }) => ({ users: (await repos.users.list()).map(userView) }),
});

/** One user or NOT_FOUND (Admins). */
export const getUser = defineOperation({
  id: 'users.get',
  summary: 'Get a user',
  kind: 'read',
  permission: 'ADMIN',
  input: userIdSchema,
  output: userViewSchema,
  run: async ({ id }, { repos }) => userView(await requireUser(repos, id)),
});

/**
 * Creates a user with a root role (default Viewer) (user-created). The answer's `inviteLink` is the
 * user's one-time set-password link (24 hours), when the runner was given a way to make one.
 */
export const createUser = defineOperation({
  id: 'users.create',
  summary: 'Create a user; `inviteLink` is their one-time set-password link (24 hours)',
  kind: 'write',
  permission: 'ADMIN',
  input: createUserSchema,
  output: userViewSchema,
  run: async (body, { deps, repos, actor }) => {
    const rootRole = rootRoleId(body.rootRole);
    await requireRootRole(repos, rootRole);
    const created = await insertUser(repos, actor, nowIso(deps), {
      name: body.name ?? null,
      email: body.email ?? null,
      username: body.username ?? null,
      rootRole,
      passwordHash: null,
    });
    const link = deps.newUserLink?.({ id: created.id, passwordHash: null });
    return link ? { ...created, inviteLink: link } : created;
  },
});

/**
 * Changes a user's name, e-mail and/or root role (user-updated). A new root role ends the user's
 * sessions, so they sign in again under it. NOT_FOUND; VALIDATION naming the property; CONFLICT when
 * the e-mail is taken or the last Admin would be demoted.
 */
export const updateUser = defineOperation({
  id: 'users.update',
  summary: 'Update a user (a new root role ends their sessions)',
  kind: 'write',
  permission: 'ADMIN',
  input: updateUserInputSchema,
  output: userViewSchema,
  run: async ({ id, ...body }, { deps, repos, actor }) => {
    const before = await requireUser(repos, id);
    const rootRole = body.rootRole === undefined ? before.rootRole : rootRoleId(body.rootRole);
    if (rootRole !== before.rootRole) {
      await requireAnotherAdmin(repos, before, (who) => `"rootRole" cannot change: ${who} is the last Admin`);
      await requireRootRole(repos, rootRole);
    }
    const after: UserRecord = {
      ...before,
      name: body.name === undefined ? before.name : body.name,
      email: body.email === undefined ? before.email : body.email,
      rootRole,
    };
    if (after.email === null && after.username === null)
      throw invalid('email', 'is required for a user without a username.');
    if (after.email !== null && after.email !== before.email) {
      const holder = await repos.users.getByEmail(after.email);
      if (holder && holder.id !== id)
        throw new FlagstaffError('CONFLICT', `"email" "${after.email}" is already another user's e-mail.`, {
          path: 'email',
        });
    }
    await repos.users.update(after);
    if (rootRole !== before.rootRole) await repos.sessions.deleteForUser(id);
    const view = userView(after);
    await writeEvents(repos, actor, nowIso(deps), [
      { type: 'user-updated', data: view, preData: userView(before) },
    ]);
    return view;
  },
});

/** Deletes a user with their sessions, group memberships and project roles (user-deleted). NOT_FOUND. */
export const removeUser = defineOperation({
  id: 'users.remove',
  summary: 'Delete a user with their sessions',
  kind: 'write',
  permission: 'ADMIN',
  input: userIdSchema,
  output: z.void(),
  run: async ({ id }, { deps, repos, actor }) => {
    await deleteUser(deps, repos, actor, await requireUser(repos, id));
  },
});

/** Every role (built-in root and project roles first), ordered by id. */
export const listRoles = defineOperation({
  id: 'roles.list',
  summary: 'List roles',
  kind: 'read',
  permission: 'NONE',
  input: z.object({}),
  output: roleListSchema,
  run: async (_input, { repos }) => ({ version: 1 as const, roles: await repos.roles.list() }),
});

/** One role or NOT_FOUND. */
export const getRole = defineOperation({
  id: 'roles.get',
  summary: 'Get a role',
  kind: 'read',
  permission: 'NONE',
  input: roleIdSchema,
  output: roleSchema,
  run: async ({ id }, { repos }) => requireRole(repos, id),
});
