import type { Caller } from '../../auth/caller.js';
import { seesProject } from '../../auth/principal.js';
import { projectVisibility } from '../../auth/project-visibility.js';
import { validateProjectIdSchema } from '../../domain/name-validation.js';
import { parseWith } from '../../domain/parse.js';
import {
  createProjectSchema,
  type Project,
  type ProjectEnvironmentRecord,
  type ProjectSettings,
  projectSettingsSchema,
  settingsOf,
  updateProjectSchema,
} from '../../domain/project.js';
import { strategyConfigSchema } from '../../domain/strategy.js';
import { ROLES } from '../../domain/user.js';
import { conflict, FlagstaffError, notFound } from '../../errors.js';
import type { LinkedEnvironment } from '../../ports/project-ports.js';
import type { ReadRepositories } from '../../ports/store.js';
import { inTransaction, nowIso, type ServiceDeps } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';
import { requireEnvironment } from './environment-service.js';

/** Loads a project or throws NOT_FOUND. */
export async function requireProject(repos: ReadRepositories, id: string): Promise<Project> {
  const project = await repos.projects.get(id);
  if (!project) throw notFound('project', id);
  return project;
}

/** Loads the project's link to an environment or throws NOT_FOUND naming both. */
export async function requireProjectEnvironment(
  repos: ReadRepositories,
  projectId: string,
  environment: string,
): Promise<ProjectEnvironmentRecord> {
  return (await requireLinkedEnvironment(repos, projectId, environment)).link;
}

/** Like `requireProjectEnvironment`, also handing back the environment it loaded on the way. */
export async function requireLinkedEnvironment(
  repos: ReadRepositories,
  projectId: string,
  environment: string,
): Promise<LinkedEnvironment> {
  const linked = await repos.commandReads.projectEnvironment(projectId, environment);
  return linked ?? missingProjectEnvironment(repos, projectId, environment);
}

/** The NOT_FOUND for an environment the project does not use (or the environment's own, when it does not exist). */
export async function missingProjectEnvironment(
  repos: ReadRepositories,
  projectId: string,
  environment: string,
): Promise<never> {
  // One read on the common path; a second only to say which of the two is missing.
  await requireEnvironment(repos, environment);
  throw notFound(`environment in project "${projectId}"`, environment);
}

/** Projects, their environments and default strategies. */
export function createProjectService(deps: ServiceDeps) {
  const { store } = deps;
  const service = {
    /** Projects the caller may see: private ones only to members, root Admins and admin tokens. */
    async list(caller: Caller): Promise<Project[]> {
      await deps.policy.require(caller, 'NONE');
      const projects = await store.projects.list();
      const visibility = await projectVisibility(store, caller.principal, projects);
      return visibility.all ? projects : projects.filter((p) => seesProject(visibility, p.id));
    },
    async get(caller: Caller, id: string) {
      await deps.policy.require(caller, 'NONE', { project: id });
      return requireProject(store, id);
    },

    /** POST /projects/validate: VALIDATION for an id `create` would refuse, CONFLICT when it is taken. */
    async validateId(caller: Caller, input: unknown): Promise<void> {
      await deps.policy.require(caller, 'NONE', {});
      const { id } = parseWith(validateProjectIdSchema, input);
      if (await store.projects.get(id)) throw conflict(`A project with id "${id}" already exists.`, 'id');
    },

    /** Creates a project linked to the given (default: every enabled) environments. */
    async create(caller: Caller, input: unknown): Promise<Project> {
      const actor = await deps.policy.permit(caller, 'CREATE_PROJECT', {});
      const body = parseWith(createProjectSchema, input);
      return inTransaction(deps, async (tx) => {
        if (await tx.projects.get(body.id))
          throw conflict(`A project with id "${body.id}" already exists.`, 'id');
        const at = nowIso(deps);
        const project: Project = {
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
        await tx.projects.insert(project);
        const envs = body.environments
          ? await Promise.all(body.environments.map((e) => requireEnvironment(tx, e)))
          : (await tx.environments.list()).filter((e) => e.enabled);
        for (const env of envs)
          await tx.environments.linkProject({
            projectId: project.id,
            environment: env.name,
            defaultStrategy: null,
          });
        // The reference makes whoever creates a project its Owner: they keep it when it is private,
        // and the project starts with the member who is answerable for it.
        const owner = actor.userId !== null && (await tx.users.get(actor.userId)) ? actor.userId : null;
        if (owner !== null)
          await tx.projectAccess.setRoles(project.id, { userId: owner }, [ROLES.Owner.id], at);
        await writeEvents(tx, actor, at, [
          { type: 'project-created', project: project.id, data: project },
          ...(owner === null
            ? []
            : [
                {
                  type: 'project-access-added' as const,
                  project: project.id,
                  data: { roles: [ROLES.Owner.id], users: [owner], groups: [] },
                },
              ]),
        ]);
        return project;
      });
    },

    /** Updates the given properties (project-updated). */
    async update(caller: Caller, id: string, input: unknown): Promise<Project> {
      const actor = await deps.policy.permit(caller, 'UPDATE_PROJECT', { project: id });
      const body = parseWith(updateProjectSchema, input);
      if (body.id !== undefined && body.id !== id)
        throw new FlagstaffError('VALIDATION', `"id" must be "${id}" (the project in the path).`, {
          path: 'id',
        });
      return inTransaction(deps, async (tx) => {
        const before = await requireProject(tx, id);
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
        await tx.projects.update(after);
        await writeEvents(tx, actor, after.updatedAt!, [
          { type: 'project-updated', project: id, data: after, preData: before },
        ]);
        return after;
      });
    },

    /** GET /projects/:p/settings: the collaboration and naming settings of a project. */
    async getSettings(caller: Caller, id: string): Promise<ProjectSettings> {
      await deps.policy.require(caller, 'NONE', { project: id });
      return settingsOf(await requireProject(store, id));
    },

    /** PUT /projects/:p/settings: changes only the settings given (project-updated). */
    async updateSettings(caller: Caller, id: string, input: unknown): Promise<ProjectSettings> {
      await deps.policy.require(caller, 'UPDATE_PROJECT', { project: id });
      return settingsOf(await service.update(caller, id, parseWith(projectSettingsSchema, input)));
    },

    /** Deletes a project with no live features; its archived features go with it (project-deleted). */
    async delete(caller: Caller, id: string): Promise<void> {
      const actor = await deps.policy.permit(caller, 'DELETE_PROJECT', { project: id });
      return inTransaction(deps, async (tx) => {
        const project = await requireProject(tx, id);
        if (id === 'default') throw new FlagstaffError('CONFLICT', 'The default project cannot be deleted.');
        const live = await tx.features.countLive(id);
        if (live > 0)
          throw new FlagstaffError(
            'CONFLICT',
            `Project "${id}" still has ${live} feature flag${live === 1 ? '' : 's'}; archive ${live === 1 ? 'it' : 'them'} before deleting the project.`,
          );
        for (const f of await tx.features.list({ project: id, archived: true }))
          await tx.features.delete(f.name);
        await tx.projects.delete(id);
        await writeEvents(tx, actor, nowIso(deps), [
          { type: 'project-deleted', project: id, preData: project },
        ]);
      });
    },

    /** Links an environment to the project (project-environment-added). */
    async addEnvironment(caller: Caller, projectId: string, environment: string): Promise<void> {
      const actor = await deps.policy.permit(caller, 'UPDATE_PROJECT', { project: projectId });
      return inTransaction(deps, async (tx) => {
        await requireProject(tx, projectId);
        await requireEnvironment(tx, environment);
        const links = await tx.environments.listForProject(projectId);
        if (links.some((l) => l.environment === environment))
          throw conflict(`Environment "${environment}" is already enabled in project "${projectId}".`);
        await tx.environments.linkProject({ projectId, environment, defaultStrategy: null });
        await writeEvents(tx, actor, nowIso(deps), [
          { type: 'project-environment-added', project: projectId, environment },
        ]);
      });
    },

    /** Unlinks an environment from the project (project-environment-removed). */
    async removeEnvironment(caller: Caller, projectId: string, environment: string): Promise<void> {
      const actor = await deps.policy.permit(caller, 'UPDATE_PROJECT', { project: projectId });
      return inTransaction(deps, async (tx) => {
        await requireProject(tx, projectId);
        await requireProjectEnvironment(tx, projectId, environment);
        const links = await tx.environments.listForProject(projectId);
        if (links.length <= 1)
          throw new FlagstaffError('CONFLICT', `Project "${projectId}" must keep at least one environment.`);
        await tx.environments.unlinkProject(projectId, environment);
        await writeEvents(tx, actor, nowIso(deps), [
          { type: 'project-environment-removed', project: projectId, environment },
        ]);
      });
    },

    /** Sets the strategy added when a feature is enabled with none (default-strategy-updated). */
    async setDefaultStrategy(caller: Caller, projectId: string, environment: string, input: unknown) {
      const actor = await deps.policy.permit(caller, 'UPDATE_PROJECT', { project: projectId });
      const strategy = parseWith(strategyConfigSchema, input);
      return inTransaction(deps, async (tx) => {
        await requireProject(tx, projectId);
        const link = await requireProjectEnvironment(tx, projectId, environment);
        await tx.environments.linkProject({ ...link, defaultStrategy: strategy });
        await writeEvents(tx, actor, nowIso(deps), [
          {
            type: 'default-strategy-updated',
            project: projectId,
            environment,
            data: strategy,
            preData: link.defaultStrategy,
          },
        ]);
        return strategy;
      });
    },

    /** Marks the project as a favorite of the user, or not (project-favorited / -unfavorited). */
    async setFavorite(caller: Caller, projectId: string, favorite: boolean): Promise<void> {
      const actor = await deps.policy.permit(caller, 'NONE', { project: projectId });
      return inTransaction(deps, async (tx) => {
        await requireProject(tx, projectId);
        if (actor.userId === null)
          throw new FlagstaffError(
            'VALIDATION',
            'Favorites belong to users; API tokens cannot have favorites.',
          );
        const changed = await tx.favorites.set(actor.userId, 'project', projectId, favorite);
        if (changed)
          await writeEvents(tx, actor, nowIso(deps), [
            { type: favorite ? 'project-favorited' : 'project-unfavorited', project: projectId },
          ]);
      });
    },
  };
  return service;
}

export type ProjectService = ReturnType<typeof createProjectService>;
