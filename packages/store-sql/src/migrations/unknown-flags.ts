import type { Ddl } from './column-types.js';

/**
 * Remembers feature names SDKs report metrics for that no feature has (typos, flags deleted while
 * still in code), for the admin's unknown-flags view. Keyed like Unleash's `unknown_flags`.
 */
export async function createUnknownFlagsTable(ddl: Ddl): Promise<void> {
  const t = ddl.text;
  await ddl.db.schema
    .createTable('unknown_flags')
    .addColumn('name', t, (c) => c.notNull())
    .addColumn('app_name', t, (c) => c.notNull())
    .addColumn('environment', t, (c) => c.notNull())
    .addColumn('last_seen_at', t, (c) => c.notNull())
    .addColumn('last_seen_time', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('unknown_flags_pk', ['name', 'app_name', 'environment'])
    .execute();
  await ddl.db.schema
    .createIndex('unknown_flags_last_seen')
    .on('unknown_flags')
    .column('last_seen_time')
    .execute();
}
