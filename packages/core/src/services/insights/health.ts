import { FEATURE_TYPE_LIFETIME_DAYS } from '../../domain/insights.js';

export const DAY_MS = 24 * 60 * 60 * 1000;

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
export function isPotentiallyStale(feature: StalenessInput, at: number): boolean {
  if (feature.stale) return false;
  const lifetime = FEATURE_TYPE_LIFETIME_DAYS[feature.type];
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
export function countStaleness(features: readonly StalenessInput[], at: number): StalenessCounts {
  let stale = 0;
  let potentiallyStale = 0;
  for (const f of features) {
    if (f.stale) stale++;
    else if (isPotentiallyStale(f, at)) potentiallyStale++;
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
