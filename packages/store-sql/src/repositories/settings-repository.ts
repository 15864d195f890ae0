import type {
  FeatureLinkRepository,
  PersonalAccessToken,
  PersonalAccessTokenRecord,
  PersonalTokenRepository,
  SettingsRepository,
} from '@flagstaff/core';
import type { Selectable } from 'kysely';
import { int, jsonOf, parseOf, type RepoContext, touched } from '../context.js';
import type { PersonalAccessTokenTable } from '../database.js';

/** Instance settings as JSON values by name. */
export function createSettingsRepository(ctx: RepoContext): SettingsRepository {
  const { db } = ctx;
  const json = jsonOf(ctx);
  const parse = parseOf(ctx);
  return {
    async get(name) {
      const row = await db.selectFrom('settings').select('value').where('name', '=', name).executeTakeFirst();
      return row ? parse<unknown>(row.value) : null;
    },
    async set(name, value) {
      await db
        .insertInto('settings')
        .values({ name, value: json(value) })
        .onConflict((oc) => oc.column('name').doUpdateSet({ value: json(value) }))
        .execute();
    },
  };
}

const toRecord = (row: Selectable<PersonalAccessTokenTable>): PersonalAccessTokenRecord => ({
  id: row.id,
  secretHash: row.secret_hash,
  userId: row.user_id,
  description: row.description,
  expiresAt: row.expires_at,
  createdAt: row.created_at,
  seenAt: row.seen_at,
});
const toToken = (row: Selectable<PersonalAccessTokenTable>): PersonalAccessToken => {
  const { secretHash: _, ...token } = toRecord(row);
  return token;
};

/** Users' personal access tokens. */
export function createPersonalTokenRepository(ctx: RepoContext): PersonalTokenRepository {
  const { db } = ctx;
  return {
    async listForUser(userId) {
      const rows = await db
        .selectFrom('personal_access_tokens')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('id')
        .execute();
      return rows.map(toToken);
    },
    async getByHash(hash) {
      const row = await db
        .selectFrom('personal_access_tokens')
        .selectAll()
        .where('secret_hash', '=', hash)
        .executeTakeFirst();
      return row ? toRecord(row) : null;
    },
    async insert(token) {
      const row = await db
        .insertInto('personal_access_tokens')
        .values({
          secret_hash: token.secretHash,
          user_id: token.userId,
          description: token.description,
          expires_at: token.expiresAt,
          created_at: token.createdAt,
          seen_at: token.seenAt,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      return toToken(row);
    },
    async delete(userId, id) {
      return touched(
        await db
          .deleteFrom('personal_access_tokens')
          .where('user_id', '=', userId)
          .where('id', '=', id)
          .executeTakeFirst(),
      );
    },
    async deleteForUser(userId) {
      const result = await db
        .deleteFrom('personal_access_tokens')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return int(result.numDeletedRows);
    },
    async markSeen(id, at) {
      await db.updateTable('personal_access_tokens').set({ seen_at: at }).where('id', '=', id).execute();
    },
  };
}

/** Links on features. */
export function createFeatureLinkRepository(ctx: RepoContext): FeatureLinkRepository {
  const { db } = ctx;
  const toLink = (row: {
    id: string;
    feature_name: string;
    url: string;
    title: string | null;
    created_at: string;
  }) => ({
    id: row.id,
    featureName: row.feature_name,
    url: row.url,
    title: row.title,
    createdAt: row.created_at,
  });
  return {
    async listForFeature(featureName) {
      const rows = await db
        .selectFrom('feature_links')
        .selectAll()
        .where('feature_name', '=', featureName)
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      return rows.map(toLink);
    },
    async get(id) {
      const row = await db.selectFrom('feature_links').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? toLink(row) : null;
    },
    async insert(link) {
      await db
        .insertInto('feature_links')
        .values({
          id: link.id,
          feature_name: link.featureName,
          url: link.url,
          title: link.title,
          created_at: link.createdAt,
        })
        .execute();
    },
    async update(link) {
      return touched(
        await db
          .updateTable('feature_links')
          .set({ url: link.url, title: link.title })
          .where('id', '=', link.id)
          .executeTakeFirst(),
      );
    },
    async delete(id) {
      return touched(await db.deleteFrom('feature_links').where('id', '=', id).executeTakeFirst());
    },
  };
}
