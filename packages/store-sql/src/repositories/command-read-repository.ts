import type { CommandReadRepository, DefaultStrategy, LinkedEnvironment, Tag } from '@flagstaff/core';
import type { Expression, Kysely, Selectable } from 'kysely';
import { parseOf, type RepoContext } from '../context.js';
import type { Database, EnvironmentTable, FeatureTable } from '../database.js';
import { type Binder, prepared } from '../prepared.js';
import { toEnvironment } from './environment-repository.js';
import { toFeature } from './feature-repository.js';

/** The project's links joined to their environments. */
const linksWithEnvironments = (db: Kysely<Database>, projectId: Expression<string>) =>
  db
    .selectFrom('project_environments as pe')
    .innerJoin('environments as e', 'e.name', 'pe.environment')
    .selectAll('e')
    .select(['pe.project_id', 'pe.default_strategy'])
    .where('pe.project_id', '=', projectId);

const projectEnvironment = prepared((db, p: Binder<{ projectId: string; environment: string }>) =>
  linksWithEnvironments(db, p.value('projectId')).where('pe.environment', '=', p.value('environment')),
);
const projectEnvironments = prepared((db, p: Binder<{ projectId: string }>) =>
  linksWithEnvironments(db, p.value('projectId')).orderBy('e.sort_order').orderBy('e.name'),
);

/** The feature's row once per tag (or once, without tags), tags in order. */
const featureWithTags = (db: Kysely<Database>, name: Expression<string>) =>
  db
    .selectFrom('features as f')
    .leftJoin('feature_tags as ft', 'ft.feature_name', 'f.name')
    .selectAll('f')
    .select(['ft.tag_type', 'ft.tag_value'])
    .where('f.name', '=', name)
    .orderBy('ft.tag_type')
    .orderBy('ft.tag_value');

const feature = prepared((db, p: Binder<{ name: string }>) => featureWithTags(db, p.value('name')));

/** Also the project's link to one environment, and that environment, aliased apart from the feature's columns. */
const featureInEnvironment = prepared((db, p: Binder<{ name: string; environment: string }>) =>
  featureWithTags(db, p.value('name'))
    .leftJoin('project_environments as pe', (join) =>
      join.onRef('pe.project_id', '=', 'f.project').on('pe.environment', '=', p.value('environment')),
    )
    .leftJoin('environments as e', 'e.name', 'pe.environment')
    .select([
      'pe.default_strategy',
      'e.name as env_name',
      'e.type as env_type',
      'e.enabled as env_enabled',
      'e.protected as env_protected',
      'e.sort_order as env_sort_order',
      'e.created_at as env_created_at',
    ]),
);

type TagColumns = { tag_type: string | null; tag_value: string | null };
const tagsOf = (rows: readonly TagColumns[]): Tag[] =>
  rows.flatMap((row) =>
    row.tag_type === null || row.tag_value === null ? [] : [{ type: row.tag_type, value: row.tag_value }],
  );

/** The write side's read models, one query each. */
export function createCommandReadRepository(ctx: RepoContext): CommandReadRepository {
  const parse = parseOf(ctx);
  const defaultStrategyOf = (raw: unknown): DefaultStrategy | null =>
    raw === null ? null : parse<DefaultStrategy>(raw);
  const toLinked = (
    row: Selectable<EnvironmentTable> & { project_id: string; default_strategy: unknown },
  ): LinkedEnvironment => ({
    environment: toEnvironment(row),
    link: {
      projectId: row.project_id,
      environment: row.name,
      defaultStrategy: defaultStrategyOf(row.default_strategy),
    },
  });

  return {
    async feature(name) {
      const { rows } = await feature.run(ctx, { name });
      const first = rows[0];
      return first ? { feature: toFeature(first), tags: tagsOf(rows) } : null;
    },
    async featureInEnvironment(name, environment) {
      const { rows } = await featureInEnvironment.run(ctx, { name, environment });
      const first = rows[0];
      if (!first) return null;
      const found = toFeature(first as Selectable<FeatureTable>);
      const linked: LinkedEnvironment | null =
        first.env_name === null
          ? null
          : {
              environment: toEnvironment({
                name: first.env_name,
                type: first.env_type!,
                enabled: first.env_enabled!,
                protected: first.env_protected!,
                sort_order: first.env_sort_order!,
                created_at: first.env_created_at!,
              }),
              link: {
                projectId: found.project,
                environment: first.env_name,
                defaultStrategy: defaultStrategyOf(first.default_strategy),
              },
            };
      return { feature: found, tags: tagsOf(rows), linked };
    },
    async projectEnvironment(projectId, environment) {
      const row = (await projectEnvironment.run(ctx, { projectId, environment })).rows[0];
      return row ? toLinked(row) : null;
    },
    async projectEnvironments(projectId) {
      return (await projectEnvironments.run(ctx, { projectId })).rows.map(toLinked);
    },
  };
}
