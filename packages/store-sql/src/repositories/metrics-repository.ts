import type { ClientApplication, MetricsBucket, MetricsRepository } from '@flagstaff/core';
import { int, jsonOf, parseOf, type RepoContext } from '../context.js';

const keyOf = (b: {
  feature_name: string;
  app_name: string;
  environment: string;
  timestamp: string;
}): string => [b.feature_name, b.app_name, b.environment, b.timestamp].join('\u0000');

/** Client metrics (hourly buckets that add up) and registered applications. */
export function createMetricsRepository(ctx: RepoContext): MetricsRepository {
  const { db } = ctx;
  const json = jsonOf(ctx);
  const parse = parseOf(ctx);
  return {
    async addBuckets(buckets) {
      // Additions happen in SQL (`row + excluded`), so concurrent writers never lose counts.
      for (const bucket of buckets) {
        const key = {
          feature_name: bucket.featureName,
          app_name: bucket.appName,
          environment: bucket.environment,
          timestamp: bucket.timestamp,
        };
        const ms = Date.parse(bucket.timestamp);
        await db
          .insertInto('client_metrics')
          .values({ ...key, time: Number.isNaN(ms) ? null : ms, yes: bucket.yes, no: bucket.no })
          .onConflict((oc) =>
            oc.columns(['feature_name', 'app_name', 'environment', 'timestamp']).doUpdateSet((eb) => ({
              yes: eb('client_metrics.yes', '+', eb.ref('excluded.yes')),
              no: eb('client_metrics.no', '+', eb.ref('excluded.no')),
            })),
          )
          .execute();
        for (const [variant, count] of Object.entries(bucket.variants)) {
          await db
            .insertInto('client_metrics_variants')
            .values({ ...key, variant, count })
            .onConflict((oc) =>
              oc
                .columns(['feature_name', 'app_name', 'environment', 'timestamp', 'variant'])
                .doUpdateSet((eb) => ({
                  count: eb('client_metrics_variants.count', '+', eb.ref('excluded.count')),
                })),
            )
            .execute();
        }
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
  };
}
