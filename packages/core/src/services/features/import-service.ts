import type { Caller } from '../../auth/caller.js';
import { parseWith } from '../../domain/parse.js';
import type { VariantInput } from '../../domain/variant.js';
import { FlagstaffError } from '../../errors.js';
import type { Repositories } from '../../ports/repositories.js';
import { nowIso, type ServiceDeps } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';
import { joined } from '../joined-store.js';
import { createContextFieldService } from '../projects/context-field-service.js';
import { runnerOf } from '../service-runner.js';
import { createDependencyService } from './dependency-service.js';
import { createFeatureEnvironmentService } from './feature-environment-service.js';
import { createFeatureService } from './feature-service.js';
import { type ImportBody, type ImportValidation, importBodySchema } from './import-schema.js';
import { type ImportTarget, validateImport } from './import-validation.js';
import { addStrategy } from './strategy-operations.js';
import { createStrategyService } from './strategy-service.js';
import { createTagService } from './tag-service.js';

/** The items of an import list by the feature they name, in their order. */
function groupByFeature<T extends { featureName: string }>(items: readonly T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(item.featureName);
    if (group) group.push(item);
    else groups.set(item.featureName, [item]);
  }
  return groups;
}

/** Features an import must bring for the planner statistics to be refreshed after it. */
const BULK_IMPORT = 1000;

/** Applies a validated import with the regular commands, inside the caller's transaction. */
async function apply(
  deps: ServiceDeps,
  tx: Repositories,
  caller: Caller,
  body: ImportBody,
  target: ImportTarget,
): Promise<number> {
  const inTx = { ...deps, store: joined(deps.store, tx) };
  const features = createFeatureService(inTx);
  const strategies = createStrategyService(inTx);
  const featureEnvironments = createFeatureEnvironmentService(inTx);
  const tags = createTagService(inTx);
  const dependencies = createDependencyService(runnerOf(inTx));
  const contextFields = createContextFieldService(inTx);
  const { project, environment, data } = body;

  for (const field of data.contextFields)
    if (!target.contextFields.has(field.name))
      await contextFields.create(caller, {
        name: field.name,
        description: field.description ?? undefined,
        stickiness: field.stickiness ?? false,
        legalValues: field.legalValues.map((v) => ({
          value: v.value,
          ...(v.description ? { description: v.description } : {}),
        })),
      });
  const tagTypes = new Map(data.tagTypes.map((t) => [t.name, t]));
  for (const type of new Set(data.featureTags.map((t) => t.tagType)))
    if (!target.tagTypes.has(type))
      await tags.createType(caller, {
        name: type,
        ...(tagTypes.get(type)?.description ? { description: tagTypes.get(type)?.description } : {}),
      });

  const segmentIds = new Map(data.segments.map((s) => [s.id, target.segmentsByName.get(s.name)!]));
  // Looked up per feature: grouped once, not searched once per feature (10,000 features: 10⁸ steps).
  const environmentRows = new Map(data.featureEnvironments.map((e) => [e.featureName, e]));
  const strategiesOf = groupByFeature(data.featureStrategies);
  const tagsOf = groupByFeature(data.featureTags);
  for (const feature of data.features) {
    const metadata = {
      type: feature.type ?? 'release',
      ...(feature.description != null ? { description: feature.description } : {}),
      impressionData: feature.impressionData ?? false,
    };
    if (target.existing.has(feature.name)) await features.update(caller, project, feature.name, metadata);
    else await features.create(caller, project, { name: feature.name, ...metadata });
    if (feature.stale !== undefined) await features.setStale(caller, project, [feature.name], feature.stale);

    const at = { project, feature: feature.name, environment };
    const row = environmentRows.get(feature.name);
    // Enabled first: enabling a feature without strategies adds a default one, which the
    // replacement below removes again unless the import carries it.
    if (row) await featureEnvironments.setEnabled(caller, project, feature.name, environment, row.enabled);
    for (const existing of await strategies.list(caller, at))
      await strategies.delete(caller, at, existing.id);
    const imported = [...(strategiesOf.get(feature.name) ?? [])].sort(
      (a, b) => (a.sortOrder ?? 0) - (b.sortOrder ?? 0),
    );
    // Checked by the import's validation; the operation parses it again, typed.
    for (const s of imported)
      await runnerOf(inTx).unknown(addStrategy, caller, {
        ...at,
        name: s.name,
        ...(s.title ? { title: s.title } : {}),
        disabled: s.disabled ?? false,
        parameters: s.parameters,
        constraints: s.constraints,
        segments: s.segments.map((id) => segmentIds.get(id)),
        variants: s.variants,
      });
    if (row && (row.variants.length > 0 || target.existing.has(feature.name)))
      // The operation checks the imported variants as it checks any body.
      await featureEnvironments.setVariants(
        caller,
        project,
        feature.name,
        environment,
        row.variants as VariantInput[],
      );
    const featureTags = (tagsOf.get(feature.name) ?? []).map((t) => ({ type: t.tagType, value: t.tagValue }));
    if (featureTags.length > 0)
      await tags.updateFeatureTags(caller, feature.name, { addedTags: featureTags, removedTags: [] });
  }
  for (const { feature, dependencies: parents } of data.dependencies) {
    await dependencies.removeAll(caller, project, feature);
    for (const parent of parents)
      await dependencies.add(caller, project, feature, {
        feature: parent.feature,
        enabled: parent.enabled ?? true,
        ...(parent.variants?.length ? { variants: parent.variants } : {}),
      });
  }
  return data.features.length;
}

/**
 * Importing features (POST /features-batch/validate and /import, Unleash's body): everything is
 * validated first and every problem listed together; then the import applies in one transaction
 * through the regular commands (their events and permission checks), ending with features-imported.
 */
export function createImportService(deps: ServiceDeps) {
  return {
    /** What an import would run into: errors, warnings and missing permissions, nothing written. */
    async validate(caller: Caller, input: unknown): Promise<ImportValidation> {
      await deps.policy.require(caller, 'NONE');
      const body = parseWith(importBodySchema, input);
      return (await validateImport(deps.store, deps.policy, caller, body)).validation;
    },

    /**
     * Applies an import in one transaction. Any error or missing permission refuses it as a whole
     * (VALIDATION with every problem in `details.errors`), writing nothing.
     */
    async import(caller: Caller, input: unknown): Promise<{ imported: number }> {
      await deps.policy.require(caller, 'NONE');
      const body = parseWith(importBodySchema, input);
      await deps.policy.requireDirectChange('UPDATE_FEATURE_ENVIRONMENT', {
        project: body.project,
        environment: body.environment,
      });
      const result = await deps.store.transaction(async (tx) => {
        const { validation, target } = await validateImport(tx, deps.policy, caller, body);
        const problems = [...validation.errors, ...validation.permissions];
        if (problems.length > 0)
          throw new FlagstaffError(
            validation.errors.length === 0 ? 'FORBIDDEN' : 'VALIDATION',
            `The import was refused: ${problems.map((p) => `${p.message} ${p.affectedItems.join(', ')}`).join(' ')}`,
            { errors: validation.errors, permissions: validation.permissions },
          );
        const imported = await apply(deps, tx, caller, body, target);
        await writeEvents(tx, caller.actor, nowIso(deps), [
          {
            type: 'features-imported',
            project: body.project,
            environment: body.environment,
            data: { features: body.data.features.map((f) => f.name) },
          },
        ]);
        return { imported };
      });
      // A large import changes the tables' shape enough that a planner working from the statistics
      // of before would scan where an index serves (see the store's `refreshStatistics`).
      // The import is committed whatever happens here: a failure is worth a warning, not a refusal.
      if (result.imported >= BULK_IMPORT)
        await deps.store.refreshStatistics?.().catch((error: unknown) =>
          deps.logger.warn('Could not refresh the planner statistics after an import.', {
            error: String(error),
          }),
        );
      return result;
    },
  };
}

export type ImportService = ReturnType<typeof createImportService>;
