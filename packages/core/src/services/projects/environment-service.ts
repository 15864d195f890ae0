import { z } from 'zod';
import type { Caller } from '../../auth/caller.js';
import {
  createEnvironmentSchema,
  type Environment,
  environmentNameSchema,
  updateEnvironmentSchema,
} from '../../domain/environment.js';
import { parseWith } from '../../domain/parse.js';
import { conflict, FlagstaffError, notFound } from '../../errors.js';
import type { ReadRepositories } from '../../ports/store.js';
import { inTransaction, nowIso, type ServiceDeps } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';

/** Body of POST /environments/validate: a name, checked by the rule creating an environment applies. */
export const validateEnvironmentNameSchema = z.object({ name: environmentNameSchema });

/** Loads an environment or throws NOT_FOUND. */
export async function requireEnvironment(repos: ReadRepositories, name: string): Promise<Environment> {
  const env = await repos.environments.get(name);
  if (!env) throw notFound('environment', name);
  return env;
}

/** Environments of the instance. */
export function createEnvironmentService(deps: ServiceDeps) {
  const { store } = deps;
  return {
    async list(caller: Caller) {
      await deps.policy.require(caller, 'NONE', {});
      return store.environments.list();
    },
    async get(caller: Caller, name: string) {
      await deps.policy.require(caller, 'NONE', {});
      return requireEnvironment(store, name);
    },

    /** POST /environments/validate: VALIDATION for a name create would refuse, CONFLICT when taken. */
    async validateName(caller: Caller, input: unknown): Promise<void> {
      await deps.policy.require(caller, 'ADMIN', {});
      const { name } = parseWith(validateEnvironmentNameSchema, input);
      if (await store.environments.get(name))
        throw conflict(`An environment named "${name}" already exists.`, 'name');
    },

    /** Creates an environment (environment-created). */
    async create(caller: Caller, input: unknown): Promise<Environment> {
      const actor = await deps.policy.permit(caller, 'ADMIN', {});
      const body = parseWith(createEnvironmentSchema, input);
      return inTransaction(deps, async (tx) => {
        if (await tx.environments.get(body.name))
          throw conflict(`An environment named "${body.name}" already exists.`, 'name');
        const all = await tx.environments.list();
        const env: Environment = {
          name: body.name,
          type: body.type,
          enabled: body.enabled,
          protected: false,
          sortOrder: body.sortOrder ?? Math.max(0, ...all.map((e) => e.sortOrder)) + 1,
          createdAt: nowIso(deps),
        };
        await tx.environments.insert(env);
        await writeEvents(tx, actor, env.createdAt, [
          { type: 'environment-created', environment: env.name, data: env },
        ]);
        return env;
      });
    },

    /** Changes type or sort order (environment-updated). */
    async update(caller: Caller, name: string, input: unknown): Promise<Environment> {
      const actor = await deps.policy.permit(caller, 'ADMIN', {});
      const body = parseWith(updateEnvironmentSchema, input);
      return inTransaction(deps, async (tx) => {
        const before = await requireEnvironment(tx, name);
        if (before.protected && body.type !== undefined && body.type !== before.type)
          throw new FlagstaffError(
            'VALIDATION',
            `"type" of the protected environment "${name}" cannot change.`,
            { path: 'type' },
          );
        const after: Environment = { ...before, ...body };
        await tx.environments.update(after);
        await writeEvents(tx, actor, nowIso(deps), [
          { type: 'environment-updated', environment: name, data: after, preData: before },
        ]);
        return after;
      });
    },

    /** Turns an environment on or off instance-wide (environment-updated). */
    async setEnabled(caller: Caller, name: string, enabled: boolean): Promise<void> {
      const actor = await deps.policy.permit(caller, 'ADMIN', {});
      return inTransaction(deps, async (tx) => {
        const before = await requireEnvironment(tx, name);
        if (before.enabled === enabled) return;
        const after = { ...before, enabled };
        await tx.environments.update(after);
        await writeEvents(tx, actor, nowIso(deps), [
          { type: 'environment-updated', environment: name, data: after, preData: before },
        ]);
      });
    },

    /** Deletes an unprotected environment (environment-deleted). */
    async delete(caller: Caller, name: string): Promise<void> {
      const actor = await deps.policy.permit(caller, 'ADMIN', {});
      return inTransaction(deps, async (tx) => {
        const env = await requireEnvironment(tx, name);
        if (env.protected)
          throw new FlagstaffError(
            'CONFLICT',
            `The environment "${name}" is protected and cannot be deleted.`,
          );
        await tx.environments.delete(name);
        await writeEvents(tx, actor, nowIso(deps), [
          { type: 'environment-deleted', environment: name, preData: env },
        ]);
      });
    },
  };
}

export type EnvironmentService = ReturnType<typeof createEnvironmentService>;
