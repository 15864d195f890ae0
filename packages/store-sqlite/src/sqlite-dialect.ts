import type { JsonValue, SearchWindow, SqlDialect, TextQuery } from '@flagstaff/store-sql';
import { CompiledQuery, type RawBuilder, type SqlBool, sql } from 'kysely';

/** SQLite error codes (better-sqlite3's `code`) that mean a duplicate key. */
const UNIQUE_CODES = new Set(['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY']);
/** Error code families that mean the database cannot be used right now. */
const UNAVAILABLE_PREFIXES = [
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  'SQLITE_CANTOPEN',
  'SQLITE_IOERR',
  'SQLITE_FULL',
  'SQLITE_READONLY',
  'SQLITE_CORRUPT',
  'SQLITE_NOTADB',
];

const codeOf = (error: unknown): string | undefined => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
};

/**
 * An FTS5 query: filter terms and query terms ANDed; within a query term, its words ANDed or any
 * alternative; then NOT any excluded term, so a limited walk of the index still fills its page.
 */
export function fts5Query(query: TextQuery): string {
  // Terms only ever hold letters, digits and `_`, so double quotes need no escaping.
  const quote = (term: string): string => `"${term}"`;
  const terms = query.terms.map(({ words, anyOf }) => {
    const options = anyOf.map(quote);
    if (words.length > 0) {
      options.unshift(`(${words.map((w) => quote(w.text) + (w.prefix ? '*' : '')).join(' AND ')})`);
    }
    return `(${options.join(' OR ')})`;
  });
  const matched = [...query.filters.map(quote), ...terms].join(' AND ');
  const exclude = query.exclude ?? [];
  return exclude.length === 0 ? matched : `(${matched}) NOT (${exclude.map(quote).join(' OR ')})`;
}

/**
 * The matching rowids. When the FTS query and id bounds are the whole search, FTS5 walks its index
 * in id order within the bounds and stops after `limit`: the newest 100 of a million matches cost
 * what 100 do. Otherwise every match is listed and the other filters apply outside.
 */
function ftsRowids(query: TextQuery, window: SearchWindow): RawBuilder<unknown> {
  const bounds = [
    ...(window.maxId === undefined ? [] : [sql`rowid <= ${window.maxId}`]),
    ...(window.afterId === undefined ? [] : [sql`rowid > ${window.afterId}`]),
  ];
  const where = sql.join([sql`events_fts match ${fts5Query(query)}`, ...bounds], sql` and `);
  if (!window.complete || window.limit === undefined) return sql`select rowid from events_fts where ${where}`;
  const direction = window.ascending ? sql`asc` : sql`desc`;
  return sql`select rowid from events_fts where ${where} order by rowid ${direction} limit ${window.limit}`;
}

const POSITION = 'select last_id from events_fts_position';
const LAGGING =
  'select coalesce((select max(id) from events), 0) > (select last_id from events_fts_position) as lagging';

/** The SQLite side of every dialect difference. */
export const sqliteDialect: SqlDialect = {
  kind: 'sqlite',
  // JSON columns are text; the driver binds the string as is.
  json: (value) => sql<JsonValue>`${JSON.stringify(value)}`,
  jsonText: (text) => sql<JsonValue>`${text}`,
  parseJson: (raw) => (typeof raw === 'string' ? JSON.parse(raw) : raw),
  // One JSON array parameter; `json_each` hands back integers as integers and strings as text, and
  // SQLite looks each value up in the column's index (see the EXPLAIN QUERY PLAN test).
  inList: (column, values) =>
    sql<SqlBool>`${column} in (select value from json_each(${JSON.stringify(values)}))`,
  classifyError(error) {
    const code = codeOf(error);
    if (code === undefined) return null;
    if (UNIQUE_CODES.has(code)) return 'unique';
    if (UNAVAILABLE_PREFIXES.some((prefix) => code.startsWith(prefix))) return 'unavailable';
    return null;
  },
  failedStatementAbortsTransaction: false,
  types: { serialId: 'integer', eventId: 'integer', text: 'text', json: 'text' },
  defaultSchema: async () => undefined,
  eventSearch: {
    async create(db) {
      // Contentless (the events table has the data) and detail=none (only "which rows have this
      // term"): the smallest FTS5 index that answers word and prefix queries. The ascii tokenizer
      // keeps non-ASCII characters inside words as JS split them, and `_` joins synthetic terms.
      await sql`create virtual table events_fts using fts5(
        terms, content='', detail=none, columnsize=0, tokenize="ascii tokenchars '_'"
      )`.execute(db);
    },
    rowValues: () => ({}),
    match: (query, window) => sql<boolean>`"events"."id" in (${ftsRowids(query, window)})`,
    behind: {
      async createPosition(db) {
        // Every event so far went into the index with its append.
        await sql`create table events_fts_position (id integer primary key check (id = 1), last_id integer not null)`.execute(
          db,
        );
        await sql`insert into events_fts_position (id, last_id) select 1, coalesce(max(id), 0) from events`.execute(
          db,
        );
      },
      async position(db) {
        const { rows } = await db.executeQuery<{ last_id: number }>(CompiledQuery.raw(POSITION, []));
        return rows[0]?.last_id ?? 0;
      },
      async lagging(db) {
        const { rows } = await db.executeQuery<{ lagging: number }>(CompiledQuery.raw(LAGGING, []));
        return rows[0]?.lagging === 1;
      },
      async add(db, rows) {
        const last = rows.at(-1);
        if (!last) return;
        // Two values a row, well under SQLite's bound-parameter limit.
        for (let start = 0; start < rows.length; start += 200) {
          const values = rows
            .slice(start, start + 200)
            .map((row) => sql`(${row.id}, ${row.terms.join(' ')})`);
          await sql`insert into events_fts (rowid, terms) values ${sql.join(values)}`.execute(db);
        }
        await sql`update events_fts_position set last_id = ${last.id}`.execute(db);
      },
    },
  },
  // One writer at a time (the driver's per-file lock and `begin immediate`): rowids follow commit order.
  transactions: 'one-at-a-time',
  orderEventIds: async () => {},
};
