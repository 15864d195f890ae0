import type { JsonValue, SearchWindow, SqlDialect, TextQuery } from '@flagstaff/store-sql';
import { CompiledQuery, type RawBuilder, sql } from 'kysely';

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

const QUEUE_ONE_ROW = 'insert into events_fts_queue (id, terms) values (?, ?)';

/** The SQLite side of every dialect difference. */
export const sqliteDialect: SqlDialect = {
  kind: 'sqlite',
  // JSON columns are text; the driver binds the string as is.
  json: (value) => sql<JsonValue>`${JSON.stringify(value)}`,
  jsonText: (text) => sql<JsonValue>`${text}`,
  parseJson: (raw) => (typeof raw === 'string' ? JSON.parse(raw) : raw),
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
    // FTS5 writes a new segment and its structure record in every transaction that touches it, which
    // doubled what a one-event command wrote to the WAL. Appends queue their terms in a plain table
    // (one short row at the end of a b-tree) and the queue goes into the index a batch at a time.
    async createQueue(db) {
      await sql`create table events_fts_queue (id integer primary key, terms text not null)`.execute(db);
    },
    async catchUp(db) {
      await sql`insert into events_fts (rowid, terms) select id, terms from events_fts_queue order by id`.execute(
        db,
      );
      await sql`delete from events_fts_queue`.execute(db);
    },
    async hasQueued(db) {
      const { rows } = await sql<{
        queued: number;
      }>`select exists (select 1 from events_fts_queue) as queued`.execute(db);
      return rows[0]?.queued === 1;
    },
    rowValues: () => ({}),
    async afterInsert(db, rows) {
      if (rows.length === 0) return;
      if (rows.length === 1) {
        // The usual single event: fixed SQL text, nothing to build or compile.
        const [row] = rows as [(typeof rows)[number]];
        await db.executeQuery(CompiledQuery.raw(QUEUE_ONE_ROW, [row.id, row.terms.join(' ')]));
        return;
      }
      const values = rows.map((row) => sql`(${row.id}, ${row.terms.join(' ')})`);
      await sql`insert into events_fts_queue (id, terms) values ${sql.join(values)}`.execute(db);
    },
    match: (query, window) => sql<boolean>`"events"."id" in (${ftsRowids(query, window)})`,
  },
  // One writer at a time (the driver's per-file lock and `begin immediate`): rowids follow commit order.
  transactions: 'one-at-a-time',
  orderEventIds: async () => {},
};
