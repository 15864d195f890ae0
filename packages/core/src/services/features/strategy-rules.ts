import type { StrategyConfig } from '../../domain/strategy.js';
import { normalizeVariantWeights, variantSetProblem } from '../../domain/variant-weights.js';
import { FlagstaffError, notFound } from '../../errors.js';
import type { ReadRepositories } from '../../ports/store.js';

const percentParams: Record<string, string> = {
  flexibleRollout: 'rollout',
  gradualRolloutUserId: 'percentage',
  gradualRolloutSessionId: 'percentage',
  gradualRolloutRandom: 'percentage',
};

/**
 * Checks a strategy configuration against what the evaluator needs and normalizes it: percentages
 * of built-in strategies are numbers 0–100, rollouts get the feature name as their default groupId,
 * attached segments exist, variants are unique and their weights are distributed as the reference
 * does when saving.
 */
export async function prepareStrategyConfig(
  repos: ReadRepositories,
  featureName: string,
  config: StrategyConfig,
  path = 'body',
): Promise<StrategyConfig> {
  const percentKey = percentParams[config.name];
  if (percentKey !== undefined && config.parameters[percentKey] !== undefined) {
    const raw = config.parameters[percentKey]!;
    const n = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(n) || n < 0 || n > 100)
      throw new FlagstaffError(
        'VALIDATION',
        `"${prefix(path)}parameters.${percentKey}" must be a number from 0 to 100, got "${raw}".`,
        {
          path: `${prefix(path)}parameters.${percentKey}`,
        },
      );
  }
  for (const [i, id] of config.segments.entries()) {
    if (!(await repos.segments.get(id))) {
      const e = notFound('segment', id);
      throw new FlagstaffError(
        'VALIDATION',
        `"${prefix(path)}segments[${i}]" ${e.message.replace(/^Could not find/, 'refers to no')}`,
        {
          path: `${prefix(path)}segments[${i}]`,
        },
      );
    }
  }
  const problem = variantSetProblem(config.variants);
  if (problem)
    throw new FlagstaffError('VALIDATION', `"${prefix(path)}variants" ${problem}.`, {
      path: `${prefix(path)}variants`,
    });
  // SDKs hash a rollout without groupId against an empty group; the feature name is what users mean.
  const parameters =
    percentKey !== undefined && !config.parameters.groupId
      ? { ...config.parameters, groupId: featureName }
      : config.parameters;
  return {
    ...config,
    parameters,
    segments: [...new Set(config.segments)],
    variants: normalizeVariantWeights(config.variants),
  };
}

const prefix = (path: string): string => (path === 'body' ? '' : `${path}.`);

/** The strategy added when a feature environment is enabled with none: the project's, or 100% rollout. */
export function fallbackStrategy(featureName: string, stickiness: string): StrategyConfig {
  return {
    name: 'flexibleRollout',
    title: null,
    disabled: false,
    constraints: [],
    variants: [],
    segments: [],
    parameters: { rollout: '100', stickiness, groupId: featureName },
  };
}
