import type { Environment } from '../../domain/environment.js';
import type {
  FeatureEnvironmentRecord,
  FeatureEnvironmentView,
  FeatureRecord,
  FeatureView,
} from '../../domain/feature.js';
import type { ProjectEnvironmentRecord } from '../../domain/project.js';
import type { FeatureStrategy } from '../../domain/strategy.js';
import type { FeatureTag } from '../../domain/tag.js';
import type { DependencyRecord } from '../../ports/feature-ports.js';
import type { ReadRepositories } from '../../ports/store.js';
import { groupBy } from '../insights/group-by.js';

/** What views are assembled from; `buildFeatureViews` reads it with a fixed number of queries. */
export interface FeatureViewData {
  envRows: readonly FeatureEnvironmentRecord[];
  strategies: readonly FeatureStrategy[];
  tags: readonly FeatureTag[];
  deps: readonly DependencyRecord[];
  children: readonly DependencyRecord[];
  environments: readonly Environment[];
  favoriteFeatures: readonly string[];
  projectLinks: readonly (readonly [string, readonly ProjectEnvironmentRecord[]])[];
}

/** Builds API views of features with a fixed number of store reads, whatever their count. */
export async function buildFeatureViews(
  repos: ReadRepositories,
  features: readonly FeatureRecord[],
  options: { userId?: number | null; environment?: string } = {},
): Promise<FeatureView[]> {
  if (features.length === 0) return [];
  const names = features.map((f) => f.name);
  const [envRows, strategies, tags, deps, children, environments, favorites, projectLinks] =
    await Promise.all([
      repos.featureEnvironments.listForFeatures(names),
      repos.strategies.list({ featureNames: names, environment: options.environment }),
      repos.tags.listFeatureTags(names),
      repos.dependencies.list(names),
      repos.dependencies.listByParents(names),
      repos.environments.list(),
      options.userId != null
        ? repos.favorites.list(options.userId)
        : Promise.resolve({ features: [], projects: [] }),
      Promise.all(
        [...new Set(features.map((f) => f.project))].map(
          async (p) => [p, await repos.environments.listForProject(p)] as const,
        ),
      ),
    ]);
  return assembleFeatureViews(
    features,
    {
      envRows,
      strategies,
      tags,
      deps,
      children,
      environments,
      favoriteFeatures: favorites.features,
      projectLinks,
    },
    options,
  );
}

/** The views of features from data already read. */
export function assembleFeatureViews(
  features: readonly FeatureRecord[],
  data: FeatureViewData,
  options: { environment?: string } = {},
): FeatureView[] {
  const { envRows, strategies, tags, deps, children, environments, projectLinks } = data;
  const envByName = new Map(environments.map((e) => [e.name, e]));
  const rowsByFeature = groupBy(envRows, (r) => r.featureName);
  const strategiesByKey = groupBy(strategies, (s) => `${s.featureName}\u0000${s.environment}`);
  const tagsByFeature = groupBy(tags, (t) => t.featureName);
  const depsByChild = groupBy(deps, (d) => d.child);
  const childrenByParent = groupBy(children, (d) => d.feature);
  const linkedEnvs = new Map(projectLinks.map(([p, links]) => [p, new Set(links.map((l) => l.environment))]));
  const favoriteSet = new Set(data.favoriteFeatures);

  return features.map((f) => {
    const linked = linkedEnvs.get(f.project) ?? new Set<string>();
    const rows = (rowsByFeature.get(f.name) ?? []).filter(
      (r) => linked.has(r.environment) && (!options.environment || r.environment === options.environment),
    );
    const envViews: FeatureEnvironmentView[] = rows
      .map((r) => {
        const env = envByName.get(r.environment);
        const strats: FeatureStrategy[] = strategiesByKey.get(`${f.name}\u0000${r.environment}`) ?? [];
        return {
          name: r.environment,
          featureName: f.name,
          environment: r.environment,
          type: env?.type ?? 'development',
          enabled: r.enabled,
          sortOrder: env?.sortOrder ?? 0,
          variantCount: r.variants.length,
          strategies: strats,
          variants: r.variants,
          lastSeenAt: r.lastSeenAt,
          hasStrategies: strats.length > 0,
          hasEnabledStrategies: strats.some((s) => !s.disabled),
        };
      })
      .sort((a, b) => a.sortOrder - b.sortOrder || a.name.localeCompare(b.name));
    const lastSeen =
      envViews
        .map((e) => e.lastSeenAt)
        .filter((x): x is string => x !== null)
        .sort()
        .at(-1) ?? null;
    return {
      name: f.name,
      type: f.type,
      description: f.description,
      archived: f.archivedAt !== null,
      project: f.project,
      enabled: envViews.some((e) => e.enabled),
      stale: f.stale,
      favorite: favoriteSet.has(f.name),
      impressionData: f.impressionData,
      createdAt: f.createdAt,
      archivedAt: f.archivedAt,
      lastSeenAt: lastSeen,
      environments: envViews,
      variants: envViews[0]?.variants ?? [],
      strategies: [],
      tags: (tagsByFeature.get(f.name) ?? []).map(({ type, value }) => ({ type, value })),
      children: (childrenByParent.get(f.name) ?? []).map((d) => d.child).sort(),
      lifecycle: f.lifecycle,
      dependencies: (depsByChild.get(f.name) ?? []).map(({ feature, enabled, variants }) => ({
        feature,
        enabled,
        variants,
      })),
    };
  });
}
