import type { EventQuery, EventRepository, EventType, FlagstaffEvent, NewEvent, Tag } from '@flagstaff/core';
import { type Selectable, type SelectQueryBuilder, sql } from 'kysely';
import { chunks, inList, int, parseOf, type RepoContext, rowBatches } from '../context.js';
import type { Database, EventTable } from '../database.js';
import { type Binder, prepared as preparedQuery, type RowValues } from '../prepared.js';
import { eventTerms, filterTerms, parseTextQuery, projectTerm } from '../search-terms.js';
import { eventIndexCaughtUp } from './event-index.js';

const EVENT_ROW_COLUMNS = [
  'type',
  'created_at',
  'created_time',
  'created_by',
  'created_by_user_id',
  'environment',
  'project',
  'feature_name',
] as const;
type EventRowValues = RowValues<EventTable, (typeof EVENT_ROW_COLUMNS)[number]> & {
  data: string | null;
  pre_data: string | null;
  tags: string;
  terms: string;
};

const latestEventId = preparedQuery((db, _: Binder<object>) =>
  db.selectFrom('events').select((eb) => eb.fn.max('id').as('id')),
);

/** The insert of one event (by far the most common append), prepared. */
const insertOneEvent = preparedQuery((db, p: Binder<EventRowValues>, dialect) =>
  db
    .insertInto('events')
    .values({
      ...p.values(EVENT_ROW_COLUMNS),
      data: p.jsonText('data'),
      pre_data: p.jsonText('pre_data'),
      tags: p.jsonText('tags'),
      ...dialect.eventSearch.rowValues(p.value('terms')),
    })
    .returning('id'),
);

const EVENT_COLUMNS = [
  'id',
  'type',
  'created_at',
  'created_by',
  'created_by_user_id',
  'environment',
  'project',
  'feature_name',
  'data',
  'pre_data',
  'tags',
] as const;

type EventRow = Pick<Selectable<EventTable>, (typeof EVENT_COLUMNS)[number]>;
type EventSelect<O> = SelectQueryBuilder<Database, 'events', O>;

/**
 * A JSON value serialized once: the text to store (null for SQL NULL) and what reading it back gives
 * (undefined goes, dates become strings), so append returns what search will.
 */
const serialized = (value: unknown): { text: string | null; stored: unknown } => {
  const text = value === undefined ? undefined : JSON.stringify(value);
  if (text === undefined || text === 'null') return { text: null, stored: null };
  return { text, stored: JSON.parse(text) };
};

/** Epoch milliseconds of a timestamp; null when unparsable, so no time filter matches it (as in memory). */
const instant = (timestamp: string): number | null => {
  const ms = Date.parse(timestamp);
  return Number.isNaN(ms) ? null : ms;
};

/**
 * Creator ids for the names, adding unknown names to `event_creators`. Ids come from the store's
 * cache when known; a new name's id joins the cache only once its transaction commits.
 */
async function creatorIds(ctx: RepoContext, names: readonly string[]): Promise<Map<string, number>> {
  const known = ctx.cache.creatorIds;
  const ids = new Map<string, number>();
  const missing: string[] = [];
  for (const name of new Set(names)) {
    const id = known.get(name);
    if (id === undefined) missing.push(name);
    else ids.set(name, id);
  }
  if (missing.length === 0) return ids;
  const { db } = ctx;
  for (const batch of rowBatches(missing, 1)) {
    await db
      .insertInto('event_creators')
      .values(batch.map((name) => ({ name })))
      .onConflict((oc) => oc.column('name').doNothing())
      .execute();
  }
  const rows = await db
    .selectFrom('event_creators')
    .select(['id', 'name'])
    .where(inList(ctx, 'name', missing))
    .execute();
  for (const row of rows) ids.set(row.name, row.id);
  ctx.afterCommit(() => {
    for (const row of rows) known.set(row.name, row.id);
  });
  return ids;
}

/** The event log: append-only, with the dialect's free-text index (written with the append or behind the log). */
export function createEventRepository(ctx: RepoContext): EventRepository {
  const { db, dialect } = ctx;
  const parse = parseOf(ctx);
  const toEvent = (row: EventRow): FlagstaffEvent => ({
    id: int(row.id),
    type: row.type as EventType,
    createdAt: row.created_at,
    createdBy: row.created_by,
    createdByUserId: row.created_by_user_id,
    environment: row.environment,
    project: row.project,
    featureName: row.feature_name,
    data: row.data === null ? null : parse(row.data),
    preData: row.pre_data === null ? null : parse(row.pre_data),
    tags: parse<Tag[]>(row.tags),
  });

  /** Applies every filter of the query; null when the text query cannot match anything. */
  const filtered = async <O>(
    base: EventSelect<O>,
    query: Omit<EventQuery, 'limit'>,
    limit?: number,
  ): Promise<EventSelect<O> | null> => {
    let q = base;
    if (query.type !== undefined) q = q.where('events.type', '=', query.type);
    if (query.project !== undefined) q = q.where('events.project', '=', query.project);
    if (query.feature !== undefined) q = q.where('events.feature_name', '=', query.feature);
    // Only when asked: a viewer who sees every project gets exactly the unfiltered query and plan.
    const excluded = query.excludeProjects ?? [];
    if (excluded.length > 0)
      q = q.where((eb) =>
        eb.or([eb('events.project', 'is', null), eb.not(inList(ctx, 'events.project', [...excluded]))]),
      );
    if (query.maxId !== undefined) q = q.where('events.id', '<=', query.maxId);
    if (query.afterId !== undefined) q = q.where('events.id', '>', query.afterId);
    // An unparsable bound matches nothing, as on the memory store (NaN compares false).
    const after = query.createdAfter === undefined ? undefined : Date.parse(query.createdAfter);
    const before = query.createdBefore === undefined ? undefined : Date.parse(query.createdBefore);
    if (Number.isNaN(after) || Number.isNaN(before)) return null;
    if (after !== undefined) q = q.where('events.created_time', '>', after);
    if (before !== undefined) q = q.where('events.created_time', '<', before);
    if (query.query !== undefined && query.query.trim() !== '') {
      await eventIndexCaughtUp(ctx);
      const creators = await db.selectFrom('event_creators').select(['id', 'name']).execute();
      const terms = parseTextQuery(query.query, creators);
      if (terms === null) return null;
      const filters = filterTerms({ type: query.type, project: query.project, featureName: query.feature });
      const exclude = excluded.map(projectTerm);
      q = q.where(
        dialect.eventSearch.match(exclude.length > 0 ? { filters, terms, exclude } : { filters, terms }, {
          maxId: query.maxId,
          afterId: query.afterId,
          limit,
          ascending: query.ascending === true,
          complete: query.createdAfter === undefined && query.createdBefore === undefined,
        }),
      );
    }
    return q;
  };

  return {
    async append(events: readonly NewEvent[]) {
      if (events.length === 0) return [];
      const creators = await creatorIds(
        ctx,
        events.map((e) => e.createdBy),
      );
      const stored: FlagstaffEvent[] = [];
      for (const batch of chunks(events, 200)) {
        const prepared = batch.map((input) => {
          const data = serialized(input.data);
          const preData = serialized(input.preData);
          const tags = serialized(input.tags ?? []);
          const event: Omit<FlagstaffEvent, 'id'> = {
            type: input.type,
            createdAt: input.createdAt,
            createdBy: input.createdBy,
            createdByUserId: input.createdByUserId ?? null,
            environment: input.environment ?? null,
            project: input.project ?? null,
            featureName: input.featureName ?? null,
            data: data.stored,
            preData: preData.stored,
            tags: (tags.stored ?? []) as Tag[],
          };
          const text = { data: data.text, preData: preData.text, tags: tags.text ?? '[]' };
          // An index written behind the log works its terms out when it catches up.
          const terms = dialect.eventSearch.behind
            ? []
            : eventTerms(event, creators.get(input.createdBy) ?? 0);
          return { event, text, terms };
        });
        const one = prepared.length === 1 ? prepared[0] : undefined;
        const inserted = one
          ? (
              await insertOneEvent.run(ctx, {
                type: one.event.type,
                created_at: one.event.createdAt,
                created_time: instant(one.event.createdAt),
                created_by: one.event.createdBy,
                created_by_user_id: one.event.createdByUserId,
                environment: one.event.environment,
                project: one.event.project,
                feature_name: one.event.featureName,
                data: one.text.data,
                pre_data: one.text.preData,
                tags: one.text.tags,
                terms: one.terms.join(' '),
              })
            ).rows
          : await db
              .insertInto('events')
              .values(
                prepared.map(({ event, text, terms }) => ({
                  type: event.type,
                  created_at: event.createdAt,
                  created_time: instant(event.createdAt),
                  created_by: event.createdBy,
                  created_by_user_id: event.createdByUserId,
                  environment: event.environment,
                  project: event.project,
                  feature_name: event.featureName,
                  data: text.data === null ? null : dialect.jsonText(sql.val(text.data)),
                  pre_data: text.preData === null ? null : dialect.jsonText(sql.val(text.preData)),
                  tags: dialect.jsonText(sql.val(text.tags)),
                  ...dialect.eventSearch.rowValues(sql.val(terms.join(' '))),
                })),
              )
              .returning('id')
              .execute();
        // Ids are handed out in VALUES order; sorting guards against RETURNING reordering rows.
        const ids = inserted.map((row) => int(row.id)).sort((a, b) => a - b);
        stored.push(...prepared.map((p, i) => ({ id: ids[i]!, ...p.event })));
      }
      ctx.eventsAppended(events.map((e) => e.type));
      return stored;
    },
    async search(query) {
      if (query.limit !== undefined && query.limit <= 0) return [];
      const q = await filtered(
        db.selectFrom('events').select(EVENT_COLUMNS.map((c) => `events.${c}` as const)),
        query,
        query.limit,
      );
      if (q === null) return [];
      const ordered = q.orderBy('events.id', query.ascending ? 'asc' : 'desc');
      const rows = await (query.limit === undefined ? ordered : ordered.limit(query.limit)).execute();
      return rows.map(toEvent);
    },
    async count(query) {
      const q = await filtered(
        db.selectFrom('events').select((eb) => eb.fn.countAll().as('count')),
        query,
      );
      if (q === null) return 0;
      return int((await q.executeTakeFirstOrThrow()).count);
    },
    async latestId(filter = {}) {
      if (filter.types !== undefined) return latestIdOfTypes(filter.types);
      const row = (await latestEventId.run(ctx, {})).rows[0];
      return int(row?.id);
    },
    async listCreators() {
      return db.selectFrom('event_creators').select(['id', 'name']).orderBy('name').execute();
    },
  };

  async function latestIdOfTypes(types: readonly string[]): Promise<number> {
    if (types.length === 0) return 0;
    // One indexed max per type: `max(id) where type in (…)` would read every event of those types.
    // The types are written into the text, not bound: a prepared statement's generic plan (which
    // PostgreSQL may adopt after five runs) cannot see which types are rare, and took the latest
    // event backwards through the primary key instead, reading every event for a type never written.
    const perType = [...new Set(types)].map(
      (type) => sql`select max(id) as id from events where type = ${sql.lit(type)}`,
    );
    const { rows } = await sql<{
      id: number | string | null;
    }>`select max(latest.id) as id from (${sql.join(perType, sql` union all `)}) latest`.execute(db);
    const row = rows[0];
    return int(row?.id);
  }
}
