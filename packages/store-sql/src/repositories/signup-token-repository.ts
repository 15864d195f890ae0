import { FlagstaffError, type SignupTokenRecord, type SignupTokenRepository } from '@flagstaff/core';
import type { Selectable } from 'kysely';
import { bool, type RepoContext, rowBatches, touched, uniqueOr } from '../context.js';
import type { SignupTokenTable } from '../database.js';

/** Public signup tokens (invite links) and who signed up with each. */
export function createSignupTokenRepository(ctx: RepoContext): SignupTokenRepository {
  const { db } = ctx;
  const toToken = (row: Selectable<SignupTokenTable>, userIds: number[]): SignupTokenRecord => ({
    secret: row.secret,
    name: row.name,
    enabled: bool(row.enabled),
    expiresAt: row.expires_at,
    createdAt: row.created_at,
    createdBy: row.created_by,
    roleId: row.role_id,
    userIds,
  });
  const usersOf = async (secret?: string): Promise<Map<string, number[]>> => {
    let query = db.selectFrom('signup_token_users').select(['secret', 'user_id']).orderBy('user_id');
    if (secret !== undefined) query = query.where('secret', '=', secret);
    const users = new Map<string, number[]>();
    for (const row of await query.execute()) {
      const list = users.get(row.secret) ?? [];
      list.push(row.user_id);
      users.set(row.secret, list);
    }
    return users;
  };
  return {
    async list() {
      const rows = await db
        .selectFrom('signup_tokens')
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('name')
        .orderBy('secret')
        .execute();
      const users = await usersOf();
      return rows.map((row) => toToken(row, users.get(row.secret) ?? []));
    },
    async get(secret) {
      const row = await db
        .selectFrom('signup_tokens')
        .selectAll()
        .where('secret', '=', secret)
        .executeTakeFirst();
      if (!row) return null;
      return toToken(row, (await usersOf(secret)).get(secret) ?? []);
    },
    async insert(token) {
      // The message names the invite link, never its secret.
      await uniqueOr(ctx, `The signup token "${token.name}" already exists.`, (d) =>
        d
          .insertInto('signup_tokens')
          .values({
            secret: token.secret,
            name: token.name,
            enabled: token.enabled,
            expires_at: token.expiresAt,
            created_at: token.createdAt,
            created_by: token.createdBy,
            role_id: token.roleId,
          })
          .execute(),
      );
      const userIds = [...new Set(token.userIds)];
      if (userIds.length === 0) return;
      for (const batch of rowBatches(userIds, 3)) {
        await db
          .insertInto('signup_token_users')
          .values(batch.map((user_id) => ({ secret: token.secret, user_id, created_at: token.createdAt })))
          .execute();
      }
    },
    async update(token) {
      const result = await db
        .updateTable('signup_tokens')
        .set({ name: token.name, enabled: token.enabled, expires_at: token.expiresAt })
        .where('secret', '=', token.secret)
        .executeTakeFirst();
      return touched(result);
    },
    async addUser(secret, userId, at) {
      if (
        !(await db
          .selectFrom('signup_tokens')
          .select('secret')
          .where('secret', '=', secret)
          .executeTakeFirst())
      ) {
        throw new FlagstaffError('NOT_FOUND', 'Could not find the signup token.');
      }
      await db
        .insertInto('signup_token_users')
        .values({ secret, user_id: userId, created_at: at })
        .onConflict((oc) => oc.columns(['secret', 'user_id']).doNothing())
        .execute();
    },
  };
}
