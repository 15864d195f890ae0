import { z } from 'zod';
import type { Caller } from '../../auth/caller.js';
import { type ProjectVisibility, seesProject } from '../../auth/principal.js';
import { projectVisibility } from '../../auth/project-visibility.js';
import type { ContextField } from '../../domain/context-field.js';
import type { Dependency, FeatureRecord } from '../../domain/feature.js';
import { parseWith } from '../../domain/parse.js';
import type { FeatureStrategy } from '../../domain/strategy.js';
import type { Tag, TagType } from '../../domain/tag.js';
import type { Variant } from '../../domain/variant.js';
import { FlagstaffError, notFound } from '../../errors.js';
import type { ReadRepositories } from '../../ports/store.js';
import { inTransaction, nowIso, type ServiceDeps } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';
import { requireEnvironment } from '../projects/environment-service.js';
import { requireProject } from '../projects/project-service.js';

/** Body of POST /features-batch/export: an environment and which features (names, tag or project). */
export const exportQuerySchema = z
  .object({
    environment: z
      .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
      .min(1, 'must be a non-empty environment name'),
    features: z.array(z.string().min(1, 'must be a non-empty feature name')).optional(),
    tag: z.string().min(1, 'must be a non-empty tag ("type:value" or a simple tag value)').optional(),
    project: z.string().min(1, 'must be a non-empty project id').optional(),
    downloadFile: z.boolean().optional(),
  })
  .refine((q) => q.features !== undefined || q.tag !== undefined || q.project !== undefined, {
    message: 'is required (or "tag" or "project")',
    path: ['features'],
  });
export type ExportQuery = z.input<typeof exportQuerySchema>;

export interface ExportResult {
  features: {
    name: string;
    type: string;
    description: string | null;
    project: string;
    stale: boolean;
    impressionData: boolean;
    archived: boolean;
  }[];
  featureStrategies: Omit<FeatureStrategy, 'createdAt' | 'projectId' | 'environment'>[];
  featureEnvironments: {
    name: string;
    featureName: string;
    environment: string;
    enabled: boolean;
    variants: Variant[];
  }[];
  contextFields: Omit<ContextField, 'createdAt'>[];
  featureTags: { featureName: string; tagType: string; tagValue: string }[];
  segments: { id: number; name: string }[];
  tagTypes: TagType[];
  dependencies: { feature: string; dependencies: Dependency[] }[];
}

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
): Promise<ExportResult> {
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

/** Exporting features of an environment. */
export function createExportService(deps: ServiceDeps) {
  return {
    /**
     * POST /features-batch/export: the features with their configuration in one environment
     * (features-exported). Only features of projects the caller may see.
     */
    async export(caller: Caller, input: unknown): Promise<ExportResult> {
      await deps.policy.require(caller, 'NONE', {});
      const { actor } = caller;
      const query = parseWith(exportQuerySchema, input);
      return inTransaction(deps, async (tx) => {
        await requireEnvironment(tx, query.environment);
        const features = await selectFeatures(tx, query, await projectVisibility(tx, caller.principal));
        const result = await buildExport(tx, features, query.environment);
        const projects = [...new Set(features.map((f) => f.project))];
        // The event records what was exported, not the export itself: exports can be large and
        // the log is searched and delivered to addons.
        await writeEvents(tx, actor, nowIso(deps), [
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
      });
    },
  };
}

export type ExportService = ReturnType<typeof createExportService>;
