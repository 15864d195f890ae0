import type { Ddl } from './column-types.js';

/** Segments, users, roles, groups, tokens, addons, signals and metrics. */
export async function createAccessTables(ddl: Ddl): Promise<void> {
  const { db, text: t, json: j, withId } = ddl;
  await withId(db.schema.createTable('segments'))
    .addColumn('name', t, (c) => c.notNull().unique())
    .addColumn('description', t)
    .addColumn('project', t)
    .addColumn('constraints', j, (c) => c.notNull())
    .addColumn('created_at', t, (c) => c.notNull())
    .addColumn('created_by', t)
    .execute();

  await withId(db.schema.createTable('addons'))
    .addColumn('provider', t, (c) => c.notNull())
    .addColumn('description', t)
    .addColumn('enabled', 'boolean', (c) => c.notNull())
    .addColumn('parameters', j, (c) => c.notNull())
    .addColumn('events', j, (c) => c.notNull())
    .addColumn('projects', j, (c) => c.notNull())
    .addColumn('environments', j, (c) => c.notNull())
    .addColumn('created_at', t, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('api_tokens')
    .addColumn('secret_hash', t, (c) => c.primaryKey())
    .addColumn('display_secret', t, (c) => c.notNull())
    .addColumn('token_name', t, (c) => c.notNull())
    .addColumn('type', t, (c) => c.notNull())
    .addColumn('environment', t, (c) => c.notNull())
    .addColumn('projects', j, (c) => c.notNull())
    .addColumn('expires_at', t)
    .addColumn('created_at', t, (c) => c.notNull())
    .addColumn('seen_at', t)
    .addColumn('alias', t)
    .execute();
  await db.schema.createIndex('api_tokens_name').on('api_tokens').column('token_name').execute();

  await withId(db.schema.createTable('users'))
    .addColumn('name', t)
    .addColumn('email', t)
    .addColumn('email_lower', t, (c) => c.unique())
    .addColumn('username', t, (c) => c.unique())
    .addColumn('image_url', t)
    .addColumn('root_role', 'integer', (c) => c.notNull())
    .addColumn('account_type', t, (c) => c.notNull())
    .addColumn('login_attempts', 'integer', (c) => c.notNull())
    .addColumn('email_sent', 'boolean', (c) => c.notNull())
    .addColumn('seen_at', t)
    .addColumn('created_at', t, (c) => c.notNull())
    .addColumn('scim_id', t)
    .addColumn('password_hash', t)
    .execute();

  await db.schema
    .createTable('roles')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('type', t, (c) => c.notNull())
    .addColumn('name', t, (c) => c.notNull())
    .addColumn('description', t, (c) => c.notNull())
    .addColumn('project', t)
    .execute();

  await withId(db.schema.createTable('user_groups'))
    .addColumn('name', t, (c) => c.notNull().unique())
    .addColumn('description', t)
    .addColumn('root_role', 'integer')
    .addColumn('created_at', t, (c) => c.notNull())
    .addColumn('created_by', t)
    .execute();
  await db.schema
    .createTable('group_users')
    .addColumn('group_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', t, (c) => c.notNull())
    .addPrimaryKeyConstraint('group_users_pk', ['group_id', 'user_id'])
    .execute();
  await db.schema.createIndex('group_users_user').on('group_users').column('user_id').execute();

  await withId(db.schema.createTable('project_roles'))
    .addColumn('project_id', t, (c) => c.notNull())
    .addColumn('role_id', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer')
    .addColumn('group_id', 'integer')
    .addColumn('created_at', t, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('project_roles_project').on('project_roles').column('project_id').execute();
  await db.schema.createIndex('project_roles_user').on('project_roles').column('user_id').execute();
  await db.schema.createIndex('project_roles_group').on('project_roles').column('group_id').execute();

  await db.schema
    .createTable('signup_tokens')
    .addColumn('secret', t, (c) => c.primaryKey())
    .addColumn('name', t, (c) => c.notNull())
    .addColumn('enabled', 'boolean', (c) => c.notNull())
    .addColumn('expires_at', t, (c) => c.notNull())
    .addColumn('created_at', t, (c) => c.notNull())
    .addColumn('created_by', t)
    .addColumn('role_id', 'integer', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('signup_token_users')
    .addColumn('secret', t, (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('created_at', t, (c) => c.notNull())
    .addPrimaryKeyConstraint('signup_token_users_pk', ['secret', 'user_id'])
    .execute();

  await withId(db.schema.createTable('signal_endpoints'))
    .addColumn('name', t, (c) => c.notNull().unique())
    .addColumn('description', t)
    .addColumn('enabled', 'boolean', (c) => c.notNull())
    .addColumn('created_at', t, (c) => c.notNull())
    .addColumn('created_by_user_id', 'integer')
    .execute();
  await withId(db.schema.createTable('signal_endpoint_tokens'))
    .addColumn('signal_endpoint_id', 'integer', (c) => c.notNull())
    .addColumn('name', t, (c) => c.notNull())
    .addColumn('token_hash', t, (c) => c.notNull())
    .addColumn('created_at', t, (c) => c.notNull())
    .addColumn('created_by_user_id', 'integer')
    .execute();
  await db.schema
    .createIndex('signal_endpoint_tokens_endpoint')
    .on('signal_endpoint_tokens')
    .column('signal_endpoint_id')
    .execute();
  await withId(db.schema.createTable('signals'))
    .addColumn('source', t, (c) => c.notNull())
    .addColumn('source_id', 'integer', (c) => c.notNull())
    .addColumn('payload', j)
    .addColumn('created_at', t, (c) => c.notNull())
    .addColumn('token_name', t)
    .execute();
  await db.schema
    .createIndex('signals_source')
    .on('signals')
    .columns(['source', 'source_id', 'id'])
    .execute();
  await withId(db.schema.createTable('action_sets'))
    .addColumn('name', t, (c) => c.notNull())
    .addColumn('description', t)
    .addColumn('enabled', 'boolean', (c) => c.notNull())
    .addColumn('project', t, (c) => c.notNull())
    .addColumn('actor_id', 'integer')
    .addColumn('match', j, (c) => c.notNull())
    .addColumn('actions', j, (c) => c.notNull())
    .addColumn('created_at', t, (c) => c.notNull())
    .execute();

  const bucketKey = ['feature_name', 'app_name', 'environment', 'timestamp'] as const;
  await db.schema
    .createTable('client_metrics')
    .addColumn('feature_name', t, (c) => c.notNull())
    .addColumn('app_name', t, (c) => c.notNull())
    .addColumn('environment', t, (c) => c.notNull())
    .addColumn('timestamp', t, (c) => c.notNull())
    .addColumn('time', 'bigint')
    .addColumn('yes', 'bigint', (c) => c.notNull())
    .addColumn('no', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('client_metrics_pk', [...bucketKey])
    .execute();
  await db.schema.createIndex('client_metrics_time').on('client_metrics').column('time').execute();
  await db.schema
    .createTable('client_metrics_variants')
    .addColumn('feature_name', t, (c) => c.notNull())
    .addColumn('app_name', t, (c) => c.notNull())
    .addColumn('environment', t, (c) => c.notNull())
    .addColumn('timestamp', t, (c) => c.notNull())
    .addColumn('variant', t, (c) => c.notNull())
    .addColumn('count', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('client_metrics_variants_pk', [...bucketKey, 'variant'])
    .execute();
  await db.schema
    .createTable('client_applications')
    .addColumn('app_name', t, (c) => c.notNull())
    .addColumn('instance_id', t, (c) => c.notNull())
    .addColumn('sdk_version', t)
    .addColumn('environment', t, (c) => c.notNull())
    .addColumn('strategies', j, (c) => c.notNull())
    .addColumn('last_seen', t, (c) => c.notNull())
    .addPrimaryKeyConstraint('client_applications_pk', ['app_name', 'instance_id'])
    .execute();
}
