import { notFound, type TagRepository, type TagType } from '@flagstaff/core';
import type { Selectable } from 'kysely';
import { inList, type RepoContext, touched, uniqueOr } from '../context.js';
import type { TagTypeTable } from '../database.js';
import { type Binder, prepared } from '../prepared.js';

const tagsOfFeature = prepared((db, p: Binder<{ name: string }>) =>
  db
    .selectFrom('feature_tags')
    .select(['feature_name', 'tag_type', 'tag_value'])
    .where('feature_name', '=', p.value('name'))
    .orderBy('feature_name')
    .orderBy('tag_type')
    .orderBy('tag_value'),
);

const toType = (row: Selectable<TagTypeTable>): TagType => ({
  name: row.name,
  description: row.description,
  icon: row.icon,
});

/** Tag types, tags, and the tags on features. */
export function createTagRepository(ctx: RepoContext): TagRepository {
  const { db } = ctx;
  return {
    async listTypes() {
      return (await db.selectFrom('tag_types').selectAll().orderBy('name').execute()).map(toType);
    },
    async getType(name) {
      const row = await db.selectFrom('tag_types').selectAll().where('name', '=', name).executeTakeFirst();
      return row ? toType(row) : null;
    },
    async insertType(type) {
      await uniqueOr(ctx, `A tag type named "${type.name}" already exists.`, (d) =>
        d
          .insertInto('tag_types')
          .values({ name: type.name, description: type.description, icon: type.icon })
          .execute(),
      );
    },
    async updateType(type) {
      const result = await db
        .updateTable('tag_types')
        .set({ description: type.description, icon: type.icon })
        .where('name', '=', type.name)
        .executeTakeFirst();
      return touched(result);
    },
    async deleteType(name) {
      if (!touched(await db.deleteFrom('tag_types').where('name', '=', name).executeTakeFirst()))
        return false;
      await db.deleteFrom('tags').where('type', '=', name).execute();
      await db.deleteFrom('feature_tags').where('tag_type', '=', name).execute();
      return true;
    },
    async listTags(type) {
      let query = db.selectFrom('tags').select(['type', 'value']).orderBy('type').orderBy('value');
      if (type !== undefined) query = query.where('type', '=', type);
      return await query.execute();
    },
    async ensureTag(tag) {
      const result = await db
        .insertInto('tags')
        .values({ type: tag.type, value: tag.value })
        .onConflict((oc) => oc.columns(['type', 'value']).doNothing())
        .executeTakeFirst();
      return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
    },
    async deleteTag(tag) {
      const result = await db
        .deleteFrom('tags')
        .where('type', '=', tag.type)
        .where('value', '=', tag.value)
        .executeTakeFirst();
      if (!touched(result)) return false;
      await db
        .deleteFrom('feature_tags')
        .where('tag_type', '=', tag.type)
        .where('tag_value', '=', tag.value)
        .execute();
      return true;
    },
    async listFeatureTags(featureNames) {
      if (featureNames?.length === 0) return [];
      const only = featureNames?.length === 1 ? featureNames[0] : undefined;
      if (only !== undefined) {
        const { rows } = await tagsOfFeature.run(ctx, { name: only });
        return rows.map((row) => ({
          featureName: row.feature_name,
          type: row.tag_type,
          value: row.tag_value,
        }));
      }
      let query = db
        .selectFrom('feature_tags')
        .select(['feature_name', 'tag_type', 'tag_value'])
        .orderBy('feature_name')
        .orderBy('tag_type')
        .orderBy('tag_value');
      if (featureNames !== undefined)
        query = query.where(inList(ctx, 'feature_name', [...new Set(featureNames)]));
      const rows = await query.execute();
      return rows.map((row) => ({ featureName: row.feature_name, type: row.tag_type, value: row.tag_value }));
    },
    async addFeatureTag(featureName, tag) {
      const exists = await db
        .selectFrom('tags')
        .select('type')
        .where('type', '=', tag.type)
        .where('value', '=', tag.value)
        .executeTakeFirst();
      if (!exists) throw notFound('tag', `${tag.type}:${tag.value}`);
      const result = await db
        .insertInto('feature_tags')
        .values({ feature_name: featureName, tag_type: tag.type, tag_value: tag.value })
        .onConflict((oc) => oc.columns(['feature_name', 'tag_type', 'tag_value']).doNothing())
        .executeTakeFirst();
      return (result.numInsertedOrUpdatedRows ?? 0n) > 0n;
    },
    async removeFeatureTag(featureName, tag) {
      const result = await db
        .deleteFrom('feature_tags')
        .where('feature_name', '=', featureName)
        .where('tag_type', '=', tag.type)
        .where('tag_value', '=', tag.value)
        .executeTakeFirst();
      return touched(result);
    },
    async featuresWithTag(tag) {
      const rows = await db
        .selectFrom('feature_tags')
        .select('feature_name')
        .where('tag_type', '=', tag.type)
        .where('tag_value', '=', tag.value)
        .orderBy('feature_name')
        .execute();
      return rows.map((row) => row.feature_name);
    },
  };
}
