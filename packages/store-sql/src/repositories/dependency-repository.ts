import type { DependencyRecord, DependencyRepository } from '@flagstaff/core';
import type { Selectable } from 'kysely';
import { bool, inList, jsonOf, parseOf, type RepoContext, touched } from '../context.js';
import type { DependencyTable } from '../database.js';

/** Parent dependencies of features. */
export function createDependencyRepository(ctx: RepoContext): DependencyRepository {
  const { db } = ctx;
  const json = jsonOf(ctx);
  const parse = parseOf(ctx);
  const toDependency = (row: Selectable<DependencyTable>): DependencyRecord => ({
    child: row.child,
    feature: row.parent,
    enabled: bool(row.enabled),
    variants: parse<string[]>(row.variants),
  });
  const ordered = () => db.selectFrom('dependencies').selectAll().orderBy('child').orderBy('parent');
  return {
    async list(children) {
      if (children?.length === 0) return [];
      const query =
        children === undefined ? ordered() : ordered().where(inList(ctx, 'child', [...new Set(children)]));
      return (await query.execute()).map(toDependency);
    },
    async listByParents(parents) {
      if (parents.length === 0) return [];
      return (
        await ordered()
          .where(inList(ctx, 'parent', [...new Set(parents)]))
          .execute()
      ).map(toDependency);
    },
    async upsert(dependency) {
      const values = { enabled: dependency.enabled, variants: json(dependency.variants) };
      await db
        .insertInto('dependencies')
        .values({ child: dependency.child, parent: dependency.feature, ...values })
        .onConflict((oc) => oc.columns(['child', 'parent']).doUpdateSet(values))
        .execute();
    },
    async delete(child, parent) {
      return touched(
        await db
          .deleteFrom('dependencies')
          .where('child', '=', child)
          .where('parent', '=', parent)
          .executeTakeFirst(),
      );
    },
    async deleteAll(child) {
      const result = await db.deleteFrom('dependencies').where('child', '=', child).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
