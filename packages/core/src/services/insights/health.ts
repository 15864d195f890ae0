import { FEATURE_TYPE_LIFETIME_DAYS } from '../../domain/insights.js';

export const DAY_MS = 24 * 60 * 60 * 1000;

/** Expected lifetime in days per feature type (null: never potentially stale). */
export type Lifetimes = Readonly<Record<string, number | null>>;

/** The setting holding lifetimes changed through `PUT /api/admin/feature-types/:id/lifetime`. */
export const LIFETIMES_SETTING = 'feature-types.lifetimes';

/** The lifetimes in force: the defaults, with what was changed through the API over them. */
export async function featureTypeLifetimes(settings: {
  get(name: string): Promise<unknown>;
}): Promise<Lifetimes> {
  const stored = await settings.get(LIFETIMES_SETTING);
  return {
    ...FEATURE_TYPE_LIFETIME_DAYS,
    ...(stored && typeof stored === 'object' ? (stored as Lifetimes) : {}),
  };
}

/** What staleness needs of a feature. */
export interface StalenessInput {
  type: string;
  createdAt: string;
  stale: boolean;
}

/**
 * Whether a feature is potentially stale at `at` (epoch ms): not marked stale and older than its
 * type's expected lifetime. Types without a lifetime (kill-switch, permission, unknown) never are.
 */
export function isPotentiallyStale(
  feature: StalenessInput,
  at: number,
  lifetimes: Lifetimes = FEATURE_TYPE_LIFETIME_DAYS,
): boolean {
  if (feature.stale) return false;
  const lifetime = lifetimes[feature.type];
  if (lifetime == null) return false;
  return at - Date.parse(feature.createdAt) > lifetime * DAY_MS;
}

export interface StalenessCounts {
  total: number;
  stale: number;
  potentiallyStale: number;
  /** Neither stale nor potentially stale. */
  active: number;
}

/** Counts stale and potentially stale features among live ones at `at`. */
export function countStaleness(
  features: readonly StalenessInput[],
  at: number,
  lifetimes: Lifetimes = FEATURE_TYPE_LIFETIME_DAYS,
): StalenessCounts {
  let stale = 0;
  let potentiallyStale = 0;
  for (const f of features) {
    if (f.stale) stale++;
    else if (isPotentiallyStale(f, at, lifetimes)) potentiallyStale++;
  }
  return {
    total: features.length,
    stale,
    potentiallyStale,
    active: features.length - stale - potentiallyStale,
  };
}

/**
 * Health on the reference's scale: round(100 − %stale − %potentially stale) over live features;
 * a project without features is fully healthy.
 */
export function healthScore(counts: StalenessCounts): number {
  if (counts.total === 0) return 100;
  return Math.round(
    100 - (counts.stale * 100) / counts.total - (counts.potentiallyStale * 100) / counts.total,
  );
}
