import type { Ddl } from './column-types.js';

/**
 * Login sessions (only the SHA-256 of each session id is stored), failed-login counters shared by
 * every process of the store, and an index for the feature table's default order (createdAt).
 */
export async function createSessionTables(ddl: Ddl): Promise<void> {
  const { db, text: t } = ddl;
  await db.schema
    .createTable('sessions')
    .addColumn('id_hash', t, (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', t, (c) => c.notNull())
    .addColumn('last_seen_at', t, (c) => c.notNull())
    .addColumn('expires_at', t, (c) => c.notNull())
    .addColumn('ip', t)
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();
  await db.schema.createIndex('sessions_expires').on('sessions').column('expires_at').execute();

  await db.schema
    .createTable('login_throttles')
    .addColumn('username', t, (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('first_failure_at', t, (c) => c.notNull())
    .addColumn('last_failure_at', t, (c) => c.notNull())
    .addColumn('locked_until', t)
    .execute();

  await db.schema
    .createIndex('features_archived_created')
    .on('features')
    .columns(['archived_at', 'created_at'])
    .execute();
}
