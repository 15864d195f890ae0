import type { ClientApplication, MetricsBucket, MetricsRepository, UnknownFlag } from '@flagstaff/core';
import { int, jsonOf, parseOf, type RepoContext } from '../context.js';

const keyOf = (b: {
  feature_name: string;
  app_name: string;
  environment: string;
  timestamp: string;
}): string => [b.feature_name, b.app_name, b.environment, b.timestamp].join('\u0000');

const rowKey = (b: MetricsBucket) => ({
  feature_name: b.featureName,
  app_name: b.appName,
  environment: b.environment,
  timestamp: b.timestamp,
});

// Rows per statement: 500 × 7 parameters stays far below every driver's parameter limit.
const CHUNK = 500;

function chunks<T>(rows: readonly T[], size: number): T[][] {
  const parts: T[][] = [];
  for (let i = 0; i < rows.length; i += size) parts.push(rows.slice(i, i + size));
  return parts;
}

/** Adds up buckets of the same key, so each key appears once per statement. */
function mergeBuckets(buckets: readonly MetricsBucket[]): MetricsBucket[] {
  const byKey = new Map<string, MetricsBucket>();
  for (const b of buckets) {
    const key = keyOf(rowKey(b));
    const seen = byKey.get(key);
    if (!seen) {
      byKey.set(key, { ...b, variants: { ...b.variants } });
      continue;
    }
    seen.yes += b.yes;
    seen.no += b.no;
    for (const [name, count] of Object.entries(b.variants))
      seen.variants[name] = (seen.variants[name] ?? 0) + count;
  }
  return [...byKey.values()];
}

/** Client metrics (hourly buckets that add up), registered applications and unknown flags. */
export function createMetricsRepository(ctx: RepoContext): MetricsRepository {
  const { db } = ctx;
  const json = jsonOf(ctx);
  const parse = parseOf(ctx);
  return {
    async addBuckets(buckets) {
      // One multi-row upsert per chunk; the additions happen in SQL (`row + excluded`), so
      // concurrent writers never lose counts. PostgreSQL refuses to update one row twice in a
      // statement, hence the merge of repeated keys first.
      const merged = mergeBuckets(buckets);
      for (const part of chunks(merged, CHUNK)) {
        await db
          .insertInto('client_metrics')
          .values(
            part.map((b) => {
              const ms = Date.parse(b.timestamp);
              return { ...rowKey(b), time: Number.isNaN(ms) ? null : ms, yes: b.yes, no: b.no };
            }),
          )
          .onConflict((oc) =>
            oc.columns(['feature_name', 'app_name', 'environment', 'timestamp']).doUpdateSet((eb) => ({
              yes: eb('client_metrics.yes', '+', eb.ref('excluded.yes')),
              no: eb('client_metrics.no', '+', eb.ref('excluded.no')),
            })),
          )
          .execute();
      }
      const variants = merged.flatMap((b) =>
        Object.entries(b.variants).map(([variant, count]) => ({ ...rowKey(b), variant, count })),
      );
      for (const part of chunks(variants, CHUNK)) {
        await db
          .insertInto('client_metrics_variants')
          .values(part)
          .onConflict((oc) =>
            oc
              .columns(['feature_name', 'app_name', 'environment', 'timestamp', 'variant'])
              .doUpdateSet((eb) => ({
                count: eb('client_metrics_variants.count', '+', eb.ref('excluded.count')),
              })),
          )
          .execute();
      }
    },
    async listBuckets(since) {
      const from = Date.parse(since);
      if (Number.isNaN(from)) return [];
      const rows = await db
        .selectFrom('client_metrics')
        .selectAll()
        .where('time', '>=', from)
        .orderBy('time')
        .orderBy('timestamp')
        .orderBy('feature_name')
        .orderBy('app_name')
        .orderBy('environment')
        .execute();
      if (rows.length === 0) return [];
      const variants = await db
        .selectFrom('client_metrics_variants as v')
        .innerJoin('client_metrics as m', (join) =>
          join
            .onRef('m.feature_name', '=', 'v.feature_name')
            .onRef('m.app_name', '=', 'v.app_name')
            .onRef('m.environment', '=', 'v.environment')
            .onRef('m.timestamp', '=', 'v.timestamp'),
        )
        .select(['v.feature_name', 'v.app_name', 'v.environment', 'v.timestamp', 'v.variant', 'v.count'])
        .where('m.time', '>=', from)
        .orderBy('v.variant')
        .execute();
      const variantsOf = new Map<string, Record<string, number>>();
      for (const v of variants) {
        const counts = variantsOf.get(keyOf(v)) ?? {};
        counts[v.variant] = int(v.count);
        variantsOf.set(keyOf(v), counts);
      }
      return rows.map(
        (row): MetricsBucket => ({
          featureName: row.feature_name,
          appName: row.app_name,
          environment: row.environment,
          timestamp: row.timestamp,
          yes: int(row.yes),
          no: int(row.no),
          variants: variantsOf.get(keyOf(row)) ?? {},
        }),
      );
    },
    async upsertApplication(app) {
      const values = {
        sdk_version: app.sdkVersion,
        environment: app.environment,
        strategies: json(app.strategies),
        last_seen: app.lastSeen,
      };
      await db
        .insertInto('client_applications')
        .values({ app_name: app.appName, instance_id: app.instanceId, ...values })
        .onConflict((oc) => oc.columns(['app_name', 'instance_id']).doUpdateSet(values))
        .execute();
    },
    async deleteApplication(appName) {
      const result = await db
        .deleteFrom('client_applications')
        .where('app_name', '=', appName)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
    async listApplications() {
      const rows = await db
        .selectFrom('client_applications')
        .selectAll()
        .orderBy('app_name')
        .orderBy('instance_id')
        .execute();
      return rows.map(
        (row): ClientApplication => ({
          appName: row.app_name,
          instanceId: row.instance_id,
          sdkVersion: row.sdk_version,
          environment: row.environment,
          strategies: parse<string[]>(row.strategies),
          lastSeen: row.last_seen,
        }),
      );
    },
    async upsertUnknownFlags(flags) {
      const byKey = new Map<string, UnknownFlag>();
      for (const f of flags) byKey.set([f.name, f.appName, f.environment].join('\u0000'), f);
      for (const part of chunks([...byKey.values()], CHUNK)) {
        await db
          .insertInto('unknown_flags')
          .values(
            part.map((f) => ({
              name: f.name,
              app_name: f.appName,
              environment: f.environment,
              last_seen_at: f.lastSeenAt,
              last_seen_time: Date.parse(f.lastSeenAt),
            })),
          )
          .onConflict((oc) =>
            oc.columns(['name', 'app_name', 'environment']).doUpdateSet((eb) => ({
              last_seen_at: eb.ref('excluded.last_seen_at'),
              last_seen_time: eb.ref('excluded.last_seen_time'),
            })),
          )
          .execute();
      }
    },
    async listUnknownFlags(limit) {
      const rows = await db
        .selectFrom('unknown_flags')
        .select(['name', 'app_name', 'environment', 'last_seen_at'])
        .orderBy('last_seen_time', 'desc')
        .orderBy('name')
        .orderBy('app_name')
        .orderBy('environment')
        .limit(limit)
        .execute();
      return rows.map(
        (row): UnknownFlag => ({
          name: row.name,
          appName: row.app_name,
          environment: row.environment,
          lastSeenAt: row.last_seen_at,
        }),
      );
    },
    async deleteUnknownFlagsSeenBefore(before) {
      const cutoff = Date.parse(before);
      if (Number.isNaN(cutoff)) return 0;
      const result = await db
        .deleteFrom('unknown_flags')
        .where('last_seen_time', '<', cutoff)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
