import { type Kysely, sql } from 'kysely';
import type { SqlDialect } from '../sql-dialect.js';

/**
 * Drops the name and description trigram indexes of this install's `features` table (the schema the
 * search path finds it in) where migration 0069 made them, and answers pg_trgm's schema (where its
 * operator classes are); null where there were none to replace (no pg_trgm, or SQLite).
 */
export async function dropFeatureTextIndexes(
  db: Kysely<unknown>,
  dialect: SqlDialect,
): Promise<string | null> {
  if (dialect.kind === 'sqlite') return null;
  const { rows } = await sql<{
    schema: string;
  }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(
    db,
  );
  const schema = rows[0]?.schema;
  if (schema === undefined) return null;
  const { rows: found } = await sql<{
    schema: string;
  }>`select i.schemaname as schema from pg_indexes i join pg_class c on c.relname = i.tablename join pg_namespace n on n.oid = c.relnamespace and n.nspname = i.schemaname where c.oid = 'features'::regclass and i.indexname = 'features_name_trigram'`.execute(
    db,
  );
  const own = found[0]?.schema;
  if (own === undefined) return null;
  await sql`drop index if exists ${sql.id(own, 'features_name_trigram')}`.execute(db);
  await sql`drop index if exists ${sql.id(own, 'features_description_trigram')}`.execute(db);
  return schema;
}

/**
 * 0070 (PostgreSQL only): the feature search's trigram indexes as GiST instead of GIN, same
 * expressions, so the search's `like '%…%'` is unchanged.
 *
 * Names that share most of their trigrams (`scale-feature-00001` … `scale-feature-49999`) are where a
 * GIN index is slowest: a term's every trigram is a posting list to intersect, and the common ones
 * hold every feature, so "feature-4999" read ~480 pages for ten matches (17–30 ms per index, 50 ms
 * for name and description together, slower than scanning the table, which the planner then did).
 * A GiST trigram index keeps each row's trigrams in its leaf and prunes subtrees by the rare ones:
 * the same lookup took under 1.5 ms for both indexes on 50,000 features.
 *
 * Where migration 0069 could not create the extension or its indexes, there is nothing to replace and
 * none is created; the search scans, as before.
 */
export async function featureTextIndexesAsGist(db: Kysely<unknown>, dialect: SqlDialect): Promise<void> {
  const schema = await dropFeatureTextIndexes(db, dialect);
  if (schema === null) return;
  const ops = sql`${sql.id(schema)}.gist_trgm_ops`;
  await sql`create index features_name_trigram on features using gist (lower(name) ${ops})`.execute(db);
  await sql`create index features_description_trigram on features using gist (lower(coalesce(description, '')) ${ops})`.execute(
    db,
  );
}
