import { cloneProjectFeatureSchema, featureViewSchema } from '../../domain/feature-view.js';
import { defineOperation } from '../../operations/define-operation.js';
import { createOperationRunner } from '../../operations/run-operation.js';
import { joined } from '../joined-store.js';
import { addDependency } from './dependency-operations.js';
import { createFeatureEnvironmentService } from './feature-environment-service.js';
import { createFeature } from './feature-operations.js';
import { featureProjectScope, getFeature } from './feature-read-operations.js';
import { createStrategyService } from './strategy-service.js';
import { createTagService } from './tag-service.js';

/**
 * A new feature with the source's type, description, impression data, tags, dependencies and, in
 * every environment, its strategies, variants and switch — all in one transaction, each step the
 * regular command with its permission and events. Gradual rollouts group by the new name unless
 * `replaceGroupId` is false.
 */
export const cloneFeature = defineOperation({
  id: 'features.clone',
  summary: 'Clone a feature: strategies, variants, switches, tags and dependencies, in one transaction',
  kind: 'write',
  permission: 'CREATE_FEATURE',
  scope: featureProjectScope,
  input: cloneProjectFeatureSchema,
  output: featureViewSchema,
  run: async ({ project, feature: name, name: copy, replaceGroupId }, { deps, repos, caller }) => {
    const inTx = { ...deps, store: joined(deps.store, repos) };
    const run = createOperationRunner(inTx);
    const source = await run(getFeature, caller, { project, feature: name });
    // The source's type was valid when it was stored; the input schema checks it again.
    await run.unknown(createFeature, caller, {
      project,
      name: copy,
      type: source.type,
      ...(source.description !== null ? { description: source.description } : {}),
      impressionData: source.impressionData,
    });
    const strategies = createStrategyService(inTx);
    const environments = createFeatureEnvironmentService(inTx);
    for (const env of source.environments) {
      const at = { project, feature: copy, environment: env.name };
      for (const s of env.strategies) {
        const parameters = { ...s.parameters };
        if (replaceGroupId && 'groupId' in parameters) parameters['groupId'] = copy;
        await strategies.add(caller, at, {
          name: s.name,
          ...(s.title ? { title: s.title } : {}),
          disabled: s.disabled ?? false,
          parameters,
          constraints: s.constraints,
          segments: s.segments,
          variants: s.variants,
        });
      }
      if (env.variants.length > 0)
        await environments.setVariants(caller, project, copy, env.name, env.variants);
      if (env.enabled) await environments.setEnabled(caller, project, copy, env.name, true);
    }
    if (source.tags.length > 0)
      await createTagService(inTx).updateFeatureTags(caller, copy, {
        addedTags: source.tags.map((t) => ({ type: t.type, value: t.value })),
        removedTags: [],
      });
    for (const d of source.dependencies)
      await run(addDependency, caller, {
        project,
        child: copy,
        feature: d.feature,
        enabled: d.enabled,
        ...(d.variants.length ? { variants: d.variants } : {}),
      });
    return run(getFeature, caller, { project, feature: copy });
  },
});
