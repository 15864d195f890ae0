import { z } from 'zod';
import type { Caller } from '../../auth/caller.js';
import { FEATURE_TYPES } from '../../domain/feature.js';
import { parseWith } from '../../domain/parse.js';
import { BUILT_IN_STRATEGIES } from '../../domain/strategy.js';
import { FlagstaffError, invalid, notFound } from '../../errors.js';
import { inTransaction, nowIso, type ServiceDeps } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';
import { featureTypeLifetimes, LIFETIMES_SETTING } from '../insights/health.js';

const DEFINITIONS_SETTING = 'strategies.definitions';
const DEPRECATED_SETTING = 'strategies.deprecated';

const parameterSchema = z.object({
  name: z.string().min(1, 'must be a non-empty parameter name'),
  type: z.enum(['string', 'percentage', 'list', 'number', 'boolean']),
  description: z.string().max(500, 'must be at most 500 characters').default(''),
  required: z.boolean().default(false),
});

export const strategyDefinitionSchema = z.object({
  name: z
    .string()
    .regex(/^[a-zA-Z0-9_~.-]{1,100}$/, 'must be 1 to 100 letters, digits, "_", "~", "." or "-"'),
  title: z.string().max(100, 'must be at most 100 characters').optional(),
  description: z.string().max(1000, 'must be at most 1000 characters').default(''),
  parameters: z.array(parameterSchema).max(50, 'must list at most 50 parameters').default([]),
});

export const featureTypeLifetimeSchema = z.object({
  lifetimeDays: z
    .number()
    .int('must be a whole number of days')
    .min(0, 'must be at least 0')
    .max(100_000, 'is too large')
    .nullable(),
});

/** A strategy definition as `/api/admin/strategies` shows it. */
export interface StrategyDefinition {
  name: string;
  displayName: string | null;
  title?: string;
  description: string;
  editable: boolean;
  deprecated: boolean;
  parameters: z.infer<typeof parameterSchema>[];
}

type Custom = z.infer<typeof strategyDefinitionSchema>;

const p = (
  name: string,
  type: StrategyDefinition['parameters'][number]['type'],
  description: string,
  required = false,
) => ({
  name,
  type,
  description,
  required,
});

/** The built-in strategies with the parameters the strategy editor offers. */
const BUILT_INS: Record<
  (typeof BUILT_IN_STRATEGIES)[number],
  { description: string; parameters: StrategyDefinition['parameters'] }
> = {
  default: { description: 'On for everyone.', parameters: [] },
  flexibleRollout: {
    description: 'On for a percentage of users, sticky by a context field.',
    parameters: [
      p('rollout', 'percentage', 'The percentage (0-100) of users it is on for.', true),
      p(
        'stickiness',
        'string',
        'The context field the rollout is sticky by (default: userId, then sessionId, then random).',
      ),
      p('groupId', 'string', 'Groups rollouts: the same groupId puts a user in the same percentile.'),
    ],
  },
  userWithId: {
    description: 'On for the listed userIds.',
    parameters: [p('userIds', 'list', 'Comma-separated userIds.', true)],
  },
  gradualRolloutUserId: {
    description: 'On for a percentage of userIds (deprecated in favour of flexibleRollout).',
    parameters: [
      p('percentage', 'percentage', 'The percentage.', true),
      p('groupId', 'string', 'The group.'),
    ],
  },
  gradualRolloutSessionId: {
    description: 'On for a percentage of sessionIds (deprecated in favour of flexibleRollout).',
    parameters: [
      p('percentage', 'percentage', 'The percentage.', true),
      p('groupId', 'string', 'The group.'),
    ],
  },
  gradualRolloutRandom: {
    description: 'On for a random percentage of calls (deprecated in favour of flexibleRollout).',
    parameters: [p('percentage', 'percentage', 'The percentage.', true)],
  },
  remoteAddress: {
    description: 'On for the listed IP addresses and ranges.',
    parameters: [p('IPs', 'list', 'Comma-separated IPs or CIDR ranges.', true)],
  },
  applicationHostname: {
    description: 'On for the listed host names.',
    parameters: [p('hostNames', 'list', 'Comma-separated host names.', true)],
  },
};

/**
 * Strategy definitions (`/api/admin/strategies`): the built-ins, read-only but deprecatable, and
 * custom strategies with their parameter definitions for the strategy editor; and feature types with
 * their expected lifetimes, which decide when a feature is potentially stale. Both are kept in the
 * store's settings.
 */
export function createDefinitionService(deps: ServiceDeps) {
  const { store } = deps;
  const customOf = async (repos: { settings: { get(n: string): Promise<unknown> } }): Promise<Custom[]> =>
    ((await repos.settings.get(DEFINITIONS_SETTING)) as Custom[] | null) ?? [];
  const deprecatedOf = async (repos: { settings: { get(n: string): Promise<unknown> } }): Promise<string[]> =>
    ((await repos.settings.get(DEPRECATED_SETTING)) as string[] | null) ?? [];

  async function all(): Promise<StrategyDefinition[]> {
    const deprecated = new Set(await deprecatedOf(store));
    const builtIns = BUILT_IN_STRATEGIES.map((name) => ({
      name,
      displayName: null,
      description: BUILT_INS[name].description,
      editable: false,
      deprecated: deprecated.has(name),
      parameters: BUILT_INS[name].parameters,
    }));
    const custom = (await customOf(store)).map((c) => ({
      name: c.name,
      displayName: c.title ?? null,
      ...(c.title ? { title: c.title } : {}),
      description: c.description,
      editable: true,
      deprecated: deprecated.has(c.name),
      parameters: c.parameters,
    }));
    return [...builtIns, ...custom];
  }

  const isBuiltIn = (name: string): boolean => (BUILT_IN_STRATEGIES as readonly string[]).includes(name);

  async function find(name: string): Promise<StrategyDefinition> {
    const found = (await all()).find((d) => d.name === name);
    if (!found) throw notFound('strategy', name);
    return found;
  }

  async function setDeprecated(caller: Caller, name: string, deprecated: boolean): Promise<void> {
    const actor = await deps.policy.permit(caller, 'UPDATE_STRATEGY', {});
    await find(name);
    if (deprecated && name === 'default')
      throw invalid('strategyName', 'the "default" strategy cannot be deprecated.');
    await inTransaction(deps, async (tx) => {
      const list = new Set(await deprecatedOf(tx));
      if (list.has(name) === deprecated) return;
      if (deprecated) list.add(name);
      else list.delete(name);
      await tx.settings.set(DEPRECATED_SETTING, [...list].sort());
      await writeEvents(tx, actor, nowIso(deps), [
        { type: deprecated ? 'strategy-deprecated' : 'strategy-reactivated', data: { name } },
      ]);
    });
  }

  return {
    strategies: {
      async list(caller: Caller): Promise<{ version: 1; strategies: StrategyDefinition[] }> {
        await deps.policy.require(caller, 'NONE', {});
        return { version: 1, strategies: await all() };
      },
      async get(caller: Caller, name: string): Promise<StrategyDefinition> {
        await deps.policy.require(caller, 'NONE', {});
        return find(name);
      },
      /** A custom strategy (strategy-created); CONFLICT when the name is taken. */
      async create(caller: Caller, input: unknown): Promise<StrategyDefinition> {
        const actor = await deps.policy.permit(caller, 'CREATE_STRATEGY', {});
        const body = parseWith(strategyDefinitionSchema, input);
        await inTransaction(deps, async (tx) => {
          const custom = await customOf(tx);
          if (isBuiltIn(body.name) || custom.some((c) => c.name === body.name))
            throw new FlagstaffError('CONFLICT', `A strategy named "${body.name}" already exists.`);
          await tx.settings.set(DEFINITIONS_SETTING, [...custom, body]);
          await writeEvents(tx, actor, nowIso(deps), [{ type: 'strategy-created', data: body }]);
        });
        return find(body.name);
      },
      /** Replaces a custom strategy's description and parameters (strategy-updated); built-ins refuse. */
      async update(caller: Caller, name: string, input: unknown): Promise<StrategyDefinition> {
        const actor = await deps.policy.permit(caller, 'UPDATE_STRATEGY', {});
        const body = parseWith(strategyDefinitionSchema, { ...(input as object), name });
        if (isBuiltIn(name)) throw invalid('name', `"${name}" is a built-in strategy and cannot be changed.`);
        await inTransaction(deps, async (tx) => {
          const custom = await customOf(tx);
          const before = custom.find((c) => c.name === name);
          if (!before) throw notFound('strategy', name);
          await tx.settings.set(
            DEFINITIONS_SETTING,
            custom.map((c) => (c.name === name ? body : c)),
          );
          await writeEvents(tx, actor, nowIso(deps), [
            { type: 'strategy-updated', data: body, preData: before },
          ]);
        });
        return find(name);
      },
      /** Deletes a custom strategy no feature uses (strategy-deleted). */
      async delete(caller: Caller, name: string): Promise<void> {
        const actor = await deps.policy.permit(caller, 'DELETE_STRATEGY', {});
        if (isBuiltIn(name)) throw invalid('name', `"${name}" is a built-in strategy and cannot be deleted.`);
        await inTransaction(deps, async (tx) => {
          const custom = await customOf(tx);
          const before = custom.find((c) => c.name === name);
          if (!before) throw notFound('strategy', name);
          const users = [
            ...new Set(
              (await tx.strategies.list({})).filter((s) => s.name === name).map((s) => s.featureName),
            ),
          ];
          if (users.length > 0)
            throw new FlagstaffError(
              'CONFLICT',
              `The strategy "${name}" is used by ${users.slice(0, 5).join(', ')}; remove it from those features first.`,
            );
          await tx.settings.set(
            DEFINITIONS_SETTING,
            custom.filter((c) => c.name !== name),
          );
          await tx.settings.set(
            DEPRECATED_SETTING,
            (await deprecatedOf(tx)).filter((n) => n !== name),
          );
          await writeEvents(tx, actor, nowIso(deps), [{ type: 'strategy-deleted', preData: before }]);
        });
      },
      /** GET /api/admin/context/:contextField/strategies: feature strategies constrained on the field. */
      async usingContextField(caller: Caller, field: string) {
        await deps.policy.require(caller, 'NONE', {});
        if (!(await store.contextFields.get(field))) throw notFound('context field', field);
        const hidden = new Set(await deps.policy.hiddenProjects(caller));
        const strategies = (await store.strategies.list({}))
          .filter((s) => !hidden.has(s.projectId) && s.constraints.some((c) => c.contextName === field))
          .map((s) => ({
            id: s.id,
            projectId: s.projectId,
            featureName: s.featureName,
            strategyName: s.name,
            environment: s.environment,
          }));
        return { strategies };
      },
      deprecate: (caller: Caller, name: string) => setDeprecated(caller, name, true),
      reactivate: (caller: Caller, name: string) => setDeprecated(caller, name, false),
    },

    featureTypes: {
      async list(caller: Caller) {
        await deps.policy.require(caller, 'NONE', {});
        const lifetimes = await featureTypeLifetimes(store.settings);
        return {
          version: 1,
          types: FEATURE_TYPES.map((id) => ({
            id,
            name: id,
            description: '',
            lifetimeDays: lifetimes[id] ?? null,
          })),
        };
      },
      /** Sets the expected lifetime of a type (null or 0: never potentially stale); feature-type-updated. */
      async setLifetime(caller: Caller, id: string, input: unknown) {
        const actor = await deps.policy.permit(caller, 'ADMIN', {});
        if (!(FEATURE_TYPES as readonly string[]).includes(id)) throw notFound('feature type', id);
        const { lifetimeDays } = parseWith(featureTypeLifetimeSchema, input);
        const days = lifetimeDays === 0 ? null : lifetimeDays;
        await inTransaction(deps, async (tx) => {
          const before = await featureTypeLifetimes(tx.settings);
          await tx.settings.set(LIFETIMES_SETTING, {
            ...(((await tx.settings.get(LIFETIMES_SETTING)) as object | null) ?? {}),
            [id]: days,
          });
          await writeEvents(tx, actor, nowIso(deps), [
            {
              type: 'feature-type-updated',
              data: { id, lifetimeDays: days },
              preData: { id, lifetimeDays: before[id] ?? null },
            },
          ]);
        });
        return { id, name: id, description: '', lifetimeDays: days };
      },
    },
  };
}

export type DefinitionService = ReturnType<typeof createDefinitionService>;
