import type { z } from 'zod';
import type { Caller } from '../../auth/caller.js';
import { type ProjectVisibility, seesProject } from '../../auth/principal.js';
import { projectVisibility } from '../../auth/project-visibility.js';
import type { Dependency, FeatureRecord } from '../../domain/feature.js';
import {
  type ExportDocument,
  type ExportQuery,
  exportDocumentSchema,
  exportQuerySchema,
} from '../../domain/feature-export.js';
import type { FeatureStrategy } from '../../domain/strategy.js';
import type { Tag } from '../../domain/tag.js';
import type { Variant } from '../../domain/variant.js';
import { FlagstaffError, notFound } from '../../errors.js';
import { defineOperation } from '../../operations/define-operation.js';
import type { OperationRunner } from '../../operations/run-operation.js';
import type { ReadRepositories } from '../../ports/store.js';
import { nowIso } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';
import { requireEnvironment } from '../projects/environment-service.js';
import { requireProject } from '../projects/project-service.js';

/** `type:value`, or a bare value of the `simple` type. */
export function parseTag(text: string): Tag {
  const i = text.indexOf(':');
  return i > 0 ? { type: text.slice(0, i), value: text.slice(i + 1) } : { type: 'simple', value: text };
}

/**
 * The features an export covers, in the reference's precedence: tag, then a non-empty name list,
 * then project, then (an empty name list) every live feature. Named features may be archived;
 * names that do not exist fail the export. Features of projects the viewer may not see do not
 * exist here: a tag or a full export leaves them out, naming one (or its project) is NOT_FOUND.
 */
async function selectFeatures(
  repos: ReadRepositories,
  query: z.output<typeof exportQuerySchema>,
  visibility: ProjectVisibility,
): Promise<FeatureRecord[]> {
  const visible = (features: FeatureRecord[]): FeatureRecord[] =>
    visibility.all ? features : features.filter((f) => seesProject(visibility, f.project));
  if (query.tag !== undefined) {
    const names = await repos.tags.featuresWithTag(parseTag(query.tag));
    return names.length === 0 ? [] : visible(await repos.features.list({ names, archived: false }));
  }
  if (query.features !== undefined && query.features.length > 0) {
    const wanted = [...new Set(query.features)];
    const found = visible(await repos.features.list({ names: wanted }));
    const known = new Set(found.map((f) => f.name));
    const missing = wanted.filter((n) => !known.has(n));
    if (missing.length > 0)
      throw new FlagstaffError(
        'NOT_FOUND',
        `Could not find feature${missing.length > 1 ? 's' : ''} ${missing.map((n) => `"${n}"`).join(', ')}.`,
        {
          resource: 'feature',
          id: missing.join(','),
          missing,
        },
      );
    return found;
  }
  if (query.project !== undefined) {
    await requireProject(repos, query.project);
    if (!seesProject(visibility, query.project)) throw notFound('project', query.project);
    return repos.features.list({ project: query.project, archived: false });
  }
  return visible(await repos.features.list({ archived: false }));
}

/** Context fields the strategies and variants refer to (constraints, stickiness, overrides). */
function usedContextFields(
  strategies: readonly FeatureStrategy[],
  variants: readonly Variant[],
): Set<string> {
  const used = new Set<string>();
  for (const s of strategies) {
    for (const c of s.constraints) used.add(c.contextName);
    if (s.parameters.stickiness) used.add(s.parameters.stickiness);
    for (const v of s.variants) used.add(v.stickiness);
  }
  for (const v of variants) {
    used.add(v.stickiness);
    for (const o of v.overrides ?? []) used.add(o.contextName);
  }
  return used;
}

/** Assembles the export of the features in one environment with a fixed number of reads. */
async function buildExport(
  repos: ReadRepositories,
  features: readonly FeatureRecord[],
  environment: string,
): Promise<ExportDocument> {
  const names = features.map((f) => f.name);
  const none = names.length === 0;
  const [envRows, strategies, featureTags, dependencies, contextFields, segments, tagTypes] =
    await Promise.all([
      none ? [] : repos.featureEnvironments.listForFeatures(names),
      none ? [] : repos.strategies.list({ featureNames: names, environment }),
      none ? [] : repos.tags.listFeatureTags(names),
      none ? [] : repos.dependencies.list(names),
      repos.contextFields.list(),
      repos.segments.list(),
      repos.tags.listTypes(),
    ]);
  const rows = envRows
    .filter((r) => r.environment === environment)
    .sort((a, b) => a.featureName.localeCompare(b.featureName));
  const fields = usedContextFields(
    strategies,
    rows.flatMap((r) => r.variants),
  );
  const segmentIds = new Set(strategies.flatMap((s) => s.segments));
  const tagTypeNames = new Set(featureTags.map((t) => t.type));
  const dependenciesByChild = new Map<string, Dependency[]>();
  for (const { child, feature, enabled, variants } of dependencies) {
    const list = dependenciesByChild.get(child) ?? [];
    list.push({ feature, enabled, variants });
    dependenciesByChild.set(child, list);
  }
  return {
    features: features.map((f) => ({
      name: f.name,
      type: f.type,
      description: f.description,
      project: f.project,
      stale: f.stale,
      impressionData: f.impressionData,
      archived: f.archivedAt !== null,
    })),
    featureStrategies: strategies.map(({ createdAt: _c, projectId: _p, environment: _e, ...rest }) => rest),
    featureEnvironments: rows.map((r) => ({
      name: r.featureName,
      featureName: r.featureName,
      environment: r.environment,
      enabled: r.enabled,
      variants: r.variants,
    })),
    contextFields: contextFields.filter((c) => fields.has(c.name)).map(({ createdAt: _c, ...rest }) => rest),
    featureTags: featureTags.map((t) => ({ featureName: t.featureName, tagType: t.type, tagValue: t.value })),
    segments: segments.filter((s) => segmentIds.has(s.id)).map(({ id, name }) => ({ id, name })),
    tagTypes: tagTypes.filter((t) => tagTypeNames.has(t.name)),
    dependencies: [...dependenciesByChild].map(([feature, deps]) => ({ feature, dependencies: deps })),
  };
}

/**
 * `POST /api/admin/features-batch/export`: the features with their configuration in one environment
 * (features-exported), only features of projects the caller may see. A read: the event is its audit
 * record, written in a transaction of its own with the reads it records, so exports still work in
 * maintenance mode.
 */
export const exportFeatures = defineOperation({
  id: 'features.export',
  summary: 'Export features',
  kind: 'read',
  permission: 'NONE',
  input: exportQuerySchema,
  output: exportDocumentSchema,
  run: (query, { deps, caller }) =>
    deps.store.transaction(async (tx) => {
      await requireEnvironment(tx, query.environment);
      const features = await selectFeatures(tx, query, await projectVisibility(tx, caller.principal));
      const result = await buildExport(tx, features, query.environment);
      const projects = [...new Set(features.map((f) => f.project))];
      // The event records what was exported, not the export itself: exports can be large and
      // the log is searched and delivered to addons.
      await writeEvents(tx, caller.actor, nowIso(deps), [
        {
          type: 'features-exported',
          environment: query.environment,
          project: projects.length === 1 ? projects[0] : null,
          data: {
            environment: query.environment,
            featureCount: features.length,
            features: features.map((f) => f.name),
          },
        },
      ]);
      return result;
    }),
});

/** Exporting features of an environment: a typed wrapper. */
export function createExportService(run: OperationRunner) {
  return {
    /** The features with their configuration in one environment (features-exported). */
    export: (caller: Caller, input: ExportQuery): Promise<ExportDocument> =>
      run(exportFeatures, caller, input),
  };
}

export type ExportService = ReturnType<typeof createExportService>;
