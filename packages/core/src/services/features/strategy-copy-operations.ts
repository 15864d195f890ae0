import { z } from 'zod';
import { type FeatureStrategy, strategyCopyResultSchema, strategyCopySchema } from '../../domain/strategy.js';
import { invalid } from '../../errors.js';
import { defineOperation } from '../../operations/define-operation.js';
import type { ReadRepositories } from '../../ports/store.js';
import { requireFeatureIn } from './require-feature.js';
import { createStrategyCommands } from './strategy-commands.js';

const name = z.string().min(1);

/** The strategies of the source to copy, in its evaluation order; VALIDATION naming an id it lacks. */
async function sourceStrategies(
  repos: ReadRepositories,
  feature: string,
  environment: string,
  ids: readonly string[] | undefined,
): Promise<FeatureStrategy[]> {
  const all = await repos.strategies.list({ featureName: feature, environment });
  if (!ids) {
    if (all.length === 0)
      throw invalid('strategyIds', `left out copies every strategy of "${environment}", and it has none.`);
    return all;
  }
  const byId = new Map(all.map((s) => [s.id, s]));
  for (const [i, id] of ids.entries()) {
    if (!byId.has(id))
      throw invalid(`strategyIds[${i}]`, `"${id}" is not a strategy of "${feature}" in "${environment}".`);
    if (ids.indexOf(id) !== i) throw invalid(`strategyIds[${i}]`, `"${id}" is listed twice.`);
  }
  const wanted = new Set(ids);
  return all.filter((s) => wanted.has(s.id));
}

/**
 * Copies strategies of a feature from one environment to others in one transaction: every copy is
 * made or none (feature-strategy-add for each one made, as adding it by hand writes). Copies keep
 * the configuration (name, title, disabled, parameters, constraints, segments, variants) and go
 * after what each target already has, in the source's order. The caller needs
 * CREATE_FEATURE_STRATEGY in every target; a target requiring change requests refuses the copy.
 */
export const copyStrategies = defineOperation({
  id: 'strategies.copy',
  summary:
    'Copy strategies (listed ones, or all) of a feature environment to other environments, all or none',
  kind: 'write',
  permission: 'CREATE_FEATURE_STRATEGY',
  scope: (input) => ({ project: input.project, environment: input.environments?.[0] }),
  input: strategyCopySchema.extend({ project: name, feature: name, environment: name }),
  output: strategyCopyResultSchema,
  guard: async ({ project, environment, environments }, { deps, caller }) => {
    // Reading the source, then adding in each target (the runner asked for the first one).
    await deps.policy.require(caller, 'NONE', { project, environment });
    for (const target of environments.slice(1))
      await deps.policy.permit(caller, 'CREATE_FEATURE_STRATEGY', { project, environment: target });
  },
  run: async ({ project, feature, environment, environments, strategyIds }, { deps, repos, actor }) => {
    for (const [i, target] of environments.entries()) {
      if (target === environment)
        throw invalid(`environments[${i}]`, `"${target}" is the environment the strategies are copied from.`);
      if (environments.indexOf(target) !== i)
        throw invalid(`environments[${i}]`, `"${target}" is listed twice.`);
    }
    await requireFeatureIn(repos, project, feature, environment);
    const sources = await sourceStrategies(repos, feature, environment, strategyIds);
    const commands = createStrategyCommands(deps);
    const strategies: FeatureStrategy[] = [];
    for (const target of environments)
      for (const s of sources)
        strategies.push(
          await commands.add(
            repos,
            actor,
            { project, feature, environment: target },
            {
              name: s.name,
              title: s.title,
              disabled: s.disabled,
              parameters: s.parameters,
              constraints: s.constraints,
              segments: s.segments,
              variants: s.variants,
            },
          ),
        );
    return { strategies };
  },
});
