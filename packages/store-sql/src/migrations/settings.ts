import type { Ddl } from './column-types.js';

/** Instance settings (maintenance mode…) and users' personal access tokens. */
export async function createSettingsTables(ddl: Ddl): Promise<void> {
  const t = ddl.text;
  await ddl.db.schema
    .createTable('settings')
    .addColumn('name', t, (c) => c.primaryKey())
    .addColumn('value', ddl.json, (c) => c.notNull())
    .execute();
  await ddl
    .withId(ddl.db.schema.createTable('personal_access_tokens'))
    .addColumn('secret_hash', t, (c) => c.notNull().unique())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('description', t, (c) => c.notNull())
    .addColumn('expires_at', t, (c) => c.notNull())
    .addColumn('created_at', t, (c) => c.notNull())
    .addColumn('seen_at', t)
    .execute();
  await ddl.db.schema
    .createIndex('personal_access_tokens_user')
    .on('personal_access_tokens')
    .column('user_id')
    .execute();
}
