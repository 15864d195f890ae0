import { z } from 'zod';
import { seesProject } from '../../auth/principal.js';
import { projectVisibility } from '../../auth/project-visibility.js';
import { validateProjectIdSchema } from '../../domain/name-validation.js';
import {
  createProjectSchema,
  type Project,
  projectListSchema,
  projectSchema,
  projectSettingsSchema,
  projectSettingsViewSchema,
  settingsOf,
  updateProjectSchema,
} from '../../domain/project.js';
import { ROLES } from '../../domain/user.js';
import { conflict, FlagstaffError } from '../../errors.js';
import { defineOperation, type OperationContext } from '../../operations/define-operation.js';
import { nowIso } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';
import { requireEnvironment } from './environment-operations.js';
import { requireProject } from './project-records.js';

/** The project a path names (`:projectId`), apart from a body's own `id`. */
const project = z.string();
const projectScope = (input: { project?: string | undefined }) => ({ project: input.project });

/** Projects the caller may see: private ones only to members, root Admins and admin tokens. */
export const listProjects = defineOperation({
  id: 'projects.list',
  summary: 'List projects',
  kind: 'read',
  permission: 'NONE',
  input: z.object({}),
  output: projectListSchema,
  run: async (_input, { repos, caller }) => {
    const projects = await repos.projects.list();
    const visibility = await projectVisibility(repos, caller.principal, projects);
    return {
      version: 1,
      projects: visibility.all ? projects : projects.filter((p) => seesProject(visibility, p.id)),
    };
  },
});

/** One project the caller may see, or NOT_FOUND. */
export const getProject = defineOperation({
  id: 'projects.get',
  summary: 'Get a project',
  kind: 'read',
  permission: 'NONE',
  scope: projectScope,
  input: z.object({ project }),
  output: projectSchema,
  run: (input, { repos }) => requireProject(repos, input.project),
});

/** VALIDATION for an id `create` would refuse, CONFLICT when it is taken. */
export const validateProjectId = defineOperation({
  id: 'projects.validateId',
  summary: 'Validate a project id',
  kind: 'read',
  permission: 'NONE',
  input: validateProjectIdSchema,
  output: z.void(),
  run: async ({ id }, { repos }) => {
    if (await repos.projects.get(id)) throw conflict(`A project with id "${id}" already exists.`, 'id');
  },
});

/**
 * Creates a project linked to the given (default: every enabled) environments (project-created);
 * whoever creates it becomes its Owner, as in the reference (project-access-added).
 */
export const createProject = defineOperation({
  id: 'projects.create',
  summary: 'Create a project',
  kind: 'write',
  permission: 'CREATE_PROJECT',
  input: createProjectSchema,
  output: projectSchema,
  run: async (body, { deps, repos: tx, actor }) => {
    if (await tx.projects.get(body.id))
      throw conflict(`A project with id "${body.id}" already exists.`, 'id');
    const at = nowIso(deps);
    const created: Project = {
      id: body.id,
      name: body.name,
      description: body.description ?? null,
      mode: body.mode,
      defaultStickiness: body.defaultStickiness,
      featureLimit: body.featureLimit ?? null,
      featureNaming: {
        pattern: body.featureNaming?.pattern ?? null,
        example: body.featureNaming?.example ?? null,
        description: body.featureNaming?.description ?? null,
      },
      createdAt: at,
      updatedAt: at,
    };
    await tx.projects.insert(created);
    const envs = body.environments
      ? await Promise.all(body.environments.map((e) => requireEnvironment(tx, e)))
      : (await tx.environments.list()).filter((e) => e.enabled);
    for (const env of envs)
      await tx.environments.linkProject({
        projectId: created.id,
        environment: env.name,
        defaultStrategy: null,
      });
    // The reference makes whoever creates a project its Owner: they keep it when it is private,
    // and the project starts with the member who is answerable for it.
    const owner = actor.userId !== null && (await tx.users.get(actor.userId)) ? actor.userId : null;
    if (owner !== null) await tx.projectAccess.setRoles(created.id, { userId: owner }, [ROLES.Owner.id], at);
    await writeEvents(tx, actor, at, [
      { type: 'project-created', project: created.id, data: created },
      ...(owner === null
        ? []
        : [
            {
              type: 'project-access-added' as const,
              project: created.id,
              data: { roles: [ROLES.Owner.id], users: [owner], groups: [] },
            },
          ]),
    ]);
    return created;
  },
});

/** Changes the given properties of a project (project-updated); what is omitted stays. */
async function changeProject(
  id: string,
  body: z.output<typeof updateProjectSchema>,
  { deps, repos, actor }: OperationContext<'write'>,
): Promise<Project> {
  if (body.id !== undefined && body.id !== id)
    throw new FlagstaffError('VALIDATION', `"id" must be "${id}" (the project in the path).`, { path: 'id' });
  const before = await requireProject(repos, id);
  const after: Project = {
    ...before,
    name: body.name ?? before.name,
    description: body.description === undefined ? before.description : body.description,
    mode: body.mode ?? before.mode,
    defaultStickiness: body.defaultStickiness ?? before.defaultStickiness,
    featureLimit: body.featureLimit === undefined ? before.featureLimit : body.featureLimit,
    featureNaming: body.featureNaming
      ? {
          pattern: body.featureNaming.pattern,
          example: body.featureNaming.example ?? null,
          description: body.featureNaming.description ?? null,
        }
      : before.featureNaming,
    updatedAt: nowIso(deps),
  };
  await repos.projects.update(after);
  await writeEvents(repos, actor, after.updatedAt!, [
    { type: 'project-updated', project: id, data: after, preData: before },
  ]);
  return after;
}

/** Updates the given properties (project-updated); a body's `id` may only repeat the path's. */
export const updateProject = defineOperation({
  id: 'projects.update',
  summary: 'Update a project',
  kind: 'write',
  permission: 'UPDATE_PROJECT',
  scope: projectScope,
  input: updateProjectSchema.extend({ project }),
  output: projectSchema,
  run: ({ project, ...body }, ctx) => changeProject(project, body, ctx),
});

/** The collaboration and naming settings of a project. */
export const getProjectSettings = defineOperation({
  id: 'projects.getSettings',
  summary: "Get a project's settings (mode, default stickiness, feature limit, naming)",
  kind: 'read',
  permission: 'NONE',
  scope: projectScope,
  input: z.object({ project }),
  output: projectSettingsViewSchema,
  run: async (input, { repos }) => settingsOf(await requireProject(repos, input.project)),
});

/** Changes only the settings given (project-updated). */
export const updateProjectSettings = defineOperation({
  id: 'projects.updateSettings',
  summary: "Update a project's settings; what is omitted stays",
  kind: 'write',
  permission: 'UPDATE_PROJECT',
  scope: projectScope,
  input: projectSettingsSchema.extend({ project }),
  output: projectSettingsViewSchema,
  run: async ({ project, ...settings }, ctx) => settingsOf(await changeProject(project, settings, ctx)),
});

/** Deletes a project with no live features; its archived features go with it (project-deleted). */
export const deleteProject = defineOperation({
  id: 'projects.delete',
  summary: 'Delete a project',
  kind: 'write',
  permission: 'DELETE_PROJECT',
  scope: projectScope,
  input: z.object({ project }),
  output: z.void(),
  run: async ({ project: id }, { deps, repos: tx, actor }) => {
    const before = await requireProject(tx, id);
    if (id === 'default') throw new FlagstaffError('CONFLICT', 'The default project cannot be deleted.');
    const live = await tx.features.countLive(id);
    if (live > 0)
      throw new FlagstaffError(
        'CONFLICT',
        `Project "${id}" still has ${live} feature flag${live === 1 ? '' : 's'}; archive ${live === 1 ? 'it' : 'them'} before deleting the project.`,
      );
    for (const f of await tx.features.list({ project: id, archived: true })) await tx.features.delete(f.name);
    await tx.projects.delete(id);
    await writeEvents(tx, actor, nowIso(deps), [{ type: 'project-deleted', project: id, preData: before }]);
  },
});

/** Marks the project as a favorite of the user, or not (project-favorited / -unfavorited). */
export const setProjectFavorite = defineOperation({
  id: 'projects.setFavorite',
  summary: 'Add a project to favorites, or remove it',
  kind: 'write',
  permission: 'NONE',
  scope: projectScope,
  input: z.object({ project, favorite: z.boolean() }),
  output: z.void(),
  run: async ({ project: id, favorite }, { deps, repos: tx, actor }) => {
    await requireProject(tx, id);
    if (actor.userId === null)
      throw new FlagstaffError('VALIDATION', 'Favorites belong to users; API tokens cannot have favorites.');
    const changed = await tx.favorites.set(actor.userId, 'project', id, favorite);
    if (changed)
      await writeEvents(tx, actor, nowIso(deps), [
        { type: favorite ? 'project-favorited' : 'project-unfavorited', project: id },
      ]);
  },
});
