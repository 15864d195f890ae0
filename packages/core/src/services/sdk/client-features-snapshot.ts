import type { FeatureStrategy } from '../../domain/strategy.js';
import type { ClientFeature, ClientFeatures, ClientStrategy } from '../../evaluation/client-features.js';
import type { ReadRepositories } from '../../ports/store.js';

export interface SnapshotOptions {
  /** Keep disabled strategies (the playground reports them; SDKs never get them). */
  includeDisabledStrategies?: boolean;
}

const toClientStrategy = (s: FeatureStrategy): ClientStrategy => ({
  id: s.id,
  name: s.name,
  title: s.title,
  disabled: s.disabled,
  sortOrder: s.sortOrder,
  parameters: s.parameters,
  constraints: s.constraints,
  segments: s.segments,
  variants: s.variants,
});

/**
 * Every live feature as SDKs see it in one environment (the Unleash client-API format), read with a
 * fixed number of queries. A feature whose project does not use the environment is off there.
 */
export async function loadClientFeatures(
  repos: ReadRepositories,
  environment: string,
  options: SnapshotOptions = {},
): Promise<ClientFeatures> {
  const [features, segments] = await Promise.all([
    loadFeatures(repos, environment, undefined, options),
    repos.segments.list(),
  ]);
  return {
    version: 2,
    features,
    segments: segments.map((s) => ({ id: s.id, name: s.name, constraints: s.constraints })),
  };
}

/**
 * The named features as `loadClientFeatures` would give them (archived or deleted ones are left
 * out), ordered by name: what a configuration change touching only those features needs re-read.
 */
export const loadNamedClientFeatures = (
  repos: ReadRepositories,
  environment: string,
  names: readonly string[],
  options: SnapshotOptions = {},
): Promise<ClientFeature[]> =>
  names.length === 0 ? Promise.resolve([]) : loadFeatures(repos, environment, names, options);

async function loadFeatures(
  repos: ReadRepositories,
  environment: string,
  only: readonly string[] | undefined,
  options: SnapshotOptions,
): Promise<ClientFeature[]> {
  const [features, projects] = await Promise.all([
    repos.features.list({ archived: false, ...(only ? { names: only } : {}) }),
    repos.projects.list(),
  ]);
  const names = features.map((f) => f.name);
  if (only && names.length === 0) return [];
  const [rows, strategies, dependencies, links] = await Promise.all([
    repos.featureEnvironments.listForFeatures(names),
    repos.strategies.list({ environment, ...(only ? { featureNames: names } : {}) }),
    repos.dependencies.list(only ? names : undefined),
    Promise.all(projects.map(async (p) => [p.id, await repos.environments.listForProject(p.id)] as const)),
  ]);
  const usesEnv = new Set(
    links.filter(([, l]) => l.some((x) => x.environment === environment)).map(([id]) => id),
  );
  const rowOf = new Map(rows.filter((r) => r.environment === environment).map((r) => [r.featureName, r]));
  const strategiesOf = new Map<string, ClientStrategy[]>();
  for (const s of strategies) {
    if (s.disabled && !options.includeDisabledStrategies) continue;
    const list = strategiesOf.get(s.featureName);
    if (list) list.push(toClientStrategy(s));
    else strategiesOf.set(s.featureName, [toClientStrategy(s)]);
  }
  const depsOf = new Map<string, ClientFeature['dependencies'] & object>();
  for (const d of dependencies) {
    const list = depsOf.get(d.child) ?? [];
    list.push({
      feature: d.feature,
      enabled: d.enabled,
      ...(d.variants.length ? { variants: d.variants } : {}),
    });
    depsOf.set(d.child, list);
  }
  return features.map((f) => {
    const row = rowOf.get(f.name);
    const inEnv = usesEnv.has(f.project) && row !== undefined;
    const deps = depsOf.get(f.name);
    return {
      name: f.name,
      enabled: inEnv && row.enabled,
      project: f.project,
      type: f.type,
      description: f.description,
      stale: f.stale,
      impressionData: f.impressionData,
      strategies: inEnv ? (strategiesOf.get(f.name) ?? []) : [],
      variants: inEnv ? row.variants : [],
      ...(deps ? { dependencies: deps } : {}),
    };
  });
}
