import type { Ddl } from './column-types.js';

/**
 * Per-addon delivery: each addon's queue of events (pending, or parked once their retries ran out),
 * the log of every attempt, and webhook signing secrets. Instants the worker computes with are epoch
 * ms (bigint); the log's `created_at` is ISO text like every other timestamp shown to users.
 */
export async function createAddonQueueTables(ddl: Ddl): Promise<void> {
  const t = ddl.text;
  await ddl.db.schema
    .createTable('addon_queue')
    .addColumn('addon_id', 'integer', (c) => c.notNull())
    .addColumn('event_id', 'bigint', (c) => c.notNull())
    .addColumn('state', t, (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('due_since', 'bigint', (c) => c.notNull())
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('failing_since', 'bigint')
    .addColumn('last_error', t)
    .addPrimaryKeyConstraint('addon_queue_pk', ['addon_id', 'state', 'event_id'])
    .execute();
  await ddl.db.schema
    .createIndex('addon_queue_event')
    .on('addon_queue')
    .columns(['addon_id', 'event_id'])
    .unique()
    .execute();
  await ddl
    .withId(ddl.db.schema.createTable('addon_attempts'))
    .addColumn('addon_id', 'integer', (c) => c.notNull())
    .addColumn('event_id', 'bigint', (c) => c.notNull())
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('error', t)
    .addColumn('created_at', t, (c) => c.notNull())
    .execute();
  await ddl.db.schema
    .createIndex('addon_attempts_addon')
    .on('addon_attempts')
    .columns(['addon_id', 'id'])
    .execute();
  await ddl.db.schema
    .createIndex('addon_attempts_created')
    .on('addon_attempts')
    .column('created_at')
    .execute();
  await ddl.db.schema
    .createTable('addon_secrets')
    .addColumn('addon_id', 'integer', (c) => c.primaryKey())
    .addColumn('current_secret', t, (c) => c.notNull())
    .addColumn('previous_secret', t)
    .addColumn('previous_expires_at', 'bigint')
    .execute();
}
