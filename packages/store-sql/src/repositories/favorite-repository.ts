import type { FavoriteRepository } from '@flagstaff/core';
import { type RepoContext, touched } from '../context.js';

/** Per-user favorite features and projects. */
export function createFavoriteRepository(ctx: RepoContext): FavoriteRepository {
  const { db } = ctx;
  return {
    async list(userId) {
      const rows = await db
        .selectFrom('favorites')
        .select(['kind', 'name'])
        .where('user_id', '=', userId)
        .orderBy('name')
        .execute();
      const namesOf = (kind: string) => rows.filter((row) => row.kind === kind).map((row) => row.name);
      return { features: namesOf('feature'), projects: namesOf('project') };
    },
    async set(userId, kind, name, favorite) {
      if (!favorite) {
        const result = await db
          .deleteFrom('favorites')
          .where('user_id', '=', userId)
          .where('kind', '=', kind)
          .where('name', '=', name)
          .executeTakeFirst();
        return touched(result);
      }
      const result = await db
        .insertInto('favorites')
        .values({ user_id: userId, kind, name })
        .onConflict((oc) => oc.columns(['user_id', 'kind', 'name']).doNothing())
        .executeTakeFirst();
      return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
    },
  };
}
