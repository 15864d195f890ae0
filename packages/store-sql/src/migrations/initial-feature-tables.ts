import type { Ddl } from './column-types.js';

/** Projects, environments, features and everything hanging off them. */
export async function createFeatureTables({ db, text: t, json: j }: Ddl): Promise<void> {
  await db.schema
    .createTable('projects')
    .addColumn('id', t, (c) => c.primaryKey())
    .addColumn('name', t, (c) => c.notNull())
    .addColumn('description', t)
    .addColumn('mode', t, (c) => c.notNull())
    .addColumn('default_stickiness', t, (c) => c.notNull())
    .addColumn('feature_limit', 'integer')
    .addColumn('feature_naming', j, (c) => c.notNull())
    .addColumn('created_at', t, (c) => c.notNull())
    .addColumn('updated_at', t)
    .execute();

  await db.schema
    .createTable('environments')
    .addColumn('name', t, (c) => c.primaryKey())
    .addColumn('type', t, (c) => c.notNull())
    .addColumn('enabled', 'boolean', (c) => c.notNull())
    .addColumn('protected', 'boolean', (c) => c.notNull())
    .addColumn('sort_order', 'integer', (c) => c.notNull())
    .addColumn('created_at', t, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('project_environments')
    .addColumn('project_id', t, (c) => c.notNull())
    .addColumn('environment', t, (c) => c.notNull())
    .addColumn('default_strategy', j)
    .addPrimaryKeyConstraint('project_environments_pk', ['project_id', 'environment'])
    .execute();
  await db.schema
    .createIndex('project_environments_environment')
    .on('project_environments')
    .column('environment')
    .execute();

  await db.schema
    .createTable('features')
    .addColumn('name', t, (c) => c.primaryKey())
    .addColumn('project', t, (c) => c.notNull())
    .addColumn('type', t, (c) => c.notNull())
    .addColumn('description', t)
    .addColumn('stale', 'boolean', (c) => c.notNull())
    .addColumn('impression_data', 'boolean', (c) => c.notNull())
    .addColumn('created_at', t, (c) => c.notNull())
    .addColumn('archived_at', t)
    .addColumn('created_by_user_id', 'integer')
    .addColumn('lifecycle_stage', t, (c) => c.notNull())
    .addColumn('entered_stage_at', t, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('features_project').on('features').columns(['project', 'name']).execute();

  await db.schema
    .createTable('feature_environments')
    .addColumn('feature_name', t, (c) => c.notNull())
    .addColumn('environment', t, (c) => c.notNull())
    .addColumn('enabled', 'boolean', (c) => c.notNull())
    .addColumn('variants', j, (c) => c.notNull())
    .addColumn('last_seen_at', t)
    .addPrimaryKeyConstraint('feature_environments_pk', ['feature_name', 'environment'])
    .execute();
  await db.schema
    .createIndex('feature_environments_environment')
    .on('feature_environments')
    .column('environment')
    .execute();

  await db.schema
    .createTable('feature_strategies')
    .addColumn('id', t, (c) => c.primaryKey())
    .addColumn('feature_name', t, (c) => c.notNull())
    .addColumn('project_id', t, (c) => c.notNull())
    .addColumn('environment', t, (c) => c.notNull())
    .addColumn('strategy_name', t, (c) => c.notNull())
    .addColumn('title', t)
    .addColumn('disabled', 'boolean', (c) => c.notNull())
    .addColumn('sort_order', 'integer', (c) => c.notNull())
    .addColumn('parameters', j, (c) => c.notNull())
    .addColumn('constraints', j, (c) => c.notNull())
    .addColumn('variants', j, (c) => c.notNull())
    .addColumn('created_at', t, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('feature_strategies_feature')
    .on('feature_strategies')
    .columns(['feature_name', 'environment', 'sort_order'])
    .execute();
  await db.schema
    .createIndex('feature_strategies_project')
    .on('feature_strategies')
    .column('project_id')
    .execute();
  await db.schema
    .createIndex('feature_strategies_environment')
    .on('feature_strategies')
    .column('environment')
    .execute();

  await db.schema
    .createTable('strategy_segments')
    .addColumn('strategy_id', t, (c) => c.notNull())
    .addColumn('segment_id', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('strategy_segments_pk', ['strategy_id', 'segment_id'])
    .execute();
  await db.schema
    .createIndex('strategy_segments_segment')
    .on('strategy_segments')
    .column('segment_id')
    .execute();

  await db.schema
    .createTable('tag_types')
    .addColumn('name', t, (c) => c.primaryKey())
    .addColumn('description', t)
    .addColumn('icon', t)
    .execute();
  await db.schema
    .createTable('tags')
    .addColumn('type', t, (c) => c.notNull())
    .addColumn('value', t, (c) => c.notNull())
    .addPrimaryKeyConstraint('tags_pk', ['type', 'value'])
    .execute();
  await db.schema
    .createTable('feature_tags')
    .addColumn('feature_name', t, (c) => c.notNull())
    .addColumn('tag_type', t, (c) => c.notNull())
    .addColumn('tag_value', t, (c) => c.notNull())
    .addPrimaryKeyConstraint('feature_tags_pk', ['feature_name', 'tag_type', 'tag_value'])
    .execute();
  await db.schema
    .createIndex('feature_tags_tag')
    .on('feature_tags')
    .columns(['tag_type', 'tag_value'])
    .execute();

  await db.schema
    .createTable('dependencies')
    .addColumn('child', t, (c) => c.notNull())
    .addColumn('parent', t, (c) => c.notNull())
    .addColumn('enabled', 'boolean', (c) => c.notNull())
    .addColumn('variants', j, (c) => c.notNull())
    .addPrimaryKeyConstraint('dependencies_pk', ['child', 'parent'])
    .execute();
  await db.schema.createIndex('dependencies_parent').on('dependencies').column('parent').execute();

  await db.schema
    .createTable('favorites')
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('kind', t, (c) => c.notNull())
    .addColumn('name', t, (c) => c.notNull())
    .addPrimaryKeyConstraint('favorites_pk', ['user_id', 'kind', 'name'])
    .execute();
  await db.schema.createIndex('favorites_name').on('favorites').columns(['kind', 'name']).execute();

  await db.schema
    .createTable('context_fields')
    .addColumn('name', t, (c) => c.primaryKey())
    .addColumn('description', t)
    .addColumn('stickiness', 'boolean', (c) => c.notNull())
    .addColumn('sort_order', 'integer', (c) => c.notNull())
    .addColumn('legal_values', j, (c) => c.notNull())
    .addColumn('created_at', t, (c) => c.notNull())
    .execute();
}
