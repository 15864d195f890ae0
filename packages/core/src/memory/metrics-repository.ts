import type { MetricsBucket, UnknownFlag } from '../domain/metrics.js';
import type { MetricsRepository } from '../ports/integration-ports.js';
import { copy } from './copy.js';
import type { Session } from './database.js';
import { by, compare, compareTime, keyOf, type Sync, sorted } from './support.js';

const bucketKey = (bucket: MetricsBucket): string =>
  keyOf(bucket.featureName, bucket.appName, bucket.environment, bucket.timestamp);

const unknownKey = (flag: UnknownFlag): string => keyOf(flag.name, flag.appName, flag.environment);

const newestSeenFirst = by<UnknownFlag>(
  (a, b) => compareTime(b.lastSeenAt, a.lastSeenAt),
  (a, b) => compare(a.name, b.name),
  (a, b) => compare(a.appName, b.appName),
  (a, b) => compare(a.environment, b.environment),
);

/** Client metrics, applications and unknown flags over a session. */
export function createMetricsRepository(s: Session): Sync<MetricsRepository> {
  const buckets = s.table('metricsBuckets');
  const applications = s.table('applications');
  const unknown = s.table('unknownFlags');
  return {
    addBuckets(added) {
      for (const bucket of added) {
        const key = bucketKey(bucket);
        const existing = buckets.get(key);
        if (!existing) {
          buckets.set(key, copy(bucket));
          continue;
        }
        const variants = { ...existing.variants };
        for (const [name, count] of Object.entries(bucket.variants))
          variants[name] = (variants[name] ?? 0) + count;
        buckets.set(key, {
          ...existing,
          yes: existing.yes + bucket.yes,
          no: existing.no + bucket.no,
          variants,
        });
      }
    },
    listBuckets(since) {
      const from = Date.parse(since);
      return sorted(
        buckets.rows().filter((bucket) => Date.parse(bucket.timestamp) >= from),
        by(
          (a, b) => compareTime(a.timestamp, b.timestamp),
          (a, b) => compare(a.featureName, b.featureName),
          (a, b) => compare(a.appName, b.appName),
          (a, b) => compare(a.environment, b.environment),
        ),
      ).map(copy);
    },
    upsertApplication(app) {
      applications.set(keyOf(app.appName, app.instanceId), copy(app));
    },
    deleteApplication: (appName) => applications.deleteWhere((a) => a.appName === appName),
    listApplications: () =>
      sorted(
        applications.rows(),
        by(
          (a, b) => compare(a.appName, b.appName),
          (a, b) => compare(a.instanceId, b.instanceId),
        ),
      ).map(copy),
    upsertUnknownFlags(flags) {
      for (const flag of flags) unknown.set(unknownKey(flag), copy(flag));
    },
    listUnknownFlags: (limit) => sorted(unknown.rows(), newestSeenFirst).slice(0, limit).map(copy),
    deleteUnknownFlagsSeenBefore(before) {
      const cutoff = Date.parse(before);
      return unknown.deleteWhere((flag) => Date.parse(flag.lastSeenAt) < cutoff);
    },
  };
}
