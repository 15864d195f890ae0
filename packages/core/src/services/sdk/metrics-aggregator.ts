import type { ClientApplication, MetricsBucket } from '../../domain/metrics.js';

/** A bucket being added up in memory, with when it was last reported (for lastSeenAt). */
export interface PendingBucket extends MetricsBucket {
  lastSeenAt: string;
}

/** Everything reported since the last flush. */
export interface PendingMetrics {
  /**
   * By app, environment and hour, then by feature: one SDK report is one group, so adding its
   * features looks each name up as it came, without building a key string per feature.
   */
  readonly groups: Map<string, Map<string, PendingBucket>>;
  /** Latest registration by app and instance (a later one replaces an earlier one). */
  readonly applications: Map<string, ClientApplication>;
}

const emptyBatch = (): PendingMetrics => ({ groups: new Map(), applications: new Map() });

// NUL cannot occur in names, so the parts never run into each other.
const groupKey = (appName: string, environment: string, timestamp: string): string =>
  `${appName}\u0000${environment}\u0000${timestamp}`;

/** Every pending bucket of a batch. */
export function* bucketsOf(batch: PendingMetrics): Generator<PendingBucket> {
  for (const group of batch.groups.values()) yield* group.values();
}

function addVariants(into: Record<string, number>, from: Readonly<Record<string, number>>): void {
  for (const name in from) into[name] = (into[name] ?? 0) + (from[name] ?? 0);
}

/**
 * Adds SDK metrics up in memory per (feature, app, environment, hour) so that thousands of requests
 * become one small write per flush: the store sees one row per key, not one per request.
 */
export function createMetricsAggregator() {
  let pending = emptyBatch();
  let buckets = 0;

  /** The buckets of one (app, environment, hour), made on first use. */
  function groupOf(appName: string, environment: string, timestamp: string): Map<string, PendingBucket> {
    const key = groupKey(appName, environment, timestamp);
    let group = pending.groups.get(key);
    if (group === undefined) {
      group = new Map();
      pending.groups.set(key, group);
    }
    return group;
  }

  function addTo(group: Map<string, PendingBucket>, bucket: PendingBucket): void {
    const seen = group.get(bucket.featureName);
    if (!seen) {
      group.set(bucket.featureName, { ...bucket, variants: { ...bucket.variants } });
      buckets++;
      return;
    }
    seen.yes += bucket.yes;
    seen.no += bucket.no;
    addVariants(seen.variants, bucket.variants);
    if (bucket.lastSeenAt > seen.lastSeenAt) seen.lastSeenAt = bucket.lastSeenAt;
  }

  function add(bucket: PendingBucket): void {
    addTo(groupOf(bucket.appName, bucket.environment, bucket.timestamp), bucket);
  }

  function register(app: ClientApplication): void {
    const key = `${app.appName}\u0000${app.instanceId}`;
    const known = pending.applications.get(key);
    if (!known || app.lastSeen >= known.lastSeen) pending.applications.set(key, app);
  }

  return {
    add,
    /** Adds the features of one report, which share an app, environment and hour. */
    addReport(
      appName: string,
      environment: string,
      timestamp: string,
      reported: Iterable<PendingBucket>,
    ): void {
      const group = groupOf(appName, environment, timestamp);
      for (const bucket of reported) addTo(group, bucket);
    },
    register,
    /** Distinct keys waiting: what the memory held until the next flush grows with. */
    get size(): number {
      return buckets + pending.applications.size;
    },
    /** Hands over everything pending and starts afresh. */
    take(): PendingMetrics {
      const batch = pending;
      pending = emptyBatch();
      buckets = 0;
      return batch;
    },
    /** Puts a batch whose write failed back, added to what arrived meanwhile, for the next flush. */
    restore(batch: PendingMetrics): void {
      for (const bucket of bucketsOf(batch)) add(bucket);
      for (const app of batch.applications.values()) register(app);
    },
  };
}

export type MetricsAggregator = ReturnType<typeof createMetricsAggregator>;
