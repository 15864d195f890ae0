import type {
  FeatureSearchQuery,
  FeatureSearchRepository,
  SetFilter,
  Tag,
  ValueFilter,
} from '@flagstaff/core';
import { type Expression, type ExpressionBuilder, type RawBuilder, type SqlBool, sql } from 'kysely';
import { inList, int, type RepoContext } from '../context.js';
import type { Database } from '../database.js';
import { FEATURE_TEXT_TABLE } from '../migrations/feature-name-trigram.js';
import { featureTextOf } from '../migrations/feature-text-one-index.js';
import { toFeature } from './feature-repository.js';

type Eb = ExpressionBuilder<Database & { f: Database['features'] }, 'f'>;

const FALSE = sql<SqlBool>`1 = 0`;

/** LIKE pattern for "contains", with the wildcards of the text escaped (`escape '\'`). */
const containsPattern = (term: string): string => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The latest lastSeenAt over the feature's environments, kept on the feature row (migration 0067). */
const lastSeen = sql<string | null>`f.last_seen_at`;

/** Lists up to this long are bound value by value, so the planner sees them (and an index can serve `=`). */
const SHORT_LIST = 50;

/**
 * `column in (…)`: one value as `=`, a short list as bound values, a long one through the dialect's
 * one-parameter list (any length). The planner cannot look into the latter, so the project filter of
 * every admin UI page would otherwise miss the indexes led by the project.
 */
function listed(ctx: RepoContext, column: string, values: readonly string[]): Expression<SqlBool> {
  if (values.length === 1) return sql<SqlBool>`${sql.ref(column)} = ${values[0]}`;
  if (values.length === 0 || values.length > SHORT_LIST) return inList(ctx, column, values);
  return sql<SqlBool>`${sql.ref(column)} in (${sql.join(values)})`;
}

function valueCondition(
  ctx: RepoContext,
  column: 'f.project' | 'f.type' | 'f.lifecycle_stage',
  filter: ValueFilter,
): Expression<SqlBool> {
  const condition = listed(ctx, column, filter.values);
  return filter.negate ? sql<SqlBool>`not ${condition}` : condition;
}

function setCondition<T>(filter: SetFilter<T>, has: (item: T) => Expression<SqlBool>): Expression<SqlBool> {
  const each = filter.items.map(has);
  const any = sql<SqlBool>`(${sql.join(each, sql` or `)})`;
  const all = sql<SqlBool>`(${sql.join(each, sql` and `)})`;
  switch (filter.mode) {
    case 'any':
      return any;
    case 'all':
      return all;
    case 'none':
      return sql<SqlBool>`not ${any}`;
    case 'notAll':
      return sql<SqlBool>`not ${all}`;
  }
}

// Conditions over other tables are uncorrelated `in (select …)`: the set is read once through its own
// index, not probed once per feature (which, counting 50,000 features, is 50,000 lookups). On SQLite
// the name is written `+f.name`, which keeps the planner from driving the query from the set (every
// enabled feature, say, then sorted): the features are still read in the page's index order, stopping
// at its limit, each tested against the set. PostgreSQL chooses by its statistics.
type NameRef = RawBuilder<string>;
const nameRefOf = (ctx: RepoContext): NameRef =>
  ctx.dialect.kind === 'sqlite' ? sql<string>`+f.name` : sql<string>`f.name`;

const hasTag = (name: NameRef, tag: Tag): RawBuilder<SqlBool> =>
  sql<SqlBool>`${name} in (select ft.feature_name from feature_tags ft where ft.tag_type = ${tag.type} and ft.tag_value = ${tag.value})`;

const usesSegment = (name: NameRef, segment: string): RawBuilder<SqlBool> =>
  sql<SqlBool>`${name} in (select fs.feature_name from feature_strategies fs join strategy_segments ss on ss.strategy_id = fs.id join segments sg on sg.id = ss.segment_id where sg.name = ${segment})`;

/** stale/active as a condition on the boolean column (0/1 on SQLite). */
function stateCondition(filter: ValueFilter): Expression<SqlBool> | null {
  const allowed = ['active', 'stale'].filter((s) => filter.values.includes(s) !== filter.negate);
  if (allowed.length === 2) return null;
  if (allowed.length === 0) return FALSE;
  return allowed[0] === 'stale' ? sql<SqlBool>`f.stale` : sql<SqlBool>`not f.stale`;
}

/** `<environment>:enabled|disabled` values: any of them holds (or none, negated). */
// Per feature, by the primary key of its row: half the features are on somewhere, so a page in index
// order finds its rows at once, where reading the whole set first costs a lookup per enabled row.
function statusCondition(filter: ValueFilter): Expression<SqlBool> {
  const each = filter.values.map((value) => {
    const colon = value.lastIndexOf(':');
    const enabled = sql<SqlBool>`exists (select 1 from feature_environments fe where fe.feature_name = f.name and fe.environment = ${value.slice(0, colon)} and fe.enabled)`;
    return value.slice(colon + 1) === 'enabled' ? enabled : sql<SqlBool>`not ${enabled}`;
  });
  const any = sql<SqlBool>`(${sql.join(each, sql` or `)})`;
  return filter.negate ? sql<SqlBool>`not ${any}` : any;
}

/** FTS5 (trigram) and pg_trgm serve substrings of three characters and more (migration 0069). */
const MIN_INDEXED_TERM = 3;
/**
 * A term matching fewer features than this is looked up through the trigram index and the page is
 * read from its matches; one matching more is tested row by row along the page's index order, which
 * meets its matches early (reading tens of thousands of matches and sorting them would cost more).
 */
const FEW_MATCHES = 1_000;

const ftsPhrase = (term: string): string => `"${term.replace(/"/g, '""')}"`;

/**
 * The features whose name or description contains the term, through the trigram index: SQLite's FTS5
 * table, PostgreSQL's one index over both (migration 0071), then the exact test (a term with a line
 * feed could otherwise match across the two).
 */
function textMatches(ctx: RepoContext, p: string, term: string): RawBuilder<string> {
  if (ctx.dialect.kind === 'sqlite')
    return sql<string>`select t.name from ${sql.table(FEATURE_TEXT_TABLE)} t where ${sql.table(FEATURE_TEXT_TABLE)} match ${ftsPhrase(term)}`;
  return sql<string>`select t.name from features t where ${featureTextOf('t')} like ${p} escape '\\' and (lower(t.name) like ${p} escape '\\' or lower(coalesce(t.description, '')) like ${p} escape '\\')`;
}

/**
 * The features with a `type:value` tag containing the term: the distinct tags, read whole (every
 * feature tag's tag is one of them: `addFeatureTag` refuses others and `deleteTag` takes its feature
 * tags along), then those tags' features through their index.
 */
const taggedMatches = (p: string): RawBuilder<string> =>
  sql<string>`select ft.feature_name as name from tags tg join feature_tags ft on ft.tag_type = tg.type and ft.tag_value = tg.value where lower(tg.type || ':' || tg.value) like ${p} escape '\\'`;

/**
 * The features whose name, description or a tag contains the term, when the term is indexed and
 * they are few (bounded reads, the text through the trigram index, in one statement); null otherwise.
 */
async function fewMatches(ctx: RepoContext, term: string): Promise<string[] | null> {
  if (term.length < MIN_INDEXED_TERM) return null;
  const p = containsPattern(term);
  const { rows } = await sql<{
    name: string;
    tagged: number;
  }>`select m.name, 0 as tagged from (${textMatches(ctx, p, term)} limit ${FEW_MATCHES}) m union all select g.name, 1 as tagged from (${taggedMatches(p)} limit ${FEW_MATCHES}) g`.execute(
    ctx.db,
  );
  const tagged = rows.reduce((n, row) => n + Number(row.tagged), 0);
  if (tagged >= FEW_MATCHES || rows.length - tagged >= FEW_MATCHES) return null;
  return [...new Set(rows.map((row) => row.name))];
}

/**
 * Name, description or a `type:value` tag contains the term. A term with few matches is looked up
 * first, through migration 0069's trigram index (SQLite: the FTS5 table, as a phrase; PostgreSQL:
 * pg_trgm's GiST indexes of migration 0070 under the same `like`), and the page is read from those names by the
 * features' primary key, so a search with few matches no longer reads every feature of the project.
 */
function textCondition(
  ctx: RepoContext,
  name: NameRef,
  term: string,
  matches: readonly string[] | undefined,
): Expression<SqlBool> {
  if (matches !== undefined) return inList(ctx, 'f.name', matches);
  const p = containsPattern(term);
  return sql<SqlBool>`(lower(f.name) like ${p} escape '\\' or lower(coalesce(f.description, '')) like ${p} escape '\\' or ${name} in (${taggedMatches(p)}))`;
}

/** Every filter of the query as one condition on `features f`. */
function conditions(
  ctx: RepoContext,
  eb: Eb,
  q: FeatureSearchQuery,
  visible: readonly string[] | null,
  matchesOf: ReadonlyMap<string, readonly string[]>,
): Expression<SqlBool> {
  const out: Expression<SqlBool>[] = [eb('f.archived_at', q.archived ? 'is not' : 'is', null)];
  if (visible !== null) out.push(listed(ctx, 'f.project', visible));
  if (q.project) out.push(valueCondition(ctx, 'f.project', q.project));
  if (q.type) out.push(valueCondition(ctx, 'f.type', q.type));
  if (q.lifecycle) out.push(valueCondition(ctx, 'f.lifecycle_stage', q.lifecycle));
  const state = q.state && stateCondition(q.state);
  if (state) out.push(state);
  const name = nameRefOf(ctx);
  if (q.status && q.status.values.length > 0) out.push(statusCondition(q.status));
  if (q.tag) out.push(setCondition(q.tag, (tag) => hasTag(name, tag)));
  if (q.segment) out.push(setCondition(q.segment, (segment) => usesSegment(name, segment)));
  if (q.createdAt) out.push(eb('f.created_at', q.createdAt.before ? '<' : '>=', q.createdAt.at));
  if (q.lastSeenAt)
    out.push(
      q.lastSeenAt.before
        ? sql<SqlBool>`${lastSeen} < ${q.lastSeenAt.at}`
        : sql<SqlBool>`${lastSeen} >= ${q.lastSeenAt.at}`,
    );
  if (q.terms.length > 0)
    out.push(
      sql<SqlBool>`(${sql.join(
        q.terms.map((term) => textCondition(ctx, name, term, matchesOf.get(term))),
        sql` or `,
      )})`,
    );
  return out.length === 1 ? out[0]! : eb.and(out);
}

/**
 * The feature table's search: the page in one statement (ordered and limited in SQL, so an index can
 * serve the default order), and a count only when the page does not already tell the total.
 */
export function createFeatureSearchRepository(ctx: RepoContext): FeatureSearchRepository {
  const { db } = ctx;
  return {
    async search(q, visibility, options) {
      const visible = visibility.all ? null : [...visibility.projects];
      if (visible?.length === 0) return { features: [], total: 0 };
      const matchesOf = new Map<string, string[]>();
      for (const term of new Set(q.terms)) {
        const names = await fewMatches(ctx, term);
        if (names !== null) matchesOf.set(term, names);
      }
      const base = db.selectFrom('features as f').where((eb) => conditions(ctx, eb, q, visible, matchesOf));
      let query = base.selectAll('f');
      const dir = q.sortOrder;
      switch (q.sortBy) {
        case 'name':
          break;
        case 'createdAt':
          query = query.orderBy('f.created_at', dir);
          break;
        case 'type':
          query = query.orderBy('f.type', dir);
          break;
        case 'lastSeenAt':
          // Never seen last in either order (both dialects allow NULLS LAST); an index serves `desc`.
          query = query.orderBy(sql`${lastSeen} ${sql.raw(dir)} nulls last`);
          break;
        case 'environment':
          query = query.orderBy(
            sql`case when exists (select 1 from feature_environments fe where fe.feature_name = f.name and fe.environment = ${q.sortEnvironment ?? ''} and fe.enabled) then 1 else 0 end`,
            dir,
          );
          break;
      }
      query = query
        .orderBy('f.name', q.sortBy === 'name' ? dir : 'asc')
        .limit(q.limit)
        .offset(q.offset);
      const features = (await query.execute()).map(toFeature);
      // A short, non-empty page (or a first page) ends the matches: the total needs no count.
      if (features.length < q.limit && (features.length > 0 || q.offset === 0))
        return { features, total: q.offset + features.length };
      if (options?.knownTotal !== undefined) return { features, total: options.knownTotal };
      const counted = await base.select((eb) => eb.fn.countAll().as('count')).executeTakeFirstOrThrow();
      return { features, total: int(counted.count) };
    },
  };
}
