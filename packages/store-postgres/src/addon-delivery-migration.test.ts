import { PGlite } from '@electric-sql/pglite';
import { withWriteTransactions } from '@flagstaff/core/testing';
import { createMigrations } from '@flagstaff/store-sql';
import { Kysely, Migrator, sql } from 'kysely';
import { afterAll, expect, test } from 'vitest';
import { type PGliteLike, pgliteDialect } from './pglite-driver.js';
import { pgliteStore } from './pglite-store.js';
import { postgresDialect } from './postgres-dialect.js';
import { freshSchema } from './test-support.js';

const shared = new PGlite();
afterAll(() => shared.close());

test('0003 keeps the delivery position a database already had, with the lease free', async () => {
  const schema = freshSchema();
  const pglite = shared as unknown as PGliteLike;
  const db = new Kysely<unknown>({ dialect: pgliteDialect(pglite, schema, 'test') });
  const all = createMigrations(postgresDialect({ schema }));
  const upTo0002 = Object.fromEntries(Object.entries(all).filter(([name]) => name < '0003'));
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => upTo0002 },
    migrationTableSchema: schema,
    migrationTableName: 'flagstaff_migrations',
    migrationLockTableName: 'flagstaff_migrations_lock',
  });
  const { error } = await migrator.migrateToLatest();
  expect(error).toBeUndefined();
  await sql`insert into addon_delivery (id, delivered_through) values (1, 4000000000)`.execute(db);
  await db.destroy();

  const store = await pgliteStore({ pglite: shared, schema, dropSchemaOnClose: true });
  expect(await store.addons.getDeliveredThrough()).toBe(4_000_000_000);
  expect(await store.addons.getDeliveryLease()).toBeNull();
  expect(await withWriteTransactions(store).addons.acquireDeliveryLease('a', 0, 30_000)).toEqual({
    deliveredThrough: 4_000_000_000,
  });
  await store.close();
});
