import type { FeatureRecord } from '../../domain/feature.js';
import type { DoraMetrics } from '../../domain/insights.js';
import type { ReadRepositories } from '../../ports/store.js';
import { DAY_MS } from './health.js';

/** When a feature first reached production, and how many whole days that took. */
export interface ProductionArrival {
  name: string;
  /** Epoch ms of the first feature-environment-enabled event in a production-type environment. */
  enabledAt: number;
  /** Whole days from creation to that event (truncated, like the reference's differenceInDays). */
  days: number;
}

/**
 * First arrival in production of each release feature, from the event log: one read of the
 * enable events (of the project, when given) plus the environment list, whatever the feature count.
 * Events are filtered by the project they were written in, so a feature moved in from another
 * project counts from its first enable after the move.
 */
export async function productionArrivals(
  repos: ReadRepositories,
  features: readonly FeatureRecord[],
  project?: string,
): Promise<Map<string, ProductionArrival>> {
  const releases = new Map(
    features.filter((f) => f.type === 'release').map((f) => [f.name, Date.parse(f.createdAt)]),
  );
  const arrivals = new Map<string, ProductionArrival>();
  if (releases.size === 0) return arrivals;
  const [environments, enables] = await Promise.all([
    repos.environments.list(),
    repos.events.search({ type: 'feature-environment-enabled', project, ascending: true }),
  ]);
  const production = new Set(environments.filter((e) => e.type === 'production').map((e) => e.name));
  for (const event of enables) {
    const name = event.featureName;
    if (name == null || event.environment == null || !production.has(event.environment) || arrivals.has(name))
      continue;
    const createdAt = releases.get(name);
    const enabledAt = Date.parse(event.createdAt);
    // An enable older than the feature belongs to an earlier feature of the same name.
    if (createdAt === undefined || enabledAt < createdAt) continue;
    arrivals.set(name, { name, enabledAt, days: Math.floor((enabledAt - createdAt) / DAY_MS) });
  }
  return arrivals;
}

/** Average days to production, to one decimal; 0 when no feature has reached production. */
export function averageDays(arrivals: Iterable<ProductionArrival>): number {
  let sum = 0;
  let count = 0;
  for (const a of arrivals) {
    sum += a.days;
    count++;
  }
  return count === 0 ? 0 : Math.round((sum / count) * 10) / 10;
}

/** DORA lead time of a project's release features (features ordered as given). */
export async function doraMetrics(
  repos: ReadRepositories,
  project: string,
  features: readonly FeatureRecord[],
): Promise<DoraMetrics> {
  const arrivals = await productionArrivals(repos, features, project);
  const list = features.flatMap((f) => {
    const a = arrivals.get(f.name);
    return a ? [{ name: f.name, timeToProduction: a.days }] : [];
  });
  return { projectAverage: averageDays(arrivals.values()), features: list };
}
