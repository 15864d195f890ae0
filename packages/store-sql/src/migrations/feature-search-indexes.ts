import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { SqlDialect } from '../sql-dialect.js';

/**
 * 0067: what keeps the admin feature table's pages flat as a project grows to tens of thousands of
 * features. Each order the table offers gets an index led by the project.
 *
 * `features.last_seen_at` is the latest `feature_environments.last_seen_at` of the feature, kept by the
 * feature-environment repository whenever one of those changes: ordering and filtering by it was a
 * subquery per feature, which no index could serve.
 */
export async function createFeatureSearchIndexes(db: Kysely<unknown>, dialect: SqlDialect): Promise<void> {
  await db.schema.alterTable('features').addColumn('last_seen_at', dialect.types.text).execute();
  await sql`update features set last_seen_at = (select max(fe.last_seen_at) from feature_environments fe where fe.feature_name = features.name)`.execute(
    db,
  );
  // The project, then the order, ties by name ascending as the search breaks them, over the live
  // features (the table asks for `archived_at is null`): a page is read in order and stops at its
  // limit, and a project's total is counted from the index alone. Each order has its descending twin:
  // imported features share a creation time and most share a type, and ties over thousands of rows
  // would otherwise be sorted on every request. SQLite takes `archived_at is null` as an equality on
  // an index column (and counts from the index only if the column is in it); PostgreSQL does not
  // order by an index past an `is null` column, so there the indexes are partial.
  const index = async (name: string, columns: RawBuilder<unknown>, project = true) => {
    if (dialect.kind === 'postgres')
      await sql`create index ${sql.id(name)} on features (${project ? sql`project, ` : sql``}${columns}) where archived_at is null`.execute(
        db,
      );
    else
      await sql`create index ${sql.id(name)} on features (${project ? sql`project, ` : sql``}archived_at, ${columns})`.execute(
        db,
      );
  };
  await index('features_search_name', sql`name`);
  await index('features_search_created', sql`created_at, name`);
  await index('features_search_created_desc', sql`created_at desc, name`);
  await index('features_search_type', sql`type, name`);
  await index('features_search_type_desc', sql`type desc, name`);
  // Never seen last in either order. SQLite sorts nulls first ascending (last descending), so only
  // "most recently seen first", the order people ask for, gets an index there; PostgreSQL can have both.
  if (dialect.kind === 'postgres') {
    await index('features_search_seen', sql`last_seen_at asc nulls last, name`);
    await index('features_search_seen_desc', sql`last_seen_at desc nulls last, name`);
  } else await index('features_search_seen_desc', sql`last_seen_at desc, name`);
  // Without a project filter (every project at once), the default order.
  await index('features_search_all_created', sql`created_at, name`, false);
}
