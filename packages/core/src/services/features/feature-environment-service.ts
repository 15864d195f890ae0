import { z } from 'zod';
import type { Caller } from '../../auth/caller.js';
import { type FeatureEnvironmentRecord, type FeatureRecord, stageAfterUse } from '../../domain/feature.js';
import { parseWith } from '../../domain/parse.js';
import { patchDocumentSchema } from '../../domain/strategy.js';
import type { Tag } from '../../domain/tag.js';
import { type Variant, variantSchema } from '../../domain/variant.js';
import { normalizeVariantWeights, variantSetProblem } from '../../domain/variant-weights.js';
import { FlagstaffError } from '../../errors.js';
import type { Repositories } from '../../ports/repositories.js';
import type { ReadRepositories } from '../../ports/store.js';
import { type Actor, inTransaction, nowIso, type ServiceDeps } from '../deps.js';
import { writeFeatureEvents } from '../events/event-writer.js';
import { requireProject, requireProjectEnvironment } from '../projects/project-service.js';
import { applyJsonPatch } from './json-patch.js';
import { requireFeature, requireFeatureIn, requireFeatureWithTags } from './require-feature.js';
import { fallbackStrategy, prepareStrategyConfig } from './strategy-rules.js';
import { insertStrategy } from './strategy-service.js';

const featureListSchema = z.object({
  features: z.array(z.string().min(1)).min(1, 'must list at least one feature'),
});
const variantsSchema = z.array(variantSchema);
const variantsBatchSchema = z.object({
  variants: variantsSchema,
  environments: z.array(z.string().min(1)).min(1, 'must list at least one environment'),
});

/** Checks and normalizes a variant set as it is saved. */
export function prepareVariants(input: unknown, path?: string): Variant[] {
  const variants = parseWith(variantsSchema, input, path);
  const problem = variantSetProblem(variants);
  if (problem)
    throw new FlagstaffError('VALIDATION', `"${path ?? 'variants'}" ${problem}.`, {
      path: path ?? 'variants',
    });
  return normalizeVariantWeights(variants);
}

const stageAfterEnabling = stageAfterUse;

/** The feature's row in the environment; switched off and without variants when it has none yet. */
const rowOf = async (
  tx: ReadRepositories,
  featureName: string,
  environment: string,
): Promise<FeatureEnvironmentRecord> =>
  (await tx.featureEnvironments.get(featureName, environment)) ?? {
    featureName,
    environment,
    enabled: false,
    variants: [],
    lastSeenAt: null,
  };

/** The row, after checking the environment is the feature's project's. */
async function requireRow(
  tx: ReadRepositories,
  feature: FeatureRecord,
  environment: string,
): Promise<FeatureEnvironmentRecord> {
  await requireProjectEnvironment(tx, feature.project, environment);
  return rowOf(tx, feature.name, environment);
}

/**
 * Switching and variants inside a caller's transaction, after the policy was asked: the direct
 * routes and applying a change request run these same functions.
 */
export function createFeatureEnvironmentCommands(deps: ServiceDeps) {
  async function setEnabledIn(
    tx: Repositories,
    actor: Actor,
    project: string,
    name: string,
    environment: string,
    enabled: boolean,
  ) {
    const { feature, tags, environment: env, link } = await requireFeatureIn(tx, project, name, environment);
    const row = await rowOf(tx, name, environment);
    if (row.enabled === enabled) return;
    const at = nowIso(deps);
    if (enabled && (await tx.strategies.list({ featureName: name, environment })).length === 0) {
      const proj = await requireProject(tx, project);
      const config = link.defaultStrategy ?? fallbackStrategy(name, proj.defaultStickiness);
      await insertStrategy(deps, tx, actor, {
        subject: { feature, tags },
        environment,
        config: await prepareStrategyConfig(tx, name, config),
      });
    }
    await tx.featureEnvironments.upsert({ ...row, enabled });
    if (enabled) {
      // Nothing in this command changes the environment row read above.
      const lifecycle = stageAfterEnabling(feature.lifecycle, env.type, at);
      if (lifecycle !== feature.lifecycle) await tx.features.update({ ...feature, lifecycle });
    }
    await writeFeatureEvents(tx, actor, at, { feature, tags }, [
      { type: enabled ? 'feature-environment-enabled' : 'feature-environment-disabled', environment },
    ]);
  }

  async function saveVariants(
    tx: Repositories,
    actor: Actor,
    { feature, tags }: { feature: FeatureRecord; tags: Tag[] },
    environment: string,
    variants: Variant[],
    at: string,
  ) {
    const row = await requireRow(tx, feature, environment);
    await tx.featureEnvironments.upsert({ ...row, variants });
    await writeFeatureEvents(tx, actor, at, { feature, tags }, [
      {
        type: 'feature-environment-variants-updated',
        environment,
        data: { variants },
        preData: { variants: row.variants },
      },
    ]);
  }

  return {
    setEnabled: setEnabledIn,
    saveVariants,
    /** JSON-patch operations on the variants of a feature in an environment. */
    async patchVariants(
      tx: Repositories,
      actor: Actor,
      project: string,
      name: string,
      environment: string,
      ops: z.infer<typeof patchDocumentSchema>,
    ): Promise<Variant[]> {
      const found = await requireFeatureWithTags(tx, project, name);
      const row = await requireRow(tx, found.feature, environment);
      const variants = prepareVariants(applyJsonPatch(row.variants, ops));
      await saveVariants(tx, actor, found, environment, variants, nowIso(deps));
      return variants;
    },
  };
}

/** Turning features on and off per environment, and their variants. */
export function createFeatureEnvironmentService(deps: ServiceDeps) {
  const { store } = deps;
  const { setEnabled: setEnabledIn, saveVariants, patchVariants } = createFeatureEnvironmentCommands(deps);

  return {
    /** Turns a feature on or off in an environment; enabling with no strategy adds the default one. */
    async setEnabled(
      caller: Caller,
      project: string,
      name: string,
      environment: string,
      enabled: boolean,
    ): Promise<void> {
      const actor = await deps.policy.permit(caller, 'UPDATE_FEATURE_ENVIRONMENT', { project, environment });
      return inTransaction(deps, (tx) => setEnabledIn(tx, actor, project, name, environment, enabled));
    },

    /** Turns many features of a project on or off in one environment, all or nothing. */
    async bulkSetEnabled(
      caller: Caller,
      project: string,
      environment: string,
      enabled: boolean,
      input: unknown,
    ): Promise<void> {
      const actor = await deps.policy.permit(caller, 'UPDATE_FEATURE_ENVIRONMENT', { project, environment });
      const body = parseWith(featureListSchema, input);
      return inTransaction(deps, async (tx) => {
        await requireProjectEnvironment(tx, project, environment);
        for (const name of body.features) await setEnabledIn(tx, actor, project, name, environment, enabled);
      });
    },

    /** Variants of a feature in an environment. */
    async getVariants(
      caller: Caller,
      project: string,
      name: string,
      environment: string,
    ): Promise<Variant[]> {
      await deps.policy.require(caller, 'NONE', { project, environment });
      const feature = await requireFeature(store, project, name);
      return (await requireRow(store, feature, environment)).variants;
    },

    /** Replaces the variants of a feature in an environment (feature-environment-variants-updated). */
    async setVariants(
      caller: Caller,
      project: string,
      name: string,
      environment: string,
      input: unknown,
    ): Promise<Variant[]> {
      const actor = await deps.policy.permit(caller, 'UPDATE_FEATURE_ENVIRONMENT_VARIANTS', {
        project,
        environment,
      });
      const variants = prepareVariants(input);
      return inTransaction(deps, async (tx) => {
        await saveVariants(
          tx,
          actor,
          await requireFeatureWithTags(tx, project, name),
          environment,
          variants,
          nowIso(deps),
        );
        return variants;
      });
    },

    /** Applies JSON-patch operations to the variants of a feature in an environment. */
    async patchVariants(
      caller: Caller,
      project: string,
      name: string,
      environment: string,
      input: unknown,
    ): Promise<Variant[]> {
      const actor = await deps.policy.permit(caller, 'UPDATE_FEATURE_ENVIRONMENT_VARIANTS', {
        project,
        environment,
      });
      const ops = parseWith(patchDocumentSchema, input);
      return inTransaction(deps, (tx) => patchVariants(tx, actor, project, name, environment, ops));
    },

    /** Sets the same variants in several environments (PUT …/variants-batch). */
    async setVariantsInEnvironments(
      caller: Caller,
      project: string,
      name: string,
      input: unknown,
    ): Promise<Variant[]> {
      await deps.policy.require(caller, 'UPDATE_FEATURE_ENVIRONMENT_VARIANTS', { project });
      const body = parseWith(variantsBatchSchema, input);
      const variants = prepareVariants(body.variants, 'variants');
      // Each environment is permitted on its own: change requests may guard some of them.
      let actor = caller.actor;
      for (const environment of body.environments)
        actor = await deps.policy.permit(caller, 'UPDATE_FEATURE_ENVIRONMENT_VARIANTS', {
          project,
          environment,
        });
      return inTransaction(deps, async (tx) => {
        const found = await requireFeatureWithTags(tx, project, name);
        const at = nowIso(deps);
        for (const env of body.environments) await saveVariants(tx, actor, found, env, variants, at);
        return variants;
      });
    },

    /** Legacy feature-level variants: sets them in every environment of the feature (feature-variants-updated). */
    async setFeatureVariants(
      caller: Caller,
      project: string,
      name: string,
      input: unknown,
    ): Promise<Variant[]> {
      const actor = await deps.policy.permit(caller, 'UPDATE_FEATURE_ENVIRONMENT_VARIANTS', { project });
      return inTransaction(deps, async (tx) => {
        const found = await requireFeatureWithTags(tx, project, name);
        const rows = await tx.featureEnvironments.listForFeature(name);
        const before = rows[0]?.variants ?? [];
        const raw =
          Array.isArray(input) && input.some((op) => op && typeof op === 'object' && 'op' in op)
            ? applyJsonPatch(before, parseWith(patchDocumentSchema, input))
            : input;
        const variants = prepareVariants(raw);
        for (const row of rows) await tx.featureEnvironments.upsert({ ...row, variants });
        await writeFeatureEvents(tx, actor, nowIso(deps), found, [
          { type: 'feature-variants-updated', data: { variants }, preData: { variants: before } },
        ]);
        return variants;
      });
    },
  };
}

export type FeatureEnvironmentService = ReturnType<typeof createFeatureEnvironmentService>;
export type FeatureEnvironmentCommands = ReturnType<typeof createFeatureEnvironmentCommands>;
