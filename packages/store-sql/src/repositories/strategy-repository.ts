import type {
  Constraint,
  FeatureStrategy,
  NewStrategy,
  StrategyFilter,
  StrategyRepository,
  StrategyVariant,
} from '@flagstaff/core';
import { conflict } from '@flagstaff/core';
import type { Kysely, Selectable, SelectQueryBuilder } from 'kysely';
import {
  bool,
  inList,
  insertedOr,
  int,
  jsonOf,
  parseOf,
  type RepoContext,
  rowBatches,
  touched,
} from '../context.js';
import type { Database, FeatureStrategyTable } from '../database.js';
import { type Binder, prepared, type RowValues } from '../prepared.js';

type StrategyQuery<O> = SelectQueryBuilder<Database, 'feature_strategies', O>;

function applyFilter<O>(ctx: RepoContext, query: StrategyQuery<O>, filter: StrategyFilter): StrategyQuery<O> {
  let q = query;
  if (filter.featureName !== undefined)
    q = q.where('feature_strategies.feature_name', '=', filter.featureName);
  if (filter.featureNames !== undefined) {
    q = q.where(inList(ctx, 'feature_strategies.feature_name', [...new Set(filter.featureNames)]));
  }
  if (filter.environment !== undefined)
    q = q.where('feature_strategies.environment', '=', filter.environment);
  if (filter.projectId !== undefined) q = q.where('feature_strategies.project_id', '=', filter.projectId);
  if (filter.segmentId !== undefined) {
    const segmentId = filter.segmentId;
    q = q.where('feature_strategies.id', 'in', (eb) =>
      eb.selectFrom('strategy_segments').select('strategy_id').where('segment_id', '=', segmentId),
    );
  }
  return q;
}

type Location = { featureName: string; environment: string };
/** The most common filter (one feature in one environment), prepared. */
const isLocation = (filter: StrategyFilter): filter is StrategyFilter & Location =>
  filter.featureName !== undefined &&
  filter.environment !== undefined &&
  filter.featureNames === undefined &&
  filter.projectId === undefined &&
  filter.segmentId === undefined;
/** The strategies at a location with their segment links, one row per link, in one round trip. */
const strategiesAt = prepared((db, p: Binder<Location>) =>
  db
    .selectFrom('feature_strategies')
    .leftJoin('strategy_segments', 'strategy_segments.strategy_id', 'feature_strategies.id')
    .selectAll('feature_strategies')
    .select('strategy_segments.segment_id as linked_segment')
    .where('feature_strategies.feature_name', '=', p.value('featureName'))
    .where('feature_strategies.environment', '=', p.value('environment'))
    .orderBy('feature_strategies.feature_name')
    .orderBy('feature_strategies.environment')
    .orderBy('feature_strategies.sort_order')
    .orderBy('feature_strategies.created_at')
    .orderBy('feature_strategies.id')
    .orderBy('strategy_segments.segment_id'),
);
const STRATEGY_COLUMNS = [
  'id',
  'feature_name',
  'project_id',
  'environment',
  'strategy_name',
  'title',
  'disabled',
  'sort_order',
  'created_at',
] as const;
type StrategyColumns = RowValues<
  FeatureStrategyTable,
  (typeof STRATEGY_COLUMNS)[number] | 'parameters' | 'constraints' | 'variants',
  'parameters' | 'constraints' | 'variants'
>;
const insertStrategy = prepared((db, p: Binder<StrategyColumns>) =>
  db
    .insertInto('feature_strategies')
    .values({
      ...p.values(STRATEGY_COLUMNS),
      parameters: p.json('parameters'),
      constraints: p.json('constraints'),
      variants: p.json('variants'),
    })
    .onConflict((oc) => oc.doNothing()),
);
/** The insert with sort_order one past the highest of its feature environment, worked out by the database. */
const insertStrategyLast = prepared((db, p: Binder<StrategyColumns>) =>
  db
    .insertInto('feature_strategies')
    .values({
      ...p.values(STRATEGY_COLUMNS.filter((c) => c !== 'sort_order')),
      sort_order: (eb) =>
        eb(
          eb.fn.coalesce(
            eb
              .selectFrom('feature_strategies as last')
              .select((s) => s.fn.max('last.sort_order').as('highest'))
              .where('last.feature_name', '=', p.value('feature_name'))
              .where('last.environment', '=', p.value('environment')),
            eb.lit(-1),
          ),
          '+',
          1,
        ),
      parameters: p.json('parameters'),
      constraints: p.json('constraints'),
      variants: p.json('variants'),
    })
    .onConflict((oc) => oc.doNothing())
    .returning('sort_order'),
);
const deleteSegmentLinks = prepared((db, p: Binder<{ id: string }>) =>
  db.deleteFrom('strategy_segments').where('strategy_id', '=', p.value('id')),
);

const insertColumns = (strategy: NewStrategy): StrategyColumns => ({
  id: strategy.id,
  feature_name: strategy.featureName,
  project_id: strategy.projectId,
  environment: strategy.environment,
  strategy_name: strategy.name,
  title: strategy.title,
  disabled: strategy.disabled,
  sort_order: strategy.sortOrder ?? 0,
  parameters: strategy.parameters,
  constraints: strategy.constraints,
  variants: strategy.variants,
  created_at: strategy.createdAt,
});

/** Strategies with their segment links (a set, handed back ascending). */
export function createStrategyRepository(ctx: RepoContext): StrategyRepository {
  const { db } = ctx;
  const json = jsonOf(ctx);
  const parse = parseOf(ctx);
  const toStrategy = (row: Selectable<FeatureStrategyTable>, segments: number[]): FeatureStrategy => ({
    id: row.id,
    name: row.strategy_name,
    title: row.title,
    disabled: bool(row.disabled),
    featureName: row.feature_name,
    projectId: row.project_id,
    environment: row.environment,
    sortOrder: row.sort_order,
    segments,
    constraints: parse<Constraint[]>(row.constraints),
    variants: parse<StrategyVariant[]>(row.variants),
    parameters: parse<Record<string, string>>(row.parameters),
    createdAt: row.created_at,
  });
  const columns = (s: FeatureStrategy) => ({
    feature_name: s.featureName,
    project_id: s.projectId,
    environment: s.environment,
    strategy_name: s.name,
    title: s.title,
    disabled: s.disabled,
    sort_order: s.sortOrder,
    parameters: json(s.parameters),
    constraints: json(s.constraints),
    variants: json(s.variants),
    created_at: s.createdAt,
  });
  const withSegments = (
    rows: readonly Selectable<FeatureStrategyTable>[],
    links: readonly { strategy_id: string; segment_id: number }[],
  ): FeatureStrategy[] => {
    const segmentsOf = new Map<string, number[]>();
    for (const link of links) {
      const list = segmentsOf.get(link.strategy_id) ?? [];
      list.push(link.segment_id);
      segmentsOf.set(link.strategy_id, list);
    }
    return rows.map((row) => toStrategy(row, segmentsOf.get(row.id) ?? []));
  };
  /** Replaces the strategy's segment links; a new strategy (`fresh`) has none to remove. */
  const writeSegments = async (d: Kysely<Database>, strategy: NewStrategy, fresh = false): Promise<void> => {
    if (!fresh) await deleteSegmentLinks.run({ ...ctx, db: d }, { id: strategy.id });
    const segmentIds = [...new Set(strategy.segments)];
    if (segmentIds.length === 0) return;
    for (const batch of rowBatches(segmentIds, 2)) {
      await d
        .insertInto('strategy_segments')
        .values(batch.map((segment_id) => ({ strategy_id: strategy.id, segment_id })))
        .execute();
    }
  };
  return {
    async list(filter) {
      if (filter.featureNames?.length === 0) return [];
      if (isLocation(filter)) {
        const location = { featureName: filter.featureName, environment: filter.environment };
        const { rows } = await strategiesAt.run(ctx, location);
        // Rows of one strategy are adjacent (ordered by id before segment).
        const out: FeatureStrategy[] = [];
        let last: { id: string; segments: number[] } | undefined;
        for (const { linked_segment, ...row } of rows) {
          if (last?.id !== row.id) {
            last = { id: row.id, segments: [] };
            out.push(toStrategy(row, last.segments));
          }
          if (linked_segment !== null) last.segments.push(linked_segment);
        }
        return out;
      }
      // The links of every listed strategy, filtered the same way instead of by a long id list, read
      // alongside the strategies (on PostgreSQL, another connection) rather than after them.
      const [rows, links] = await Promise.all([
        applyFilter(ctx, db.selectFrom('feature_strategies').selectAll(), filter)
          .orderBy('feature_name')
          .orderBy('environment')
          .orderBy('sort_order')
          .orderBy('created_at')
          .orderBy('id')
          .execute(),
        db
          .selectFrom('strategy_segments')
          .select(['strategy_segments.strategy_id', 'strategy_segments.segment_id'])
          .where(
            'strategy_segments.strategy_id',
            'in',
            applyFilter(ctx, db.selectFrom('feature_strategies').select('id'), filter),
          )
          .orderBy('strategy_segments.segment_id')
          .execute(),
      ]);
      if (rows.length === 0) return [];
      return withSegments(rows, links);
    },
    async get(id) {
      const row = await db
        .selectFrom('feature_strategies')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      if (!row) return null;
      const links = await db
        .selectFrom('strategy_segments')
        .select('segment_id')
        .where('strategy_id', '=', id)
        .orderBy('segment_id')
        .execute();
      return toStrategy(
        row,
        links.map((link) => link.segment_id),
      );
    },
    async insert(strategy) {
      const duplicate = `A strategy with id "${strategy.id}" already exists.`;
      let sortOrder = strategy.sortOrder;
      if (sortOrder === undefined) {
        // Placed last by the database in the same statement.
        const row = (await insertStrategyLast.run(ctx, insertColumns(strategy))).rows[0];
        if (!row) throw conflict(duplicate);
        sortOrder = int(row.sort_order);
      } else insertedOr(await insertStrategy.run(ctx, insertColumns(strategy)), duplicate);
      // Every delete of a strategy removes its links, so an id that was free has none.
      await writeSegments(db, strategy, true);
      return sortOrder;
    },
    async update(strategy) {
      const result = await db
        .updateTable('feature_strategies')
        .set(columns(strategy))
        .where('id', '=', strategy.id)
        .executeTakeFirst();
      if (!touched(result)) return false;
      await writeSegments(db, strategy);
      return true;
    },
    async delete(id) {
      if (!touched(await db.deleteFrom('feature_strategies').where('id', '=', id).executeTakeFirst()))
        return false;
      await db.deleteFrom('strategy_segments').where('strategy_id', '=', id).execute();
      return true;
    },
    async deleteForFeatureEnvironment(featureName, environment) {
      const doomed = db
        .selectFrom('feature_strategies')
        .select('id')
        .where('feature_name', '=', featureName)
        .where('environment', '=', environment);
      await db.deleteFrom('strategy_segments').where('strategy_id', 'in', doomed).execute();
      const result = await db
        .deleteFrom('feature_strategies')
        .where('feature_name', '=', featureName)
        .where('environment', '=', environment)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
