import type { Caller } from '../../auth/caller.js';
import type { Project, ProjectSettings } from '../../domain/project.js';
import type { StrategyConfig } from '../../domain/strategy.js';
import type { OperationInput } from '../../operations/define-operation.js';
import type { OperationRunner } from '../../operations/run-operation.js';
import {
  addProjectEnvironment,
  removeProjectEnvironment,
  setProjectDefaultStrategy,
} from './project-environment-operations.js';
import {
  createProject,
  deleteProject,
  getProject,
  getProjectSettings,
  listProjects,
  setProjectFavorite,
  updateProject,
  updateProjectSettings,
  validateProjectId,
} from './project-operations.js';

export {
  missingProjectEnvironment,
  requireLinkedEnvironment,
  requireProject,
  requireProjectEnvironment,
} from './project-records.js';

type Body<Op, Omitted extends string = 'project'> = Omit<OperationInput<Op>, Omitted>;

/**
 * Projects, their environments and default strategies, for in-process callers: typed wrappers over
 * `project-operations.ts` and `project-environment-operations.ts`.
 */
export function createProjectService(run: OperationRunner) {
  return {
    /** Projects the caller may see: private ones only to members, root Admins and admin tokens. */
    list: async (caller: Caller): Promise<Project[]> => (await run(listProjects, caller, {})).projects,
    get: (caller: Caller, id: string): Promise<Project> => run(getProject, caller, { project: id }),
    /** VALIDATION for an id `create` would refuse, CONFLICT when it is taken. */
    validateId: (caller: Caller, input: OperationInput<typeof validateProjectId>): Promise<void> =>
      run(validateProjectId, caller, input),
    /** Creates a project linked to the given (default: every enabled) environments. */
    create: (caller: Caller, input: OperationInput<typeof createProject>): Promise<Project> =>
      run(createProject, caller, input),
    /** Updates the given properties (project-updated). */
    update: (caller: Caller, id: string, input: Body<typeof updateProject>): Promise<Project> =>
      run(updateProject, caller, { ...input, project: id }),
    /** The collaboration and naming settings of a project. */
    getSettings: (caller: Caller, id: string): Promise<ProjectSettings> =>
      run(getProjectSettings, caller, { project: id }),
    /** Changes only the settings given (project-updated). */
    updateSettings: (
      caller: Caller,
      id: string,
      input: Body<typeof updateProjectSettings>,
    ): Promise<ProjectSettings> => run(updateProjectSettings, caller, { ...input, project: id }),
    /** Deletes a project with no live features; its archived features go with it (project-deleted). */
    delete: (caller: Caller, id: string): Promise<void> => run(deleteProject, caller, { project: id }),
    /** Links an environment to the project (project-environment-added). */
    addEnvironment: (caller: Caller, projectId: string, environment: string): Promise<void> =>
      run(addProjectEnvironment, caller, { project: projectId, environment }),
    /** Unlinks an environment from the project (project-environment-removed). */
    removeEnvironment: (caller: Caller, projectId: string, environment: string): Promise<void> =>
      run(removeProjectEnvironment, caller, { project: projectId, environment }),
    /** Sets the strategy added when a feature is enabled with none (default-strategy-updated). */
    setDefaultStrategy: (
      caller: Caller,
      projectId: string,
      environment: string,
      input: Body<typeof setProjectDefaultStrategy, 'project' | 'environment'>,
    ): Promise<StrategyConfig> =>
      run(setProjectDefaultStrategy, caller, { ...input, project: projectId, environment }),
    /** Marks the project as a favorite of the user, or not (project-favorited / -unfavorited). */
    setFavorite: (caller: Caller, projectId: string, favorite: boolean): Promise<void> =>
      run(setProjectFavorite, caller, { project: projectId, favorite }),
  };
}

export type ProjectService = ReturnType<typeof createProjectService>;
