import { type Kysely, sql } from 'kysely';
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
  // as an equality), then the order: a page is read in order and stops at its limit, and a project's total is
  // counted from the index alone. Without a project filter, 0004's (archived_at, created_at) serves.
  const index = (name: string, columns: string[]) =>
    db.schema.createIndex(name).on('features').columns(columns).execute();
  await index('features_search_created', ['project', 'archived_at', 'created_at', 'name']);
  await index('features_search_type', ['project', 'archived_at', 'type', 'name']);
  await index('features_search_name', ['project', 'archived_at', 'name']);
  // "Last seen, most recent first" puts never-seen features last: PostgreSQL sorts nulls first in a
  // descending index unless told otherwise; SQLite sorts them first ascending, so last descending.
  if (dialect.kind === 'postgres')
    await sql`create index features_search_seen on features (project, archived_at, last_seen_at desc nulls last, name)`.execute(
      db,
    );
  else await index('features_search_seen', ['project', 'archived_at', 'last_seen_at', 'name']);
}
