import { type Kysely, sql } from 'kysely';
import type { Ddl } from './column-types.js';

/**
 * Gives `addon_delivery` the lease that lets one process at a time deliver (holder and expiry,
 * epoch ms), and lets its row exist before a position does (the first holder sets it). SQLite
 * cannot drop NOT NULL in place, so the one-row table is rebuilt on both dialects alike.
 */
export async function addAddonDeliveryLease(ddl: Ddl): Promise<void> {
  const db = ddl.db as Kysely<{ addon_delivery: { id: number; delivered_through: number | string | null } }>;
  const rows = await db.selectFrom('addon_delivery').select(['id', 'delivered_through']).execute();
  await ddl.db.schema.dropTable('addon_delivery').execute();
  await ddl.db.schema
    .createTable('addon_delivery')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('delivered_through', 'bigint')
    .addColumn('lease_holder', ddl.text)
    .addColumn('lease_expires_at', 'bigint')
    .addCheckConstraint(
      'addon_delivery_lease_whole',
      sql`(lease_holder is null) = (lease_expires_at is null)`,
    )
    .execute();
  if (rows.length > 0)
    await db
      .insertInto('addon_delivery')
      .values(rows.map((r) => ({ id: r.id, delivered_through: Number(r.delivered_through) })))
      .execute();
}
