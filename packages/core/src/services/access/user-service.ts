import type { Caller } from '../../auth/caller.js';
import { parseWith } from '../../domain/parse.js';
import {
  createUserSchema,
  ROLES,
  type Role,
  type UserRecord,
  type UserView,
  updateUserSchema,
} from '../../domain/user.js';
import { conflict, FlagstaffError, invalid } from '../../errors.js';
import type { OperationRunner } from '../../operations/run-operation.js';
import type { Repositories } from '../../ports/repositories.js';
import { type Actor, inTransaction, nowIso, type ServiceDeps } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';
import { createGroupService } from './group-service.js';
import { createProjectAccess } from './user-project-access.js';
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

/** What user creation needs from elsewhere. */
export interface UserServiceOptions {
  /** The one-time set-password link answered as `inviteLink` for a user created without a password. */
  newUserLink?: (user: Pick<UserRecord, 'id' | 'passwordHash'>) => string;
  /** Runs the operations the typed wrappers (groups) stand for. */
  run: OperationRunner;
}

/** Users, groups, roles and who has which role in which project. */
export function createUserService(deps: ServiceDeps, options: UserServiceOptions) {
  const { store } = deps;

  return {
    /** Every user, ordered by id. */
    async list(caller: Caller): Promise<UserView[]> {
      await deps.policy.require(caller, 'ADMIN', {});
      return (await store.users.list()).map(userView);
    },

    /** One user or NOT_FOUND. */
    async get(caller: Caller, id: number): Promise<UserView> {
      await deps.policy.require(caller, 'ADMIN', {});
      return userView(await requireUser(store, id));
    },

    /**
     * Creates a user with a root role (default Viewer) (user-created). The answer's `inviteLink` is
     * the user's one-time set-password link (24 hours), when the service was given a way to make one.
     */
    async create(caller: Caller, input: unknown): Promise<UserView> {
      const actor = await deps.policy.permit(caller, 'ADMIN', {});
      const body = parseWith(createUserSchema, input);
      const created = await inTransaction(deps, async (tx) => {
        const rootRole = typeof body.rootRole === 'string' ? ROOT_ROLE_IDS[body.rootRole] : body.rootRole;
        const role = await tx.roles.get(rootRole);
        if (!role || (role.type !== 'root' && role.type !== 'root-custom'))
          throw invalid('rootRole', `must be a root role; ${rootRole} is not one.`);
        return insertUser(tx, actor, nowIso(deps), {
          name: body.name ?? null,
          email: body.email ?? null,
          username: body.username ?? null,
          rootRole,
          passwordHash: null,
        });
      });
      const link = options.newUserLink?.({ id: created.id, passwordHash: null });
      return link ? { ...created, inviteLink: link } : created;
    },

    /**
     * Changes a user's name, e-mail and/or root role (user-updated). A new root role ends the
     * user's sessions, so they sign in again under it. NOT_FOUND; VALIDATION naming the property;
     * CONFLICT when the e-mail is taken.
     */
    async update(caller: Caller, id: number, input: unknown): Promise<UserView> {
      const actor = await deps.policy.permit(caller, 'ADMIN', {});
      const body = parseWith(updateUserSchema, input);
      return inTransaction(deps, async (tx) => {
        const before = await requireUser(tx, id);
        const rootRole =
          body.rootRole === undefined
            ? before.rootRole
            : typeof body.rootRole === 'string'
              ? ROOT_ROLE_IDS[body.rootRole]
              : body.rootRole;
        if (rootRole !== before.rootRole) {
          await requireAnotherAdmin(
            tx,
            before,
            (who) => `"rootRole" cannot change: ${who} is the last Admin`,
          );
          const role = await tx.roles.get(rootRole);
          if (!role || (role.type !== 'root' && role.type !== 'root-custom'))
            throw invalid('rootRole', `must be a root role; ${rootRole} is not one.`);
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
          const holder = await tx.users.getByEmail(after.email);
          if (holder && holder.id !== id)
            throw new FlagstaffError(
              'CONFLICT',
              `"email" "${after.email}" is already another user's e-mail.`,
              {
                path: 'email',
              },
            );
        }
        await tx.users.update(after);
        if (rootRole !== before.rootRole) await tx.sessions.deleteForUser(id);
        const view = userView(after);
        await writeEvents(tx, actor, nowIso(deps), [
          { type: 'user-updated', data: view, preData: userView(before) },
        ]);
        return view;
      });
    },

    /** Deletes a user with their sessions, group memberships and project roles (user-deleted). NOT_FOUND. */
    async remove(caller: Caller, id: number): Promise<void> {
      const actor = await deps.policy.permit(caller, 'ADMIN', {});
      return inTransaction(deps, async (tx) => {
        const before = await requireUser(tx, id);
        await requireAnotherAdmin(tx, before, (who) => `${who} is the last Admin and cannot be deleted`);
        await tx.users.delete(id);
        await tx.personalTokens.deleteForUser(id);
        await writeEvents(tx, actor, nowIso(deps), [{ type: 'user-deleted', preData: userView(before) }]);
      });
    },

    groups: createGroupService(options.run),

    roles: {
      /** Every role (built-in root and project roles first), ordered by id. */
      async list(caller: Caller): Promise<Role[]> {
        await deps.policy.require(caller, 'NONE');
        return store.roles.list();
      },
      /** One role or NOT_FOUND. */
      async get(caller: Caller, id: number): Promise<Role> {
        await deps.policy.require(caller, 'NONE');
        return requireRole(store, id);
      },
    },

    ...createProjectAccess(deps),
  };
}

export type UserService = ReturnType<typeof createUserService>;
