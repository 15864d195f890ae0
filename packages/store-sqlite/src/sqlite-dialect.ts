import type { JsonWrite, SqlDialect, TextQuery } from '@flagstaff/store-sql';
import { sql } from 'kysely';

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

/** An FTS5 query: each quoted word (`*` for prefixes) ANDed, alternatives ORed, terms ANDed. */
export function fts5Query(query: TextQuery): string {
  // Terms only ever hold letters, digits and `_`, so double quotes need no escaping.
  const quote = (term: string): string => `"${term}"`;
  return query
    .map(({ words, anyOf }) => {
      const options = anyOf.map(quote);
      if (words.length > 0) {
        options.unshift(`(${words.map((w) => quote(w.text) + (w.prefix ? '*' : '')).join(' AND ')})`);
      }
      return `(${options.join(' OR ')})`;
    })
    .join(' AND ');
}

/** The SQLite side of every dialect difference. */
export const sqliteDialect: SqlDialect = {
  kind: 'sqlite',
  // JSON columns are text; the driver binds the string as is.
  json: (value) => sql`${JSON.stringify(value)}` as unknown as JsonWrite,
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
    rowValues: () => ({}),
    async afterInsert(db, rows) {
      if (rows.length === 0) return;
      const values = rows.map((row) => sql`(${row.id}, ${row.terms.join(' ')})`);
      await sql`insert into events_fts (rowid, terms) values ${sql.join(values)}`.execute(db);
    },
    match: (query) =>
      sql<boolean>`"events"."id" in (select rowid from events_fts where events_fts match ${fts5Query(query)})`,
  },
  serializeTransaction: async () => {},
  lockEventLog: async () => {},
  announceEvents: async () => {},
};
