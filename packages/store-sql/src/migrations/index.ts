import { BUILT_IN_ROLES } from '@flagstaff/core';
import { type Kysely, type Migration, Migrator } from 'kysely';
import type { Database } from '../database.js';
import type { SqlDialect } from '../sql-dialect.js';
import { createAddonDeliveryTable } from './addon-delivery.js';
import { addAddonDeliveryLease } from './addon-delivery-lease.js';
import { createAddonQueueTables } from './addon-queue.js';
import { createChangeRequestTables } from './change-requests.js';
import { ddlFor } from './column-types.js';
import { createFeatureNameTrigram } from './feature-name-trigram.js';
import { createFeatureSearchIndexes } from './feature-search-indexes.js';
import { featureTextIndexesAsGist } from './feature-text-gist.js';
import { featureTextAsOneIndex } from './feature-text-one-index.js';
import { createAccessTables } from './initial-access-tables.js';
import { createEventTables } from './initial-event-tables.js';
import { createFeatureTables } from './initial-feature-tables.js';
import { createSessionTables } from './sessions.js';
import { createSettingsTables } from './settings.js';
import { createUnknownFlagsTable } from './unknown-flags.js';

/**
 * Every migration, by name, listed in the order they apply (kysely sorts the names). Never edit or
 * renumber one that has shipped. The numbers jump from 0006 to 0060 because work that merged later had
 * reserved 0060 and up, and 0005 was never used; databases already carry these names, so the gaps
 * stay. New migrations take the next number after the highest here, with no gaps.
 */
export function createMigrations(dialect: SqlDialect): Record<string, Migration> {
  return {
    '0001_initial': {
      async up(db) {
        const ddl = ddlFor(db, dialect);
        await createFeatureTables(ddl);
        await createAccessTables(ddl);
        await createEventTables(ddl, dialect);
      },
    },
    '0002_addon_delivery': {
      async up(db) {
        await createAddonDeliveryTable(ddlFor(db, dialect));
      },
    },
    '0003_addon_delivery_lease': {
      async up(db) {
        await addAddonDeliveryLease(ddlFor(db, dialect));
      },
    },
    '0004_sessions': {
      async up(db) {
        await createSessionTables(ddlFor(db, dialect));
      },
    },
    '0006_unknown_flags': {
      async up(db) {
        await createUnknownFlagsTable(ddlFor(db, dialect));
      },
    },
    '0060_event_ids_in_commit_order': {
      async up(db) {
        await dialect.orderEventIds(db);
      },
    },
    '0061_api_token_secrets': {
      async up(db) {
        // The sealed secret; null for tokens made before (they stay masked).
        await db.schema.alterTable('api_tokens').addColumn('secret_ciphertext', 'text').execute();
      },
    },
    '0062_addon_queues': {
      async up(db) {
        await createAddonQueueTables(ddlFor(db, dialect));
      },
    },
    '0063_settings_and_personal_tokens': {
      async up(db) {
        await createSettingsTables(ddlFor(db, dialect));
      },
    },
    '0064_feature_links': {
      async up(db) {
        const ddl = ddlFor(db, dialect);
        await db.schema
          .createTable('feature_links')
          .addColumn('id', ddl.text, (c) => c.primaryKey())
          .addColumn('feature_name', ddl.text, (c) => c.notNull())
          .addColumn('url', ddl.text, (c) => c.notNull())
          .addColumn('title', ddl.text)
          .addColumn('created_at', ddl.text, (c) => c.notNull())
          .execute();
        await db.schema
          .createIndex('feature_links_feature')
          .on('feature_links')
          .column('feature_name')
          .execute();
      },
    },
    '0065_project_context_fields': {
      async up(db) {
        await db.schema.alterTable('context_fields').addColumn('project', dialect.types.text).execute();
      },
    },
    '0066_event_index_position': {
      async up(db) {
        await dialect.eventSearch.behind?.createPosition(db);
      },
    },
    '0067_feature_search_indexes': {
      async up(db) {
        await createFeatureSearchIndexes(db, dialect);
      },
    },
    '0068_change_requests': {
      async up(db) {
        await createChangeRequestTables(ddlFor(db, dialect));
      },
    },
    '0069_feature_name_trigram': {
      async up(db) {
        await createFeatureNameTrigram(db, dialect);
      },
    },
    '0070_feature_text_gist': {
      async up(db) {
        await featureTextIndexesAsGist(db, dialect);
      },
    },
    '0071_feature_text_one_index': {
      async up(db) {
        await featureTextAsOneIndex(db, dialect);
      },
    },
  };
}

export interface MigrateOptions {
  /** The PostgreSQL schema the tables live in (kysely's bookkeeping tables go there too). */
  schema?: string | undefined;
}

/**
 * Applies pending migrations and seeds the built-in roles. Idempotent. The Migrator runs all pending
 * migrations in one transaction under the dialect adapter's migration lock (a PostgreSQL advisory
 * lock; SQLite's write lock), so two processes opening one database at once apply them once.
 */
export async function migrateToLatest(
  db: Kysely<Database>,
  dialect: SqlDialect,
  options: MigrateOptions = {},
): Promise<void> {
  const schema = options.schema ?? (await dialect.defaultSchema(db));
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => createMigrations(dialect) },
    ...(schema !== undefined && { migrationTableSchema: schema }),
    migrationTableName: 'flagstaff_migrations',
    migrationLockTableName: 'flagstaff_migrations_lock',
  });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error;
  await seedRoles(db);
}

/** Inserts the built-in roles that are missing; later versions may add roles, so this runs on every open. */
async function seedRoles(db: Kysely<Database>): Promise<void> {
  await db
    .insertInto('roles')
    .values(
      BUILT_IN_ROLES.map((r) => ({
        id: r.id,
        type: r.type,
        name: r.name,
        description: r.description,
        project: r.project,
      })),
    )
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}
