import { type Kysely, sql } from 'kysely';
import type { SqlDialect } from '../sql-dialect.js';

/** SQLite: the FTS5 table (trigram tokenizer) that serves "name or description contains". */
export const FEATURE_TEXT_TABLE = 'feature_text_trigram';

/**
 * 0069: an index for the feature search's free text ("name or description contains"), which was the
 * one search shape that read every feature of a project (46–172 ms at 50,000 features when few match).
 *
 * SQLite: an FTS5 table with the trigram tokenizer holds each live or archived feature's name and
 * description, kept by triggers on `features` (insert, update of either, delete). It is not an
 * external-content table: those are tied to the features' implicit rowids, which VACUUM may renumber;
 * a row is found for deletion by a phrase query on its name instead (a scan only for names shorter
 * than three characters, which trigrams cannot index).
 *
 * PostgreSQL: pg_trgm GIN indexes on `lower(name)` and `lower(coalesce(description, ''))`, which serve
 * the search's `like '%…%'` as written. Where the extension cannot be created (not installed, no
 * privilege, an embedded PostgreSQL without it) the migration leaves the indexes out, within a
 * savepoint, and search works as before, scanning.
 */
export async function createFeatureNameTrigram(db: Kysely<unknown>, dialect: SqlDialect): Promise<void> {
  if (dialect.kind === 'sqlite') {
    const t = sql.id(FEATURE_TEXT_TABLE);
    await sql`create virtual table ${t} using fts5(name, description, tokenize = 'trigram')`.execute(db);
    await sql`insert into ${t} (name, description) select name, coalesce(description, '') from features`.execute(
      db,
    );
    // The row of a name: its candidates through the index, then the exact name.
    const rowOf = (name: string) =>
      sql.raw(
        `delete from ${FEATURE_TEXT_TABLE} where rowid in (select rowid from ${FEATURE_TEXT_TABLE} where length(${name}) >= 3 and ${FEATURE_TEXT_TABLE} match 'name : "' || replace(${name}, '"', '""') || '"' union all select rowid from ${FEATURE_TEXT_TABLE} where length(${name}) < 3 and name = ${name}) and name = ${name};`,
      );
    await sql`create trigger feature_text_insert after insert on features begin insert into ${t} (name, description) values (new.name, coalesce(new.description, '')); end`.execute(
      db,
    );
    await sql`create trigger feature_text_update after update of name, description on features begin ${rowOf('old.name')} insert into ${t} (name, description) values (new.name, coalesce(new.description, '')); end`.execute(
      db,
    );
    await sql`create trigger feature_text_delete after delete on features begin ${rowOf('old.name')} end`.execute(
      db,
    );
    return;
  }
  await sql`savepoint feature_name_trigram`.execute(db);
  try {
    // One extension per database, in \`public\` rather than Flagstaff's schema (which a test or an
    // uninstall may drop, taking every other schema's trigram indexes with it). The operator class
    // lives in the extension's schema, which need not be on the search path.
    const schemaOf = async () =>
      (
        await sql<{
          schema: string;
        }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(
          db,
        )
      ).rows[0]?.schema;
    let schema = await schemaOf();
    if (schema === undefined) {
      await sql`create extension if not exists pg_trgm schema public`.execute(db);
      schema = (await schemaOf()) ?? 'public';
    }
    const ops = sql`${sql.id(schema)}.gin_trgm_ops`;
    await sql`create index features_name_trigram on features using gin (lower(name) ${ops})`.execute(db);
    await sql`create index features_description_trigram on features using gin (lower(coalesce(description, '')) ${ops})`.execute(
      db,
    );
    await sql`release savepoint feature_name_trigram`.execute(db);
  } catch {
    await sql`rollback to savepoint feature_name_trigram`.execute(db);
  }
}
