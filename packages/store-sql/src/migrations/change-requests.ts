import type { Ddl } from './column-types.js';

/**
 * Change requests: per project environment whether they are required, and the requests. A request
 * is one row whose changes, approvals and comments travel as one JSON document (they are read and
 * written together, always with the request); the columns listings filter on stand beside it.
 */
export async function createChangeRequestTables(ddl: Ddl): Promise<void> {
  const t = ddl.text;
  await ddl.db.schema
    .createTable('change_request_settings')
    .addColumn('project', t, (c) => c.notNull())
    .addColumn('environment', t, (c) => c.notNull())
    .addColumn('enabled', 'boolean', (c) => c.notNull())
    .addColumn('required_approvals', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('change_request_settings_pk', ['project', 'environment'])
    .execute();
  await ddl
    .withId(ddl.db.schema.createTable('change_requests'))
    .addColumn('project', t, (c) => c.notNull())
    .addColumn('environment', t, (c) => c.notNull())
    .addColumn('state', t, (c) => c.notNull())
    .addColumn('created_by_user_id', 'integer')
    // Set while a schedule is pending, so the scheduler's query needs no JSON.
    .addColumn('due_at', t)
    .addColumn('document', ddl.json, (c) => c.notNull())
    .execute();
  await ddl.db.schema
    .createIndex('change_requests_project_state')
    .on('change_requests')
    .columns(['project', 'state'])
    .execute();
  await ddl.db.schema.createIndex('change_requests_due').on('change_requests').column('due_at').execute();
}
