import { z } from 'zod';
import { contextFieldStrategiesSchema } from '../../domain/context-field.js';
import { FEATURE_TYPES } from '../../domain/feature.js';
import { BUILT_IN_STRATEGIES } from '../../domain/strategy.js';
import {
  type CustomStrategyDefinition,
  featureTypeLifetimeSchema,
  featureTypeListSchema,
  featureTypeViewSchema,
  type StrategyDefinition,
  type StrategyParameter,
  strategyDefinitionListSchema,
  strategyDefinitionSchema,
  strategyDefinitionViewSchema,
} from '../../domain/strategy-definition.js';
import { FlagstaffError, invalid, notFound } from '../../errors.js';
import { defineOperation } from '../../operations/define-operation.js';
import type { Repositories } from '../../ports/repositories.js';
import type { ReadRepositories } from '../../ports/store.js';
import { type Actor, nowIso, type ServiceDeps } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';
import { featureTypeLifetimes, LIFETIMES_SETTING } from '../insights/health.js';

const DEFINITIONS_SETTING = 'strategies.definitions';
const DEPRECATED_SETTING = 'strategies.deprecated';

const p = (name: string, type: StrategyParameter['type'], description: string, required = false) => ({
  name,
  type,
  description,
  required,
});

/** The built-in strategies with the parameters the strategy editor offers. */
const BUILT_INS: Record<
  (typeof BUILT_IN_STRATEGIES)[number],
  { description: string; parameters: StrategyParameter[] }
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

const customOf = async (repos: ReadRepositories): Promise<CustomStrategyDefinition[]> =>
  ((await repos.settings.get(DEFINITIONS_SETTING)) as CustomStrategyDefinition[] | null) ?? [];
const deprecatedOf = async (repos: ReadRepositories): Promise<string[]> =>
  ((await repos.settings.get(DEPRECATED_SETTING)) as string[] | null) ?? [];

/** Every strategy definition: the built-ins, read-only but deprecatable, then the custom ones. */
async function allDefinitions(repos: ReadRepositories): Promise<StrategyDefinition[]> {
  const deprecated = new Set(await deprecatedOf(repos));
  const builtIns = BUILT_IN_STRATEGIES.map((name) => ({
    name,
    displayName: null,
    description: BUILT_INS[name].description,
    editable: false,
    deprecated: deprecated.has(name),
    parameters: BUILT_INS[name].parameters,
  }));
  const custom = (await customOf(repos)).map((c) => ({
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

async function findDefinition(repos: ReadRepositories, name: string): Promise<StrategyDefinition> {
  const found = (await allDefinitions(repos)).find((d) => d.name === name);
  if (!found) throw notFound('strategy', name);
  return found;
}

/** Deprecates or reactivates a strategy (strategy-deprecated / strategy-reactivated). */
async function setDeprecated(
  deps: ServiceDeps,
  tx: Repositories,
  actor: Actor,
  name: string,
  deprecated: boolean,
): Promise<void> {
  await findDefinition(tx, name);
  if (deprecated && name === 'default')
    throw invalid('strategyName', 'the "default" strategy cannot be deprecated.');
  const list = new Set(await deprecatedOf(tx));
  if (list.has(name) === deprecated) return;
  if (deprecated) list.add(name);
  else list.delete(name);
  await tx.settings.set(DEPRECATED_SETTING, [...list].sort());
  await writeEvents(tx, actor, nowIso(deps), [
    { type: deprecated ? 'strategy-deprecated' : 'strategy-reactivated', data: { name } },
  ]);
}

const byName = z.object({ name: z.string().min(1) });

/** Strategy definitions: built-ins and custom strategies, with their parameters. */
export const listStrategyDefinitions = defineOperation({
  id: 'strategyDefinitions.list',
  summary: 'Strategy definitions: built-ins and custom strategies, with their parameters',
  kind: 'read',
  permission: 'NONE',
  input: z.object({}),
  output: strategyDefinitionListSchema,
  run: async (_input, { repos }) => ({ version: 1 as const, strategies: await allDefinitions(repos) }),
});

/** One strategy definition, or NOT_FOUND. */
export const getStrategyDefinition = defineOperation({
  id: 'strategyDefinitions.get',
  summary: 'One strategy definition',
  kind: 'read',
  permission: 'NONE',
  input: byName,
  output: strategyDefinitionViewSchema,
  run: (input, { repos }) => findDefinition(repos, input.name),
});

/** Defines a custom strategy (strategy-created); CONFLICT when the name is taken. */
export const createStrategyDefinition = defineOperation({
  id: 'strategyDefinitions.create',
  summary: 'Define a custom strategy',
  kind: 'write',
  permission: 'CREATE_STRATEGY',
  input: strategyDefinitionSchema,
  output: strategyDefinitionViewSchema,
  run: async (body, { deps, repos, actor }) => {
    const custom = await customOf(repos);
    if (isBuiltIn(body.name) || custom.some((c) => c.name === body.name))
      throw new FlagstaffError('CONFLICT', `A strategy named "${body.name}" already exists.`);
    await repos.settings.set(DEFINITIONS_SETTING, [...custom, body]);
    await writeEvents(repos, actor, nowIso(deps), [{ type: 'strategy-created', data: body }]);
    return findDefinition(repos, body.name);
  },
});

/** Replaces a custom strategy's description and parameters (strategy-updated); built-ins refuse. */
export const updateStrategyDefinition = defineOperation({
  id: 'strategyDefinitions.update',
  summary: 'Change a custom strategy’s description and parameters',
  kind: 'write',
  permission: 'UPDATE_STRATEGY',
  input: strategyDefinitionSchema,
  output: strategyDefinitionViewSchema,
  run: async (body, { deps, repos, actor }) => {
    const { name } = body;
    if (isBuiltIn(name)) throw invalid('name', `"${name}" is a built-in strategy and cannot be changed.`);
    const custom = await customOf(repos);
    const before = custom.find((c) => c.name === name);
    if (!before) throw notFound('strategy', name);
    await repos.settings.set(
      DEFINITIONS_SETTING,
      custom.map((c) => (c.name === name ? body : c)),
    );
    await writeEvents(repos, actor, nowIso(deps), [
      { type: 'strategy-updated', data: body, preData: before },
    ]);
    return findDefinition(repos, name);
  },
});

/** Deletes a custom strategy no feature uses (strategy-deleted). */
export const deleteStrategyDefinition = defineOperation({
  id: 'strategyDefinitions.delete',
  summary: 'Delete a custom strategy no feature uses',
  kind: 'write',
  permission: 'DELETE_STRATEGY',
  input: byName,
  output: z.void(),
  run: async ({ name }, { deps, repos, actor }) => {
    if (isBuiltIn(name)) throw invalid('name', `"${name}" is a built-in strategy and cannot be deleted.`);
    const custom = await customOf(repos);
    const before = custom.find((c) => c.name === name);
    if (!before) throw notFound('strategy', name);
    const users = [
      ...new Set((await repos.strategies.list({})).filter((s) => s.name === name).map((s) => s.featureName)),
    ];
    if (users.length > 0)
      throw new FlagstaffError(
        'CONFLICT',
        `The strategy "${name}" is used by ${users.slice(0, 5).join(', ')}; remove it from those features first.`,
      );
    await repos.settings.set(
      DEFINITIONS_SETTING,
      custom.filter((c) => c.name !== name),
    );
    await repos.settings.set(
      DEPRECATED_SETTING,
      (await deprecatedOf(repos)).filter((n) => n !== name),
    );
    await writeEvents(repos, actor, nowIso(deps), [{ type: 'strategy-deleted', preData: before }]);
  },
});

/** Deprecates a strategy: the editor stops offering it (strategy-deprecated). */
export const deprecateStrategyDefinition = defineOperation({
  id: 'strategyDefinitions.deprecate',
  summary: 'Deprecate a strategy (the editor stops offering it)',
  kind: 'write',
  permission: 'UPDATE_STRATEGY',
  input: byName,
  output: z.void(),
  run: (input, { deps, repos, actor }) => setDeprecated(deps, repos, actor, input.name, true),
});

/** Reactivates a deprecated strategy (strategy-reactivated). */
export const reactivateStrategyDefinition = defineOperation({
  id: 'strategyDefinitions.reactivate',
  summary: 'Reactivate a deprecated strategy',
  kind: 'write',
  permission: 'UPDATE_STRATEGY',
  input: byName,
  output: z.void(),
  run: (input, { deps, repos, actor }) => setDeprecated(deps, repos, actor, input.name, false),
});

/** Feature strategies whose constraints use a context field (private projects the caller cannot see left out). */
export const strategiesUsingContextField = defineOperation({
  id: 'strategyDefinitions.usingContextField',
  summary: 'Feature strategies whose constraints use a context field',
  kind: 'read',
  permission: 'NONE',
  input: z.object({ field: z.string().min(1) }),
  output: contextFieldStrategiesSchema,
  run: async ({ field }, { deps, repos, caller }) => {
    if (!(await repos.contextFields.get(field))) throw notFound('context field', field);
    const hidden = new Set(await deps.policy.hiddenProjects(caller));
    const strategies = (await repos.strategies.list({}))
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
});

type FeatureType = (typeof FEATURE_TYPES)[number];

const featureTypeView = (id: FeatureType, lifetimeDays: number | null) => ({
  id,
  name: id,
  description: '',
  lifetimeDays,
});

/** Feature types and their expected lifetimes. */
export const listFeatureTypes = defineOperation({
  id: 'featureTypes.list',
  summary: 'Feature types and their expected lifetimes',
  kind: 'read',
  permission: 'NONE',
  input: z.object({}),
  output: featureTypeListSchema,
  run: async (_input, { repos }) => {
    const lifetimes = await featureTypeLifetimes(repos.settings);
    return {
      version: 1 as const,
      types: FEATURE_TYPES.map((id) => featureTypeView(id, lifetimes[id] ?? null)),
    };
  },
});

/** Sets the expected lifetime of a type (null or 0: never potentially stale); feature-type-updated. */
export const setFeatureTypeLifetime = defineOperation({
  id: 'featureTypes.setLifetime',
  summary: 'Set the lifetime after which features of a type are potentially stale (null: never)',
  kind: 'write',
  permission: 'ADMIN',
  input: featureTypeLifetimeSchema.extend({ id: z.string().min(1) }),
  output: featureTypeViewSchema,
  run: async ({ id, lifetimeDays }, { deps, repos, actor }) => {
    if (!(FEATURE_TYPES as readonly string[]).includes(id)) throw notFound('feature type', id);
    const days = lifetimeDays === 0 ? null : lifetimeDays;
    const before = await featureTypeLifetimes(repos.settings);
    await repos.settings.set(LIFETIMES_SETTING, {
      ...(((await repos.settings.get(LIFETIMES_SETTING)) as object | null) ?? {}),
      [id]: days,
    });
    await writeEvents(repos, actor, nowIso(deps), [
      {
        type: 'feature-type-updated',
        data: { id, lifetimeDays: days },
        preData: { id, lifetimeDays: before[id] ?? null },
      },
    ]);
    return featureTypeView(id as FeatureType, days);
  },
});
