import { z } from 'zod';
import {
  bulkFeatureNamesSchema,
  isPatchDocument,
  variantsAnswerSchema,
  variantsBatchSchema,
  withBodyVariants,
} from '../../domain/feature-environment.js';
import { parseWith } from '../../domain/parse.js';
import { patchDocumentSchema } from '../../domain/strategy.js';
import type { Variant } from '../../domain/variant.js';
import { defineOperation } from '../../operations/define-operation.js';
import { nowIso } from '../deps.js';
import { writeFeatureEvents } from '../events/event-writer.js';
import { requireProjectEnvironment } from '../projects/project-service.js';
import {
  createFeatureEnvironmentCommands,
  prepareVariants,
  requireRow,
} from './feature-environment-commands.js';
import { applyJsonPatch } from './json-patch.js';
import { requireFeature, requireFeatureWithTags } from './require-feature.js';

const name = z.string().min(1);
const inFeature = { project: name, feature: name };
const inEnvironment = { ...inFeature, environment: name };
const scope = (input: { project?: string | undefined; environment?: string | undefined }) => ({
  project: input.project,
  environment: input.environment,
});
const answer = (variants: Variant[]) => ({ version: 1 as const, variants });

/** Turns a feature on or off in an environment; enabling with no strategy adds the default one. */
const switchOperation = (enabled: boolean) =>
  defineOperation({
    id: enabled ? 'featureEnvironments.enable' : 'featureEnvironments.disable',
    summary: enabled ? 'Turn a feature on in an environment' : 'Turn a feature off in an environment',
    kind: 'write',
    permission: 'UPDATE_FEATURE_ENVIRONMENT',
    scope,
    input: z.object(inEnvironment),
    output: z.void(),
    run: (input, { deps, repos, actor }) =>
      createFeatureEnvironmentCommands(deps).setEnabled(
        repos,
        actor,
        input.project,
        input.feature,
        input.environment,
        enabled,
      ),
  });

/** Turns a feature on in an environment (feature-environment-enabled); adds the default strategy if it has none. */
export const enableFeatureEnvironment = switchOperation(true);
/** Turns a feature off in an environment (feature-environment-disabled). */
export const disableFeatureEnvironment = switchOperation(false);

/** Turns many features of a project on or off in one environment, all or nothing. */
const bulkSwitchOperation = (enabled: boolean) =>
  defineOperation({
    id: enabled ? 'featureEnvironments.bulkEnable' : 'featureEnvironments.bulkDisable',
    summary: enabled ? 'Turn features on in an environment' : 'Turn features off in an environment',
    kind: 'write',
    permission: 'UPDATE_FEATURE_ENVIRONMENT',
    scope,
    input: bulkFeatureNamesSchema.extend({ project: name, environment: name }),
    output: z.void(),
    run: async (input, { deps, repos, actor }) => {
      const { setEnabled } = createFeatureEnvironmentCommands(deps);
      await requireProjectEnvironment(repos, input.project, input.environment);
      for (const feature of input.features)
        await setEnabled(repos, actor, input.project, feature, input.environment, enabled);
    },
  });

/** Turns features of a project on in one environment, all or nothing. */
export const bulkEnableFeatureEnvironments = bulkSwitchOperation(true);
/** Turns features of a project off in one environment, all or nothing. */
export const bulkDisableFeatureEnvironments = bulkSwitchOperation(false);

/** Variants of a feature in an environment. */
export const getFeatureEnvironmentVariants = defineOperation({
  id: 'featureEnvironments.getVariants',
  summary: 'Get the variants of a feature environment',
  kind: 'read',
  permission: 'NONE',
  scope,
  input: z.object(inEnvironment),
  output: variantsAnswerSchema,
  run: async (input, { repos }) => {
    const feature = await requireFeature(repos, input.project, input.feature);
    return answer((await requireRow(repos, feature, input.environment)).variants);
  },
});

/** Replaces the variants of a feature in an environment (feature-environment-variants-updated). */
export const setFeatureEnvironmentVariants = defineOperation({
  id: 'featureEnvironments.setVariants',
  summary: 'Replace the variants of a feature environment',
  kind: 'write',
  permission: 'UPDATE_FEATURE_ENVIRONMENT_VARIANTS',
  scope,
  input: withBodyVariants(inEnvironment),
  output: variantsAnswerSchema,
  run: async (input, { deps, repos, actor }) => {
    const variants = prepareVariants(input.variants);
    const found = await requireFeatureWithTags(repos, input.project, input.feature);
    await createFeatureEnvironmentCommands(deps).saveVariants(
      repos,
      actor,
      found,
      input.environment,
      variants,
      nowIso(deps),
    );
    return answer(variants);
  },
});

/** Applies JSON-patch operations to the variants of a feature in an environment. */
export const patchFeatureEnvironmentVariants = defineOperation({
  id: 'featureEnvironments.patchVariants',
  summary: 'Patch the variants of a feature environment',
  kind: 'write',
  permission: 'UPDATE_FEATURE_ENVIRONMENT_VARIANTS',
  scope,
  input: z.object({ ...inEnvironment, operations: patchDocumentSchema }),
  output: variantsAnswerSchema,
  run: async (input, { deps, repos, actor }) =>
    answer(
      await createFeatureEnvironmentCommands(deps).patchVariants(
        repos,
        actor,
        input.project,
        input.feature,
        input.environment,
        input.operations,
      ),
    ),
});

/**
 * Sets the same variants in several environments (PUT …/variants-batch). Each environment is
 * permitted on its own (change requests may guard some of them).
 */
export const setVariantsInEnvironments = defineOperation({
  id: 'featureEnvironments.setVariantsInEnvironments',
  summary: 'Set the variants of a feature in several environments',
  kind: 'write',
  permission: 'UPDATE_FEATURE_ENVIRONMENT_VARIANTS',
  // The first environment stands for the batch here; the guard permits every one of them.
  scope: (input) => ({ project: input.project, environment: input.environments?.[0] }),
  input: variantsBatchSchema.extend(inFeature),
  output: variantsAnswerSchema,
  guard: async (input, { deps, caller }) => {
    for (const environment of input.environments)
      await deps.policy.permit(caller, 'UPDATE_FEATURE_ENVIRONMENT_VARIANTS', {
        project: input.project,
        environment,
      });
  },
  run: async (input, { deps, repos, actor }) => {
    const variants = prepareVariants(input.variants, 'variants');
    const { saveVariants } = createFeatureEnvironmentCommands(deps);
    const found = await requireFeatureWithTags(repos, input.project, input.feature);
    const at = nowIso(deps);
    for (const env of input.environments) await saveVariants(repos, actor, found, env, variants, at);
    return answer(variants);
  },
});

/** Legacy feature-level variants: sets them (or patches them) in every environment of the feature. */
const featureVariantsOperation = (id: string, summary: string) =>
  defineOperation({
    id,
    summary,
    kind: 'write',
    permission: 'UPDATE_FEATURE_ENVIRONMENT_VARIANTS',
    scope,
    input: withBodyVariants(inFeature, true),
    output: variantsAnswerSchema,
    run: async (input, { deps, repos, actor }) => {
      const found = await requireFeatureWithTags(repos, input.project, input.feature);
      const rows = await repos.featureEnvironments.listForFeature(input.feature);
      const before = rows[0]?.variants ?? [];
      const raw = isPatchDocument(input.variants)
        ? applyJsonPatch(before, parseWith(patchDocumentSchema, input.variants))
        : input.variants;
      const variants = prepareVariants(raw);
      for (const row of rows) await repos.featureEnvironments.upsert({ ...row, variants });
      await writeFeatureEvents(repos, actor, nowIso(deps), found, [
        { type: 'feature-variants-updated', data: { variants }, preData: { variants: before } },
      ]);
      return answer(variants);
    },
  });

/** Replaces the variants of a feature in every environment (feature-variants-updated; deprecated route). */
export const setFeatureVariants = featureVariantsOperation(
  'featureEnvironments.setFeatureVariants',
  'Replace the variants of a feature in every environment',
);
/** Patches the variants of a feature in every environment (feature-variants-updated; deprecated route). */
export const patchFeatureVariants = featureVariantsOperation(
  'featureEnvironments.patchFeatureVariants',
  'Patch the variants of a feature in every environment',
);
