import { type FeatureRecord, stageAfterUse } from '../../domain/feature.js';
import type { UnknownFlag } from '../../domain/metrics.js';
import type { Repositories } from '../../ports/repositories.js';
import { bucketsOf, type PendingMetrics } from './metrics-aggregator.js';

/** How long an unknown flag is remembered after it was last reported. */
export const UNKNOWN_FLAG_RETENTION_MS = 7 * 24 * 3_600_000;

/**
 * Writes one batch in the caller's transaction: the buckets of known features, lastSeenAt of their
 * feature environments, the unknown flags (whose counts are dropped, as the reference does: they
 * would only fill the table with typos) and the registrations.
 */
/**
 * Lifecycle stages advance from SDK metrics too: a feature first reported outside production
 * becomes pre-live, in production live (as turning it on there would).
 */
async function advanceLifecycles(
  tx: Repositories,
  records: readonly FeatureRecord[],
  counted: readonly {
    featureName: string;
    environment: string;
    yes: number;
    no: number;
    lastSeenAt: string;
  }[],
): Promise<void> {
  const early = records.filter(
    (f) => !f.archivedAt && (f.lifecycle.stage === 'initial' || f.lifecycle.stage === 'pre-live'),
  );
  if (early.length === 0) return;
  const types = new Map((await tx.environments.list()).map((e) => [e.name, e.type]));
  for (const feature of early) {
    let lifecycle = feature.lifecycle;
    for (const b of counted)
      if (b.featureName === feature.name && b.yes + b.no > 0)
        lifecycle = stageAfterUse(lifecycle, types.get(b.environment) ?? 'development', b.lastSeenAt);
    if (lifecycle !== feature.lifecycle) await tx.features.update({ ...feature, lifecycle });
  }
}

export async function writeBatch(tx: Repositories, batch: PendingMetrics): Promise<void> {
  const buckets = [...bucketsOf(batch)];
  const names = [...new Set(buckets.map((b) => b.featureName))];
  const records = names.length === 0 ? [] : await tx.features.list({ names });
  const known = new Set(records.map((feature) => feature.name));
  const counted = buckets.filter((b) => known.has(b.featureName));
  if (counted.length > 0)
    await tx.metrics.addBuckets(counted.map(({ lastSeenAt: _at, ...bucket }) => bucket));

  // The latest report of each feature environment (a pair has a bucket per app and hour), then the
  // pairs grouped by that time: markSeen stamps one time per call.
  const latest = new Map<string, { featureName: string; environment: string; at: string }>();
  for (const b of counted) {
    if (b.yes + b.no === 0) continue;
    const key = `${b.featureName}\u0000${b.environment}`;
    const prior = latest.get(key);
    if (!prior || prior.at < b.lastSeenAt)
      latest.set(key, { featureName: b.featureName, environment: b.environment, at: b.lastSeenAt });
  }
  const byTime = new Map<string, { featureName: string; environment: string }[]>();
  for (const { featureName, environment, at } of latest.values()) {
    const pairs = byTime.get(at) ?? [];
    pairs.push({ featureName, environment });
    byTime.set(at, pairs);
  }
  for (const [at, pairs] of byTime) await tx.featureEnvironments.markSeen(pairs, at);
  await advanceLifecycles(tx, records, counted);

  const unknown = new Map<string, UnknownFlag>();
  for (const b of buckets) {
    if (known.has(b.featureName)) continue;
    const key = `${b.featureName}\u0000${b.appName}\u0000${b.environment}`;
    const prior = unknown.get(key);
    if (!prior || prior.lastSeenAt < b.lastSeenAt)
      unknown.set(key, {
        name: b.featureName,
        appName: b.appName,
        environment: b.environment,
        lastSeenAt: b.lastSeenAt,
      });
  }
  if (unknown.size > 0) await tx.metrics.upsertUnknownFlags([...unknown.values()]);

  for (const app of batch.applications.values()) await tx.metrics.upsertApplication(app);
}
