import type { Caller } from '../../auth/caller.js';
import type { ImportBody } from '../../domain/feature-export.js';
import type { VariantInput } from '../../domain/variant.js';
import type { Repositories } from '../../ports/repositories.js';
import type { ServiceDeps } from '../deps.js';
import { joined } from '../joined-store.js';
import { createContextFieldService } from '../projects/context-field-service.js';
import { runnerOf } from '../service-runner.js';
import { createDependencyService } from './dependency-service.js';
import { createFeatureEnvironmentService } from './feature-environment-service.js';
import { createFeatureService } from './feature-service.js';
import type { ImportTarget } from './import-validation.js';
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

/** Applies a validated import with the regular commands, inside the import's transaction. */
export async function applyImport(
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
