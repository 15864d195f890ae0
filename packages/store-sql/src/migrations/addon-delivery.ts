import type { Ddl } from './column-types.js';

/** Where addon delivery has got to in the event log, so a restart resumes instead of skipping. */
export async function createAddonDeliveryTable(ddl: Ddl): Promise<void> {
  await ddl.db.schema
    .createTable('addon_delivery')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('delivered_through', 'bigint', (c) => c.notNull())
    .execute();
}
