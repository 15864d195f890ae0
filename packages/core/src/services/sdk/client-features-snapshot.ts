import type { FeatureRecord } from '../../domain/feature.js';
import type { FeatureStrategy } from '../../domain/strategy.js';
import type { ClientFeature, ClientFeatures, ClientStrategy } from '../../evaluation/client-features.js';
import type { ReadRepositories } from '../../ports/store.js';

/**
 * Disabled strategies are always kept: the playground reports them, and the SDK form
 * (`withoutDisabledStrategies`) needs them to send a feature whose strategies are all disabled as
 * off. Dropping them here would send it as an enabled feature with no strategy, on for everyone.
 */
export interface SnapshotOptions {
  /** Features per round of queries in a full load (default 5,000). */
  featuresPerRead?: number;
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

/**
 * Features read per round of queries in a full load: the rows, strategies and links of 50,000
 * features at once would all be alive together (a few hundred MB at peak) for a payload that keeps
 * a fraction of that.
 */
const FEATURES_PER_READ = 5000;

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
  if (only && features.length === 0) return [];
  const links = await Promise.all(
    projects.map(async (p) => [p.id, await repos.environments.listForProject(p.id)] as const),
  );
  const usesEnv = new Set(
    links.filter(([, l]) => l.some((x) => x.environment === environment)).map(([id]) => id),
  );
  const perRead = Math.max(1, options.featuresPerRead ?? FEATURES_PER_READ);
  // A full load of a small instance reads every row at once, unfiltered.
  if (!only && features.length <= perRead)
    return clientFeaturesOf(repos, environment, features, undefined, usesEnv);
  const out: ClientFeature[] = [];
  for (let at = 0; at < features.length; at += perRead) {
    const part = features.slice(at, at + perRead);
    const names = part.map((f) => f.name);
    for (const feature of await clientFeaturesOf(repos, environment, part, names, usesEnv)) out.push(feature);
  }
  return out;
}

/** `features` as SDKs see them; `names` (theirs) filters the reads, undefined reads every row. */
async function clientFeaturesOf(
  repos: ReadRepositories,
  environment: string,
  features: readonly FeatureRecord[],
  names: readonly string[] | undefined,
  usesEnv: ReadonlySet<string>,
): Promise<ClientFeature[]> {
  const [rows, strategies, dependencies] = await Promise.all([
    repos.featureEnvironments.listForFeatures(names ?? features.map((f) => f.name)),
    repos.strategies.list({ environment, ...(names ? { featureNames: names } : {}) }),
    repos.dependencies.list(names),
  ]);
  const rowOf = new Map(rows.filter((r) => r.environment === environment).map((r) => [r.featureName, r]));
  const strategiesOf = new Map<string, ClientStrategy[]>();
  for (const s of strategies) {
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
