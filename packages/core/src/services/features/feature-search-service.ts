import { type Caller, userIdOf } from '../../auth/caller.js';
import { projectVisibility } from '../../auth/project-visibility.js';
import type { FeatureRecord } from '../../domain/feature.js';
import {
  type FeatureSearchEnvironment,
  type FeatureSearchItem,
  type FeatureSearchResult,
  featureSearchParamsSchema,
} from '../../domain/feature-search.js';
import { featureSearchResultSchema } from '../../domain/feature-view.js';
import { defineOperation } from '../../operations/define-operation.js';
import type { OperationRunner } from '../../operations/run-operation.js';
import type { ReadRepositories } from '../../ports/store.js';
import { groupBy } from '../insights/group-by.js';
import { searchTotalsOf } from './search-totals.js';

/** The rows of one page, from a fixed number of reads however many features it holds. */
async function pageItems(
  repos: ReadRepositories,
  features: readonly FeatureRecord[],
  userId: number | null,
): Promise<FeatureSearchItem[]> {
  if (features.length === 0) return [];
  const names = features.map((f) => f.name);
  const projects = [...new Set(features.map((f) => f.project))];
  const [envRows, strategies, tags, parents, children, environments, segments, links, favorites] =
    await Promise.all([
      repos.featureEnvironments.listForFeatures(names),
      repos.strategies.list({ featureNames: names }),
      repos.tags.listFeatureTags(names),
      repos.dependencies.list(names),
      repos.dependencies.listByParents(names),
      repos.environments.list(),
      repos.segments.list(),
      Promise.all(projects.map(async (p) => [p, await repos.environments.listForProject(p)] as const)),
      userId === null ? Promise.resolve({ features: [], projects: [] }) : repos.favorites.list(userId),
    ]);
  const favorite = new Set(favorites.features);
  const envByName = new Map(environments.map((e) => [e.name, e]));
  const linked = new Map(links.map(([p, rows]) => [p, new Set(rows.map((r) => r.environment))]));
  const segmentNames = new Map(segments.map((s) => [s.id, s.name]));
  const rowsOf = groupBy(envRows, (r) => r.featureName);
  const strategiesOf = groupBy(strategies, (s) => `${s.featureName}\u0000${s.environment}`);
  const tagsOf = groupBy(tags, (t) => t.featureName);
  const isChild = new Set(parents.map((d) => d.child));
  const isParent = new Set(children.map((d) => d.feature));
  const segmentsOf = new Map<string, Set<string>>();
  for (const s of strategies)
    for (const id of s.segments) {
      const name = segmentNames.get(id);
      if (name === undefined) continue;
      const set = segmentsOf.get(s.featureName) ?? new Set<string>();
      set.add(name);
      segmentsOf.set(s.featureName, set);
    }

  return features.map((f) => {
    const inProject = linked.get(f.project) ?? new Set<string>();
    const envs: FeatureSearchEnvironment[] = (rowsOf.get(f.name) ?? [])
      .filter((r) => inProject.has(r.environment))
      .map((r) => {
        const env = envByName.get(r.environment);
        const strats = strategiesOf.get(`${f.name}\u0000${r.environment}`) ?? [];
        return {
          name: r.environment,
          enabled: r.enabled,
          type: env?.type ?? 'development',
          sortOrder: env?.sortOrder ?? 0,
          hasStrategies: strats.length > 0,
          hasEnabledStrategies: strats.some((s) => !s.disabled),
          lastSeenAt: r.lastSeenAt,
        };
      })
      .sort((a, b) => a.sortOrder - b.sortOrder || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const lastSeenAt = (rowsOf.get(f.name) ?? []).reduce<string | null>(
      (latest, r) =>
        r.lastSeenAt !== null && (latest === null || r.lastSeenAt > latest) ? r.lastSeenAt : latest,
      null,
    );
    return {
      name: f.name,
      project: f.project,
      type: f.type,
      description: f.description,
      stale: f.stale,
      favorite: favorite.has(f.name),
      impressionData: f.impressionData,
      createdAt: f.createdAt,
      archivedAt: f.archivedAt,
      lastSeenAt,
      environments: envs,
      tags: (tagsOf.get(f.name) ?? []).map(({ type, value }) => ({ type, value })),
      segments: [...(segmentsOf.get(f.name) ?? [])].sort(),
      dependencyType: isChild.has(f.name) ? 'child' : isParent.has(f.name) ? 'parent' : null,
      lifecycle: f.lifecycle,
    };
  });
}

/**
 * One page of features matching the query parameters (see `featureSearchParamsSchema`: `query`,
 * `project`, `type`, `state`, `lifecycle`, `tag`, `segment`, `createdAt`, `lastSeenAt`, `archived`,
 * `sortBy`, `sortOrder`, `offset`, `limit` ≤ 100, default 50) and the total. Private projects the
 * caller may not see are left out. VALIDATION naming the parameter.
 */
export const searchFeatures = defineOperation({
  id: 'features.search',
  summary: 'Search features',
  kind: 'read',
  permission: 'NONE',
  input: featureSearchParamsSchema,
  output: featureSearchResultSchema,
  run: async (query, { deps, repos, caller }) => {
    const totals = searchTotalsOf(deps.store);
    // The version is read before the search: a total counted after it is at least that current.
    const [visibility, version] = await Promise.all([
      projectVisibility(repos, caller.principal),
      repos.events.latestId(),
    ]);
    const knownTotal = totals.known(query, visibility, version);
    const page = await repos.featureSearch.search(query, visibility, { knownTotal });
    if (knownTotal === undefined) totals.remember(query, visibility, version, page.total);
    return { features: await pageItems(repos, page.features, userIdOf(caller)), total: page.total };
  },
});

/** The admin UI's feature table (GET /api/admin/search/features): a typed wrapper over `searchFeatures`. */
export function createFeatureSearchService(run: OperationRunner) {
  return {
    /** One page of features matching the query parameters (as a URL carries them), and the total. */
    search: (caller: Caller, params: Record<string, unknown> | undefined): Promise<FeatureSearchResult> =>
      run.unknown(searchFeatures, caller, params ?? {}),
  };
}

export type FeatureSearchService = ReturnType<typeof createFeatureSearchService>;
