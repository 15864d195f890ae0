import type { ClientApplication, MetricsBucket } from '../../domain/metrics.js';

/** A bucket being added up in memory, with when it was last reported (for lastSeenAt). */
export interface PendingBucket extends MetricsBucket {
  lastSeenAt: string;
}

/** Everything reported since the last flush. */
export interface PendingMetrics {
  /** By feature, app, environment and hour. */
  readonly buckets: Map<string, PendingBucket>;
  /** Latest registration by app and instance (a later one replaces an earlier one). */
  readonly applications: Map<string, ClientApplication>;
}

const emptyBatch = (): PendingMetrics => ({ buckets: new Map(), applications: new Map() });

// NUL cannot occur in names, so the parts never run into each other.
const bucketKey = (featureName: string, appName: string, environment: string, timestamp: string): string =>
  `${featureName}\u0000${appName}\u0000${environment}\u0000${timestamp}`;

function addVariants(into: Record<string, number>, from: Readonly<Record<string, number>>): void {
  for (const name in from) into[name] = (into[name] ?? 0) + (from[name] ?? 0);
}

/**
 * Adds SDK metrics up in memory per (feature, app, environment, hour) so that thousands of requests
 * become one small write per flush: the store sees one row per key, not one per request.
 */
export function createMetricsAggregator() {
  let pending = emptyBatch();

  function add(bucket: PendingBucket): void {
    const key = bucketKey(bucket.featureName, bucket.appName, bucket.environment, bucket.timestamp);
    const seen = pending.buckets.get(key);
    if (!seen) {
      pending.buckets.set(key, { ...bucket, variants: { ...bucket.variants } });
      return;
    }
    seen.yes += bucket.yes;
    seen.no += bucket.no;
    addVariants(seen.variants, bucket.variants);
    if (bucket.lastSeenAt > seen.lastSeenAt) seen.lastSeenAt = bucket.lastSeenAt;
  }

  function register(app: ClientApplication): void {
    const key = `${app.appName}\u0000${app.instanceId}`;
    const known = pending.applications.get(key);
    if (!known || app.lastSeen >= known.lastSeen) pending.applications.set(key, app);
  }

  return {
    add,
    register,
    /** Distinct keys waiting: what the memory held until the next flush grows with. */
    get size(): number {
      return pending.buckets.size + pending.applications.size;
    },
    /** Hands over everything pending and starts afresh. */
    take(): PendingMetrics {
      const batch = pending;
      pending = emptyBatch();
      return batch;
    },
    /** Puts a batch whose write failed back, added to what arrived meanwhile, for the next flush. */
    restore(batch: PendingMetrics): void {
      for (const bucket of batch.buckets.values()) add(bucket);
      for (const app of batch.applications.values()) register(app);
    },
  };
}

export type MetricsAggregator = ReturnType<typeof createMetricsAggregator>;
