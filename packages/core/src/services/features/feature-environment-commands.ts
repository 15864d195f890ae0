import { type FeatureEnvironmentRecord, type FeatureRecord, stageAfterUse } from '../../domain/feature.js';
import { variantListSchema } from '../../domain/feature-environment.js';
import { parseWith } from '../../domain/parse.js';
import type { PatchOperation } from '../../domain/strategy.js';
import type { Tag } from '../../domain/tag.js';
import type { Variant } from '../../domain/variant.js';
import { normalizeVariantWeights, variantSetProblem } from '../../domain/variant-weights.js';
import { FlagstaffError } from '../../errors.js';
import type { Repositories } from '../../ports/repositories.js';
import type { ReadRepositories } from '../../ports/store.js';
import { type Actor, nowIso, type ServiceDeps } from '../deps.js';
import { writeFeatureEvents } from '../events/event-writer.js';
import { requireProject, requireProjectEnvironment } from '../projects/project-service.js';
import { applyJsonPatch } from './json-patch.js';
import { requireFeatureIn, requireFeatureWithTags } from './require-feature.js';
import { insertStrategy } from './strategy-commands.js';
import { fallbackStrategy, prepareStrategyConfig } from './strategy-rules.js';

/** Checks and normalizes a variant set as it is saved. */
export function prepareVariants(input: unknown, path?: string): Variant[] {
  const variants = parseWith(variantListSchema, input, path);
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
export async function requireRow(
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
      ops: PatchOperation[],
    ): Promise<Variant[]> {
      const found = await requireFeatureWithTags(tx, project, name);
      const row = await requireRow(tx, found.feature, environment);
      const variants = prepareVariants(applyJsonPatch(row.variants, ops));
      await saveVariants(tx, actor, found, environment, variants, nowIso(deps));
      return variants;
    },
  };
}

export type FeatureEnvironmentCommands = ReturnType<typeof createFeatureEnvironmentCommands>;
