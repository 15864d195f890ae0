import { z } from 'zod';
import { environmentNameSchema } from '../../domain/environment.js';
import { strategyConfigSchema, strategyConfigViewSchema } from '../../domain/strategy.js';
import { conflict, FlagstaffError } from '../../errors.js';
import { defineOperation } from '../../operations/define-operation.js';
import { nowIso } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';
import { requireEnvironment } from './environment-operations.js';
import { requireProject, requireProjectEnvironment } from './project-records.js';

// The environments a project uses, and the strategy each adds to a feature enabled with none.

const project = z.string();
const projectScope = (input: { project?: string | undefined }) => ({ project: input.project });

/** Links an environment to the project (project-environment-added); CONFLICT when it already is. */
export const addProjectEnvironment = defineOperation({
  id: 'projects.addEnvironment',
  summary: 'Enable an environment in a project',
  kind: 'write',
  permission: 'UPDATE_PROJECT',
  scope: projectScope,
  input: z.object({ project, environment: environmentNameSchema }),
  output: z.void(),
  run: async ({ project: projectId, environment }, { deps, repos: tx, actor }) => {
    await requireProject(tx, projectId);
    await requireEnvironment(tx, environment);
    const links = await tx.environments.listForProject(projectId);
    if (links.some((l) => l.environment === environment))
      throw conflict(`Environment "${environment}" is already enabled in project "${projectId}".`);
    await tx.environments.linkProject({ projectId, environment, defaultStrategy: null });
    await writeEvents(tx, actor, nowIso(deps), [
      { type: 'project-environment-added', project: projectId, environment },
    ]);
  },
});

/** Unlinks an environment from the project (project-environment-removed); the last one stays. */
export const removeProjectEnvironment = defineOperation({
  id: 'projects.removeEnvironment',
  summary: 'Disable an environment in a project',
  kind: 'write',
  permission: 'UPDATE_PROJECT',
  scope: projectScope,
  input: z.object({ project, environment: z.string() }),
  output: z.void(),
  run: async ({ project: projectId, environment }, { deps, repos: tx, actor }) => {
    await requireProject(tx, projectId);
    await requireProjectEnvironment(tx, projectId, environment);
    const links = await tx.environments.listForProject(projectId);
    if (links.length <= 1)
      throw new FlagstaffError('CONFLICT', `Project "${projectId}" must keep at least one environment.`);
    await tx.environments.unlinkProject(projectId, environment);
    await writeEvents(tx, actor, nowIso(deps), [
      { type: 'project-environment-removed', project: projectId, environment },
    ]);
  },
});

/** Sets the strategy added when a feature is enabled with none (default-strategy-updated). */
export const setProjectDefaultStrategy = defineOperation({
  id: 'projects.setDefaultStrategy',
  summary: 'Set the default strategy of a project environment',
  kind: 'write',
  permission: 'UPDATE_PROJECT',
  scope: projectScope,
  input: strategyConfigSchema.extend({ project, environment: z.string() }),
  output: strategyConfigViewSchema,
  run: async ({ project: projectId, environment, ...strategy }, { deps, repos: tx, actor }) => {
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
  },
});
