import type {
  DefaultStrategy,
  Environment,
  EnvironmentRepository,
  ProjectEnvironmentRecord,
} from '@flagstaff/core';
import { type Selectable, sql } from 'kysely';
import { bool, jsonOf, parseOf, type RepoContext, touched, uniqueOr } from '../context.js';
import type { EnvironmentTable } from '../database.js';
import { type Binder, prepared } from '../prepared.js';

/** An environment row as the domain record. */
export const toEnvironment = (row: Selectable<EnvironmentTable>): Environment => ({
  name: row.name,
  type: row.type,
  enabled: bool(row.enabled),
  protected: bool(row.protected),
  sortOrder: row.sort_order,
  createdAt: row.created_at,
});

const getEnvironment = prepared((db, p: Binder<{ name: string }>) =>
  db.selectFrom('environments').selectAll().where('name', '=', p.value('name')),
);
const allEnvironments = prepared((db, _: Binder<object>) =>
  db.selectFrom('environments').selectAll().orderBy('sort_order').orderBy('name'),
);
const linksOfProject = prepared((db, p: Binder<{ projectId: string }>) =>
  db
    .selectFrom('project_environments as pe')
    .leftJoin('environments as e', 'e.name', 'pe.environment')
    .select(['pe.project_id', 'pe.environment', 'pe.default_strategy'])
    .where('pe.project_id', '=', p.value('projectId'))
    .orderBy((eb) => eb.case().when('e.name', 'is', null).then(1).else(0).end())
    .orderBy('e.sort_order')
    .orderBy('pe.environment'),
);

/** Environments and the project links (with default strategies). */
export function createEnvironmentRepository(ctx: RepoContext): EnvironmentRepository {
  const { db } = ctx;
  const json = jsonOf(ctx);
  const parse = parseOf(ctx);
  const columns = (e: Environment) => ({
    type: e.type,
    enabled: e.enabled,
    protected: e.protected,
    sort_order: e.sortOrder,
    created_at: e.createdAt,
  });
  return {
    async list() {
      const { rows } = await allEnvironments.run(ctx, {});
      return rows.map(toEnvironment);
    },
    async get(name) {
      const row = (await getEnvironment.run(ctx, { name })).rows[0];
      return row ? toEnvironment(row) : null;
    },
    async insert(environment) {
      await uniqueOr(ctx, `An environment named "${environment.name}" already exists.`, (d) =>
        d
          .insertInto('environments')
          .values({ name: environment.name, ...columns(environment) })
          .execute(),
      );
    },
    async update(environment) {
      const result = await db
        .updateTable('environments')
        .set(columns(environment))
        .where('name', '=', environment.name)
        .executeTakeFirst();
      return touched(result);
    },
    async delete(name) {
      if (!touched(await db.deleteFrom('environments').where('name', '=', name).executeTakeFirst()))
        return false;
      // Like the reference's foreign keys: nothing may keep pointing at an environment that is gone.
      await db.deleteFrom('project_environments').where('environment', '=', name).execute();
      await db.deleteFrom('feature_environments').where('environment', '=', name).execute();
      // The features' latest sighting may have been in that environment (see the feature search).
      await sql`update features set last_seen_at = (select max(fe.last_seen_at) from feature_environments fe where fe.feature_name = features.name) where last_seen_at is not null`.execute(
        db,
      );
      const strategies = db.selectFrom('feature_strategies').select('id').where('environment', '=', name);
      await db.deleteFrom('strategy_segments').where('strategy_id', 'in', strategies).execute();
      await db.deleteFrom('feature_strategies').where('environment', '=', name).execute();
      return true;
    },
    async listForProject(projectId) {
      // A link whose environment row is missing sorts last rather than disappearing.
      const { rows } = await linksOfProject.run(ctx, { projectId });
      return rows.map(
        (row): ProjectEnvironmentRecord => ({
          projectId: row.project_id,
          environment: row.environment,
          defaultStrategy:
            row.default_strategy === null ? null : parse<DefaultStrategy>(row.default_strategy),
        }),
      );
    },
    async listProjectsFor(environment) {
      const rows = await db
        .selectFrom('project_environments')
        .select('project_id')
        .where('environment', '=', environment)
        .orderBy('project_id')
        .execute();
      return rows.map((row) => row.project_id);
    },
    async linkProject(link) {
      const defaultStrategy = link.defaultStrategy === null ? null : json(link.defaultStrategy);
      await db
        .insertInto('project_environments')
        .values({
          project_id: link.projectId,
          environment: link.environment,
          default_strategy: defaultStrategy,
        })
        .onConflict((oc) =>
          oc.columns(['project_id', 'environment']).doUpdateSet({ default_strategy: defaultStrategy }),
        )
        .execute();
    },
    async unlinkProject(projectId, environment) {
      const result = await db
        .deleteFrom('project_environments')
        .where('project_id', '=', projectId)
        .where('environment', '=', environment)
        .executeTakeFirst();
      return touched(result);
    },
  };
}
