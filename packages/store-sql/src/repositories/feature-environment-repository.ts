import type { FeatureEnvironmentRecord, FeatureEnvironmentRepository, Variant } from '@flagstaff/core';
import type { Selectable } from 'kysely';
import { bool, chunks, parseOf, type RepoContext, touched } from '../context.js';
import type { FeatureEnvironmentTable } from '../database.js';
import { type Binder, type Prepared, prepared } from '../prepared.js';

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

/** Most rows one multi-row upsert takes; more go in batches of this size. */
const UPSERT_BATCH = 8;
/** The values of the i-th row of a multi-row upsert, named `featureName0`, `environment0`, …. */
interface RowSlots {
  [featureName: `featureName${number}`]: string;
  [environment: `environment${number}`]: string;
  [enabled: `enabled${number}`]: boolean;
  [variants: `variants${number}`]: unknown;
  [lastSeenAt: `lastSeenAt${number}`]: string | null;
}
/** One prepared upsert per row count (a feature has a row per environment of its project). */
const upsertRowsOf = new Map<number, Prepared<RowSlots, unknown>>();
function upsertRows(count: number): Prepared<RowSlots, unknown> {
  let query = upsertRowsOf.get(count);
  if (!query) {
    query = prepared((db, p: Binder<RowSlots>) =>
      db
        .insertInto('feature_environments')
        .values(
          Array.from({ length: count }, (_, i) => ({
            feature_name: p.value(`featureName${i}`),
            environment: p.value(`environment${i}`),
            enabled: p.value(`enabled${i}`),
            variants: p.json(`variants${i}`),
            last_seen_at: p.value(`lastSeenAt${i}`),
          })),
        )
        .onConflict((oc) =>
          oc.columns(['feature_name', 'environment']).doUpdateSet((eb) => ({
            enabled: eb.ref('excluded.enabled'),
            variants: eb.ref('excluded.variants'),
            last_seen_at: eb.ref('excluded.last_seen_at'),
          })),
        ),
    );
    upsertRowsOf.set(count, query);
  }
  return query;
}

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
      const out: FeatureEnvironmentRecord[] = [];
      for (const names of chunks([...new Set(featureNames)])) {
        const rows = await db
          .selectFrom('feature_environments')
          .selectAll()
          .where('feature_name', 'in', names)
          .execute();
        out.push(...rows.map(toRow));
      }
      return out;
    },
    async upsert(row) {
      await upsertRow.run(ctx, row);
    },
    async upsertMany(rows) {
      for (let start = 0; start < rows.length; start += UPSERT_BATCH) {
        const batch = rows.slice(start, start + UPSERT_BATCH);
        const slots: RowSlots = {};
        for (const [i, row] of batch.entries()) {
          slots[`featureName${i}`] = row.featureName;
          slots[`environment${i}`] = row.environment;
          slots[`enabled${i}`] = row.enabled;
          slots[`variants${i}`] = row.variants;
          slots[`lastSeenAt${i}`] = row.lastSeenAt;
        }
        await upsertRows(batch.length).run(ctx, slots);
      }
    },
    async delete(featureName, environment) {
      const result = await db
        .deleteFrom('feature_environments')
        .where('feature_name', '=', featureName)
        .where('environment', '=', environment)
        .executeTakeFirst();
      return touched(result);
    },
    async markSeen(pairs, at) {
      for (const { featureName, environment } of pairs) {
        await db
          .updateTable('feature_environments')
          .set({ last_seen_at: at })
          .where('feature_name', '=', featureName)
          .where('environment', '=', environment)
          .execute();
      }
    },
  };
}
