import type { FeatureRecord, FeatureRepository, LifecycleStage } from '@flagstaff/core';
import type { Selectable } from 'kysely';
import { bool, inList, insertedOr, int, type RepoContext, touched } from '../context.js';
import type { FeatureTable } from '../database.js';
import { type Binder, type Prepared, prepared, type RowValues } from '../prepared.js';

/** A feature row as the domain record. */
export const toFeature = (row: Selectable<FeatureTable>): FeatureRecord => ({
  name: row.name,
  project: row.project,
  type: row.type,
  description: row.description,
  stale: bool(row.stale),
  impressionData: bool(row.impression_data),
  createdAt: row.created_at,
  archivedAt: row.archived_at,
  createdByUserId: row.created_by_user_id,
  lifecycle: { stage: row.lifecycle_stage as LifecycleStage, enteredStageAt: row.entered_stage_at },
});

const columns = (f: FeatureRecord) => ({
  project: f.project,
  type: f.type,
  description: f.description,
  stale: f.stale,
  impression_data: f.impressionData,
  created_at: f.createdAt,
  archived_at: f.archivedAt,
  created_by_user_id: f.createdByUserId,
  lifecycle_stage: f.lifecycle.stage,
  entered_stage_at: f.lifecycle.enteredStageAt,
});

type FeatureColumns = RowValues<FeatureTable, 'name' | (typeof COLUMN_NAMES)[number]>;
const COLUMN_NAMES = [
  'project',
  'type',
  'description',
  'stale',
  'impression_data',
  'created_at',
  'archived_at',
  'created_by_user_id',
  'lifecycle_stage',
  'entered_stage_at',
] as const;

const getFeature = prepared((db, p: Binder<{ name: string }>) =>
  db.selectFrom('features').selectAll().where('name', '=', p.value('name')),
);
const insertFeature = prepared((db, p: Binder<FeatureColumns>) =>
  db
    .insertInto('features')
    .values(p.values(['name', ...COLUMN_NAMES]))
    .onConflict((oc) => oc.doNothing()),
);
/** Most environment rows one insert takes; more go in batches of this size. */
const ROWS_PER_INSERT = 8;
/** The values of a new feature's environment rows: its name, then `environment0`, `environment1`, …. */
interface SwitchedOffSlots {
  featureName: string;
  enabled: boolean;
  variants: unknown;
  [environment: `environment${number}`]: string;
}
/** One prepared insert per row count (a new feature has a row per environment of its project). */
const switchedOffRowsOf = new Map<number, Prepared<SwitchedOffSlots, unknown>>();
function switchedOffRows(count: number): Prepared<SwitchedOffSlots, unknown> {
  let query = switchedOffRowsOf.get(count);
  if (!query) {
    query = prepared((db, p: Binder<SwitchedOffSlots>) =>
      db
        .insertInto('feature_environments')
        .values(
          Array.from({ length: count }, (_, i) => ({
            feature_name: p.value('featureName'),
            environment: p.value(`environment${i}`),
            enabled: p.value('enabled'),
            variants: p.json('variants'),
            last_seen_at: null,
          })),
        )
        // Rows are deleted with their feature, so none should be there; if one is, it starts over.
        .onConflict((oc) =>
          oc.columns(['feature_name', 'environment']).doUpdateSet((eb) => ({
            enabled: eb.ref('excluded.enabled'),
            variants: eb.ref('excluded.variants'),
            last_seen_at: null,
          })),
        ),
    );
    switchedOffRowsOf.set(count, query);
  }
  return query;
}

const updateFeature = prepared((db, p: Binder<FeatureColumns>) =>
  db.updateTable('features').set(p.values(COLUMN_NAMES)).where('name', '=', p.value('name')),
);

/** Features, live and archived. */
export function createFeatureRepository(ctx: RepoContext): FeatureRepository {
  const { db } = ctx;
  return {
    async list(filter = {}) {
      if (filter.names?.length === 0) return [];
      let query = db.selectFrom('features').selectAll().orderBy('name');
      if (filter.project !== undefined) query = query.where('project', '=', filter.project);
      if (filter.archived !== undefined) {
        query = query.where('archived_at', filter.archived ? 'is not' : 'is', null);
      }
      if (filter.names !== undefined) query = query.where(inList(ctx, 'name', [...new Set(filter.names)]));
      if (filter.after !== undefined) query = query.where('name', '>', filter.after);
      if (filter.limit !== undefined) query = query.limit(filter.limit);
      return (await query.execute()).map(toFeature);
    },
    async get(name) {
      const row = (await getFeature.run(ctx, { name })).rows[0];
      return row ? toFeature(row) : null;
    },
    async insert(feature, environments = []) {
      insertedOr(
        await insertFeature.run(ctx, { name: feature.name, ...columns(feature) }),
        `A feature named "${feature.name}" already exists.`,
      );
      for (let start = 0; start < environments.length; start += ROWS_PER_INSERT) {
        const batch = environments.slice(start, start + ROWS_PER_INSERT);
        const slots: SwitchedOffSlots = { featureName: feature.name, enabled: false, variants: [] };
        for (const [i, environment] of batch.entries()) slots[`environment${i}`] = environment;
        await switchedOffRows(batch.length).run(ctx, slots);
      }
    },
    async update(feature) {
      const result = await updateFeature.run(ctx, { name: feature.name, ...columns(feature) });
      return (result.numAffectedRows ?? 0n) > 0n;
    },
    async delete(name) {
      if (!touched(await db.deleteFrom('features').where('name', '=', name).executeTakeFirst())) return false;
      // Cascades are explicit rather than foreign keys, so every table can be written in any order.
      await db.deleteFrom('feature_environments').where('feature_name', '=', name).execute();
      const strategies = db.selectFrom('feature_strategies').select('id').where('feature_name', '=', name);
      await db.deleteFrom('strategy_segments').where('strategy_id', 'in', strategies).execute();
      await db.deleteFrom('feature_strategies').where('feature_name', '=', name).execute();
      await db.deleteFrom('feature_tags').where('feature_name', '=', name).execute();
      await db
        .deleteFrom('dependencies')
        .where((eb) => eb.or([eb('child', '=', name), eb('parent', '=', name)]))
        .execute();
      await db.deleteFrom('favorites').where('kind', '=', 'feature').where('name', '=', name).execute();
      await db.deleteFrom('feature_links').where('feature_name', '=', name).execute();
      return true;
    },
    async countLive(project) {
      const row = await db
        .selectFrom('features')
        .select((eb) => eb.fn.countAll().as('count'))
        .where('project', '=', project)
        .where('archived_at', 'is', null)
        .executeTakeFirstOrThrow();
      return int(row.count);
    },
  };
}
