import { conflict, type UserRecord, type UserRepository } from '@flagstaff/core';
import type { Selectable } from 'kysely';
import { bool, int, type RepoContext, touched, uniqueOr } from '../context.js';
import type { UserTable } from '../database.js';

const toUser = (row: Selectable<UserTable>): UserRecord => ({
  id: row.id,
  name: row.name,
  email: row.email,
  username: row.username,
  imageUrl: row.image_url,
  rootRole: row.root_role,
  accountType: row.account_type as UserRecord['accountType'],
  loginAttempts: row.login_attempts,
  emailSent: bool(row.email_sent),
  seenAt: row.seen_at,
  createdAt: row.created_at,
  scimId: row.scim_id,
  passwordHash: row.password_hash,
});

const columns = (u: Omit<UserRecord, 'id'>) => ({
  name: u.name,
  email: u.email,
  email_lower: u.email?.toLowerCase() ?? null,
  username: u.username,
  image_url: u.imageUrl,
  root_role: u.rootRole,
  account_type: u.accountType,
  login_attempts: u.loginAttempts,
  email_sent: u.emailSent,
  seen_at: u.seenAt,
  created_at: u.createdAt,
  scim_id: u.scimId,
  password_hash: u.passwordHash,
});

/** Users; e-mail addresses are unique regardless of case, usernames exactly. */
export function createUserRepository(ctx: RepoContext): UserRepository {
  const { db } = ctx;
  // Checked first for a message naming what is taken; the unique indexes still decide under races.
  const assertUnique = async (user: Omit<UserRecord, 'id'>, exceptId?: number): Promise<void> => {
    const email = user.email?.toLowerCase() ?? null;
    if (email !== null) {
      let q = db.selectFrom('users').select('id').where('email_lower', '=', email);
      if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
      if (await q.executeTakeFirst())
        throw conflict(`A user with the e-mail "${user.email}" already exists.`);
    }
    if (user.username !== null) {
      let q = db.selectFrom('users').select('id').where('username', '=', user.username);
      if (exceptId !== undefined) q = q.where('id', '!=', exceptId);
      if (await q.executeTakeFirst())
        throw conflict(`A user with the username "${user.username}" already exists.`);
    }
  };
  const taken = 'A user with this e-mail or username already exists.';
  return {
    async list() {
      return (await db.selectFrom('users').selectAll().orderBy('id').execute()).map(toUser);
    },
    async get(id) {
      const row = await db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? toUser(row) : null;
    },
    async getByEmail(email) {
      const row = await db
        .selectFrom('users')
        .selectAll()
        .where('email_lower', '=', email.toLowerCase())
        .executeTakeFirst();
      return row ? toUser(row) : null;
    },
    async getByUsername(username) {
      const row = await db
        .selectFrom('users')
        .selectAll()
        .where('username', '=', username)
        .executeTakeFirst();
      return row ? toUser(row) : null;
    },
    async countWithPassword() {
      const row = await db
        .selectFrom('users')
        .select((eb) => eb.fn.countAll().as('count'))
        .where('password_hash', 'is not', null)
        .executeTakeFirstOrThrow();
      return int(row.count);
    },
    async insert(user) {
      await assertUnique(user);
      const row = await uniqueOr(ctx, taken, (d) =>
        d.insertInto('users').values(columns(user)).returningAll().executeTakeFirstOrThrow(),
      );
      return toUser(row);
    },
    async update(user) {
      if (!(await db.selectFrom('users').select('id').where('id', '=', user.id).executeTakeFirst()))
        return false;
      await assertUnique(user, user.id);
      const result = await uniqueOr(ctx, taken, (d) =>
        d.updateTable('users').set(columns(user)).where('id', '=', user.id).executeTakeFirst(),
      );
      return touched(result);
    },
    async markSeen(id, at) {
      await db.updateTable('users').set({ seen_at: at }).where('id', '=', id).execute();
    },
    async delete(id) {
      if (!touched(await db.deleteFrom('users').where('id', '=', id).executeTakeFirst())) return false;
      // What only makes sense while the user exists goes with it.
      await db.deleteFrom('group_users').where('user_id', '=', id).execute();
      await db.deleteFrom('project_roles').where('user_id', '=', id).execute();
      await db.deleteFrom('favorites').where('user_id', '=', id).execute();
      await db.deleteFrom('sessions').where('user_id', '=', id).execute();
      return true;
    },
  };
}
