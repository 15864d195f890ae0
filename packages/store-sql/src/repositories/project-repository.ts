import type { FeatureNaming, Project, ProjectMode, ProjectRepository } from '@flagstaff/core';
import type { Selectable } from 'kysely';
import { jsonOf, parseOf, type RepoContext, touched, uniqueOr } from '../context.js';
import type { ProjectTable } from '../database.js';
import { type Binder, prepared } from '../prepared.js';

const getProject = prepared((db, p: Binder<{ id: string }>) =>
  db.selectFrom('projects').selectAll().where('id', '=', p.value('id')),
);

/** Projects. */
export function createProjectRepository(ctx: RepoContext): ProjectRepository {
  const { db } = ctx;
  const json = jsonOf(ctx);
  const parse = parseOf(ctx);
  const toProject = (row: Selectable<ProjectTable>): Project => ({
    id: row.id,
    name: row.name,
    description: row.description,
    mode: row.mode as ProjectMode,
    defaultStickiness: row.default_stickiness,
    featureLimit: row.feature_limit,
    featureNaming: parse<FeatureNaming>(row.feature_naming),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  });
  const columns = (p: Project) => ({
    name: p.name,
    description: p.description,
    mode: p.mode,
    default_stickiness: p.defaultStickiness,
    feature_limit: p.featureLimit,
    feature_naming: json(p.featureNaming),
    created_at: p.createdAt,
    updated_at: p.updatedAt,
  });
  return {
    async list() {
      const rows = await db.selectFrom('projects').selectAll().orderBy('name').orderBy('id').execute();
      return rows.map(toProject);
    },
    async get(id) {
      const row = (await getProject.run(ctx, { id })).rows[0];
      return row ? toProject(row) : null;
    },
    async insert(project) {
      await uniqueOr(ctx, `A project with id "${project.id}" already exists.`, (d) =>
        d
          .insertInto('projects')
          .values({ id: project.id, ...columns(project) })
          .execute(),
      );
    },
    async update(project) {
      return touched(
        await db
          .updateTable('projects')
          .set(columns(project))
          .where('id', '=', project.id)
          .executeTakeFirst(),
      );
    },
    async delete(id) {
      const deleted = touched(await db.deleteFrom('projects').where('id', '=', id).executeTakeFirst());
      if (!deleted) return false;
      await db.deleteFrom('project_environments').where('project_id', '=', id).execute();
      await db.deleteFrom('project_roles').where('project_id', '=', id).execute();
      return true;
    },
  };
}
