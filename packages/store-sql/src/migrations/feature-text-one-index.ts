import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { SqlDialect } from '../sql-dialect.js';
import { dropFeatureTextIndexes } from './feature-text-gist.js';

/**
 * The text the PostgreSQL search's trigram index holds for a feature: name and description, lower
 * case, joined by a line feed. A term without a line feed is in it exactly when it is in the name or
 * in the description. Written here once because the query must repeat the index's expression.
 */
export function featureTextOf(alias?: string): RawBuilder<string> {
  const column = (name: string) => sql.ref(alias === undefined ? name : `${alias}.${name}`);
  return sql<string>`lower(${column('name')} || E'\\n' || coalesce(${column('description')}, ''))`;
}

/** Bytes of each GiST leaf's trigram signature (pg_trgm's default is 12). */
const SIGNATURE_BYTES = 64;

/**
 * 0071 (PostgreSQL only): one GiST trigram index over name and description together, with a signature
 * of 64 bytes, in place of 0070's two indexes with pg_trgm's default of 12.
 *
 * With 12 bytes (96 bits) a leaf's signature is nearly full for names like `bulk-feature-00123` and
 * their descriptions, so it prunes little: "feature-001" read ~490 index pages through the two indexes
 * (5 ms of a 50,000-feature search by name). One index of 64-byte signatures read 48 pages for the same
 * 111 candidates (0.1–0.3 ms), and the search makes one index scan instead of two.
 *
 * Where 0069 made no trigram index (no pg_trgm), nothing is created and the search scans, as before.
 * A server older than PostgreSQL 13 (no `siglen`) gets the index with the default signature.
 */
export async function featureTextAsOneIndex(db: Kysely<unknown>, dialect: SqlDialect): Promise<void> {
  const schema = await dropFeatureTextIndexes(db, dialect);
  if (schema === null) return;
  const ops = sql`${sql.id(schema)}.gist_trgm_ops`;
  const create = (opclass: RawBuilder<unknown>) =>
    sql`create index features_text_trigram on features using gist (${featureTextOf()} ${opclass})`.execute(
      db,
    );
  await sql`savepoint feature_text_signature`.execute(db);
  try {
    await create(sql`${ops}(siglen = ${sql.lit(SIGNATURE_BYTES)})`);
    await sql`release savepoint feature_text_signature`.execute(db);
  } catch {
    await sql`rollback to savepoint feature_text_signature`.execute(db);
    await create(ops);
  }
}
