import type { SqlDialect } from '../sql-dialect.js';
import type { Ddl } from './column-types.js';

/** The event log (the outbox), its filter indexes and the dialect's free-text index. */
export async function createEventTables(ddl: Ddl, dialect: SqlDialect): Promise<void> {
  const { db, text: t, json: j } = ddl;
  // A plain rowid on SQLite: events are never deleted, so ids only grow, without AUTOINCREMENT's cost.
  await db.schema
    .createTable('events')
    .addColumn('id', dialect.types.eventId, (c) => c.primaryKey())
    .addColumn('type', t, (c) => c.notNull())
    .addColumn('created_at', t, (c) => c.notNull())
    .addColumn('created_time', 'bigint')
    .addColumn('created_by', t, (c) => c.notNull())
    .addColumn('created_by_user_id', 'integer')
    .addColumn('environment', t)
    .addColumn('project', t)
    .addColumn('feature_name', t)
    .addColumn('data', j)
    .addColumn('pre_data', j)
    .addColumn('tags', j, (c) => c.notNull())
    .execute();
  // Each filter index ends in id, so "filter, newest first, limit n" walks one index backwards.
  await db.schema.createIndex('events_type').on('events').columns(['type', 'id']).execute();
  await db.schema.createIndex('events_project').on('events').columns(['project', 'id']).execute();
  await db.schema.createIndex('events_feature').on('events').columns(['feature_name', 'id']).execute();
  await db.schema.createIndex('events_created').on('events').columns(['created_time', 'id']).execute();

  await ddl
    .withId(db.schema.createTable('event_creators'))
    .addColumn('name', t, (c) => c.notNull().unique())
    .execute();

  await dialect.eventSearch.create(db);
}
