import type { FeatureEnvironmentRecord, FeatureEnvironmentRepository, Variant } from '@flagstaff/core';
import { type Selectable, type SqlBool, sql } from 'kysely';
import { bool, inList, parseOf, type RepoContext, touched } from '../context.js';
import type { FeatureEnvironmentTable } from '../database.js';
import { type Binder, prepared } from '../prepared.js';

const getRow = prepared((db, p: Binder<{ featureName: string; environment: string }>) =>
  db
    .selectFrom('feature_environments')
    .selectAll()
    .where('feature_name', '=', p.value('featureName'))
    .where('environment', '=', p.value('environment')),
);
const upsertRow = prepared((db, p: Binder<FeatureEnvironmentRecord>) => {
  const values = {
    enabled: p.value('enabled'),
    variants: p.json('variants'),
    last_seen_at: p.value('lastSeenAt'),
  };
  return db
    .insertInto('feature_environments')
    .values({ feature_name: p.value('featureName'), environment: p.value('environment'), ...values })
    .onConflict((oc) => oc.columns(['feature_name', 'environment']).doUpdateSet(values));
});

/**
 * Brings `features.last_seen_at` (what the feature search orders and filters by) to the latest
 * last_seen_at of the feature's environments: after any write that may change it.
 */
const refreshLastSeen = prepared((db, p: Binder<{ featureName: string }>) =>
  db
    .updateTable('features')
    .set((eb) => ({
      last_seen_at: eb
        .selectFrom('feature_environments')
        .select((s) => s.fn.max('feature_environments.last_seen_at').as('latest'))
        .where('feature_environments.feature_name', '=', p.value('featureName')),
    }))
    .where('name', '=', p.value('featureName')),
);

/** Per-environment state of features. */
export function createFeatureEnvironmentRepository(ctx: RepoContext): FeatureEnvironmentRepository {
  const { db } = ctx;
  const parse = parseOf(ctx);
  const toRow = (row: Selectable<FeatureEnvironmentTable>): FeatureEnvironmentRecord => ({
    featureName: row.feature_name,
    environment: row.environment,
    enabled: bool(row.enabled),
    variants: parse<Variant[]>(row.variants),
    lastSeenAt: row.last_seen_at,
  });
  return {
    async get(featureName, environment) {
      const row = (await getRow.run(ctx, { featureName, environment })).rows[0];
      return row ? toRow(row) : null;
    },
    async listForFeature(featureName) {
      const rows = await db
        .selectFrom('feature_environments')
        .selectAll()
        .where('feature_name', '=', featureName)
        .orderBy('environment')
        .execute();
      return rows.map(toRow);
    },
    async listForFeatures(featureNames) {
      if (featureNames.length === 0) return [];
      const rows = await db
        .selectFrom('feature_environments')
        .selectAll()
        .where(inList(ctx, 'feature_name', [...new Set(featureNames)]))
        .execute();
      return rows.map(toRow);
    },
    async upsert(row) {
      await upsertRow.run(ctx, row);
      await refreshLastSeen.run(ctx, { featureName: row.featureName });
    },
    async delete(featureName, environment) {
      const result = await db
        .deleteFrom('feature_environments')
        .where('feature_name', '=', featureName)
        .where('environment', '=', environment)
        .executeTakeFirst();
      if (touched(result)) await refreshLastSeen.run(ctx, { featureName });
      return touched(result);
    },
    async countEnabled(project) {
      const rows = await db
        .selectFrom('feature_environments as fe')
        .innerJoin('features as f', 'f.name', 'fe.feature_name')
        .select(['fe.environment', (eb) => eb.fn.countAll().as('count')])
        .where('f.project', '=', project)
        .where('f.archived_at', 'is', null)
        .where(sql<SqlBool>`fe.enabled`)
        .groupBy('fe.environment')
        .execute();
      return Object.fromEntries(rows.map((r) => [r.environment, Number(r.count)]));
    },
    async markSeen(pairs, at) {
      for (const { featureName, environment } of pairs) {
        await db
          .updateTable('feature_environments')
          .set({ last_seen_at: at })
          .where('feature_name', '=', featureName)
          .where('environment', '=', environment)
          .execute();
        await refreshLastSeen.run(ctx, { featureName });
      }
    },
  };
}
