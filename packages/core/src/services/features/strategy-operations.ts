import { z } from 'zod';
import {
  featureStrategyViewSchema,
  patchDocumentSchema,
  strategyConfigSchema,
  strategyOrderSchema,
} from '../../domain/strategy.js';
import { defineOperation } from '../../operations/define-operation.js';
import { requireFeatureIn } from './require-feature.js';
import { createStrategyCommands, requireStrategy, type StrategyLocation } from './strategy-commands.js';

const name = z.string().min(1);
/** Where a strategy lives, as every strategy operation's input names it. */
const location = { project: name, feature: name, environment: name };
const at = ({ project, feature, environment }: StrategyLocation): StrategyLocation => ({
  project,
  feature,
  environment,
});
const scope = (input: { project?: string | undefined; environment?: string | undefined }) => ({
  project: input.project,
  environment: input.environment,
});

/** Strategies of a feature in an environment, in evaluation order. */
export const listStrategies = defineOperation({
  id: 'strategies.list',
  summary: 'List the strategies of a feature environment',
  kind: 'read',
  permission: 'NONE',
  scope,
  input: z.object(location),
  output: z.array(featureStrategyViewSchema),
  run: async (input, { repos }) => {
    await requireFeatureIn(repos, input.project, input.feature, input.environment);
    return repos.strategies.list({ featureName: input.feature, environment: input.environment });
  },
});

/** One strategy of a feature environment, or NOT_FOUND. */
export const getStrategy = defineOperation({
  id: 'strategies.get',
  summary: 'Get a strategy',
  kind: 'read',
  permission: 'NONE',
  scope,
  input: z.object({ ...location, id: name }),
  output: featureStrategyViewSchema,
  run: async (input, { repos }) => {
    await requireFeatureIn(repos, input.project, input.feature, input.environment);
    return requireStrategy(repos, at(input), input.id);
  },
});

/** Adds a strategy (feature-strategy-add). */
export const addStrategy = defineOperation({
  id: 'strategies.add',
  summary: 'Add a strategy',
  kind: 'write',
  permission: 'CREATE_FEATURE_STRATEGY',
  scope,
  input: strategyConfigSchema.extend(location),
  output: featureStrategyViewSchema,
  run: ({ project, feature, environment, ...config }, { deps, repos, actor }) =>
    createStrategyCommands(deps).add(repos, actor, { project, feature, environment }, config),
});

/** Replaces a strategy's configuration (feature-strategy-update). */
export const updateStrategy = defineOperation({
  id: 'strategies.update',
  summary: 'Replace a strategy',
  kind: 'write',
  permission: 'UPDATE_FEATURE_STRATEGY',
  scope,
  input: strategyConfigSchema.extend({ ...location, id: name }),
  output: featureStrategyViewSchema,
  run: ({ project, feature, environment, id, ...config }, { deps, repos, actor }) =>
    createStrategyCommands(deps).update(repos, actor, { project, feature, environment }, id, config),
});

/** Applies JSON-patch operations to a strategy's configuration (feature-strategy-update). */
export const patchStrategy = defineOperation({
  id: 'strategies.patch',
  summary: 'Patch a strategy',
  kind: 'write',
  permission: 'UPDATE_FEATURE_STRATEGY',
  scope,
  input: z.object({ ...location, id: name, operations: patchDocumentSchema }),
  output: featureStrategyViewSchema,
  run: (input, { deps, repos, actor }) =>
    createStrategyCommands(deps).patch(repos, actor, at(input), input.id, input.operations),
});

/** Removes a strategy (feature-strategy-remove, preData: the strategy). */
export const deleteStrategy = defineOperation({
  id: 'strategies.delete',
  summary: 'Delete a strategy',
  kind: 'write',
  permission: 'DELETE_FEATURE_STRATEGY',
  scope,
  input: z.object({ ...location, id: name }),
  output: z.void(),
  run: (input, { deps, repos, actor }) =>
    createStrategyCommands(deps).remove(repos, actor, at(input), input.id),
});

/** Sets the evaluation order of strategies (strategy-order-changed). */
export const reorderStrategies = defineOperation({
  id: 'strategies.reorder',
  summary: 'Reorder strategies',
  kind: 'write',
  permission: 'UPDATE_FEATURE_STRATEGY',
  scope,
  input: z.object({ ...location, order: strategyOrderSchema }),
  output: z.void(),
  run: (input, { deps, repos, actor }) =>
    createStrategyCommands(deps).reorder(repos, actor, at(input), input.order),
});
