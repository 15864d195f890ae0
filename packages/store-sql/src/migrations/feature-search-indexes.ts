import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { SqlDialect } from '../sql-dialect.js';

/**
 * 0075: what keeps the admin feature table's pages flat as a project grows to tens of thousands of
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
  // The project, then `archived_at` (live features are asked for with `is null`, which an index treats
  // as an equality), then the order, ties by name ascending as the search breaks them: a page is read
  // in order and stops at its limit, and a project's total is counted from the index alone. Each
  // order has its descending twin: imported features share a creation time and most share a type, and
  // ties over thousands of rows would otherwise be sorted on every request.
  const index = (name: string, columns: RawBuilder<unknown>) =>
    sql`create index ${sql.id(name)} on features (${columns})`.execute(db);
  await index('features_search_name', sql`project, archived_at, name`);
  await index('features_search_created', sql`project, archived_at, created_at, name`);
  await index('features_search_created_desc', sql`project, archived_at, created_at desc, name`);
  await index('features_search_type', sql`project, archived_at, type, name`);
  await index('features_search_type_desc', sql`project, archived_at, type desc, name`);
  // Never seen last in either order. SQLite sorts nulls first ascending (last descending), so only
  // "most recently seen first", the order people ask for, gets an index there; PostgreSQL can have both.
  if (dialect.kind === 'postgres') {
    await index('features_search_seen', sql`project, archived_at, last_seen_at asc nulls last, name`);
    await index('features_search_seen_desc', sql`project, archived_at, last_seen_at desc nulls last, name`);
  } else await index('features_search_seen_desc', sql`project, archived_at, last_seen_at desc, name`);
  // Without a project filter (every project at once), the default order.
  await index('features_search_all_created', sql`archived_at, created_at, name`);
}
