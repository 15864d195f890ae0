import { z } from 'zod';
import {
  createEnvironmentSchema,
  type Environment,
  environmentListSchema,
  environmentSchema,
  updateEnvironmentSchema,
  validateEnvironmentNameSchema,
} from '../../domain/environment.js';
import { conflict, FlagstaffError, notFound } from '../../errors.js';
import { defineOperation } from '../../operations/define-operation.js';
import type { ReadRepositories } from '../../ports/store.js';
import { nowIso } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';

const name = z.string();

/** Loads an environment or throws NOT_FOUND. */
export async function requireEnvironment(repos: ReadRepositories, name: string): Promise<Environment> {
  const env = await repos.environments.get(name);
  if (!env) throw notFound('environment', name);
  return env;
}

/** The instance's environments; any signed-in caller may read them. */
export const listEnvironments = defineOperation({
  id: 'environments.list',
  summary: 'List environments',
  kind: 'read',
  permission: 'NONE',
  input: z.object({}),
  output: environmentListSchema,
  run: async (_input, { repos }) => ({ version: 1, environments: await repos.environments.list() }),
});

/** One environment, or NOT_FOUND. */
export const getEnvironment = defineOperation({
  id: 'environments.get',
  summary: 'Get an environment',
  kind: 'read',
  permission: 'NONE',
  input: z.object({ name }),
  output: environmentSchema,
  run: (input, { repos }) => requireEnvironment(repos, input.name),
});

/**
 * VALIDATION for a name `create` would refuse, CONFLICT when it is taken. Checking a name is the
 * first step of creating an environment, which needs ADMIN.
 */
export const validateEnvironmentName = defineOperation({
  id: 'environments.validateName',
  summary: 'Validate an environment name',
  kind: 'read',
  permission: 'ADMIN',
  input: validateEnvironmentNameSchema,
  output: z.void(),
  run: async (input, { repos }) => {
    if (await repos.environments.get(input.name))
      throw conflict(`An environment named "${input.name}" already exists.`, 'name');
  },
});

/** Creates an environment (environment-created), sorted last unless a sort order is given. */
export const createEnvironment = defineOperation({
  id: 'environments.create',
  summary: 'Create an environment',
  kind: 'write',
  permission: 'ADMIN',
  input: createEnvironmentSchema,
  output: environmentSchema,
  run: async (body, { deps, repos, actor }) => {
    if (await repos.environments.get(body.name))
      throw conflict(`An environment named "${body.name}" already exists.`, 'name');
    const all = await repos.environments.list();
    const env: Environment = {
      name: body.name,
      type: body.type,
      enabled: body.enabled,
      protected: false,
      sortOrder: body.sortOrder ?? Math.max(0, ...all.map((e) => e.sortOrder)) + 1,
      createdAt: nowIso(deps),
    };
    await repos.environments.insert(env);
    await writeEvents(repos, actor, env.createdAt, [
      { type: 'environment-created', environment: env.name, data: env },
    ]);
    return env;
  },
});

/** Changes type or sort order (environment-updated); a protected environment keeps its type. */
export const updateEnvironment = defineOperation({
  id: 'environments.update',
  summary: 'Update an environment',
  kind: 'write',
  permission: 'ADMIN',
  input: updateEnvironmentSchema.extend({ name }),
  output: environmentSchema,
  run: async ({ name, ...body }, { deps, repos, actor }) => {
    const before = await requireEnvironment(repos, name);
    if (before.protected && body.type !== undefined && body.type !== before.type)
      throw new FlagstaffError('VALIDATION', `"type" of the protected environment "${name}" cannot change.`, {
        path: 'type',
      });
    const after: Environment = {
      ...before,
      ...(body.type !== undefined && { type: body.type }),
      ...(body.sortOrder !== undefined && { sortOrder: body.sortOrder }),
    };
    await repos.environments.update(after);
    await writeEvents(repos, actor, nowIso(deps), [
      { type: 'environment-updated', environment: name, data: after, preData: before },
    ]);
    return after;
  },
});

/** Turns an environment on or off instance-wide (environment-updated; nothing when it already is). */
export const setEnvironmentEnabled = defineOperation({
  id: 'environments.setEnabled',
  summary: 'Turn an environment on or off',
  kind: 'write',
  permission: 'ADMIN',
  input: z.object({ name, enabled: z.boolean() }),
  output: z.void(),
  run: async ({ name, enabled }, { deps, repos, actor }) => {
    const before = await requireEnvironment(repos, name);
    if (before.enabled === enabled) return;
    const after = { ...before, enabled };
    await repos.environments.update(after);
    await writeEvents(repos, actor, nowIso(deps), [
      { type: 'environment-updated', environment: name, data: after, preData: before },
    ]);
  },
});

/** Deletes an unprotected environment (environment-deleted). */
export const deleteEnvironment = defineOperation({
  id: 'environments.delete',
  summary: 'Delete an environment',
  kind: 'write',
  permission: 'ADMIN',
  input: z.object({ name }),
  output: z.void(),
  run: async ({ name }, { deps, repos, actor }) => {
    const env = await requireEnvironment(repos, name);
    if (env.protected)
      throw new FlagstaffError('CONFLICT', `The environment "${name}" is protected and cannot be deleted.`);
    await repos.environments.delete(name);
    await writeEvents(repos, actor, nowIso(deps), [
      { type: 'environment-deleted', environment: name, preData: env },
    ]);
  },
});

/** Every environment operation, for route tables and tools. */
export const environmentOperations = [
  listEnvironments,
  getEnvironment,
  validateEnvironmentName,
  createEnvironment,
  updateEnvironment,
  setEnvironmentEnabled,
  deleteEnvironment,
] as const;
