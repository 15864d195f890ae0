import type { JsonValue, SqlDialect, TextQuery } from '@flagstaff/store-sql';
import { type SqlBool, sql } from 'kysely';

/** The channel every Flagstaff store NOTIFYs on; the payload says which schema and instance. */
export const EVENTS_CHANNEL = 'flagstaff_events';

/** PostgreSQL error code of a unique violation. */
const UNIQUE_VIOLATION = '23505';
/**
 * SQLSTATEs meaning the server cannot serve us now: connection exceptions, shutdowns, no slots, bad
 * login or database, and a statement it cancelled (statement timeout).
 */
const UNAVAILABLE_SQLSTATES = new Set([
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '3D000',
  '28000',
  '28P01',
  '57014',
]);
/** SQLSTATEs of a transaction that lost a race and may run again: serialization failure, deadlock. */
const RETRY_SQLSTATES = new Set(['40001', '40P01']);
/** Node network error codes when the server cannot be reached. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'EAI_AGAIN',
]);

const codeOf = (error: unknown): string | undefined => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
};

/**
 * A tsquery: filter terms and query terms ANDed; within a query term, its words ANDed or any
 * alternative. Excluded terms stay out: the repository's column filter applies them after the GIN
 * scan, whereas `!term` here would make GIN read the posting list of every excluded project.
 */
export function tsQuery(query: TextQuery): string {
  // Terms only ever hold letters, digits and `_`, so single quotes need no escaping.
  const quote = (term: string): string => `'${term}'`;
  const terms = query.terms.map(({ words, anyOf }) => {
    const options = anyOf.map(quote);
    if (words.length > 0)
      options.unshift(`(${words.map((w) => quote(w.text) + (w.prefix ? ':*' : '')).join(' & ')})`);
    return `(${options.join(' | ')})`;
  });
  return [...query.filters.map(quote), ...terms].join(' & ');
}

/** 32-bit FNV-1a, signed: advisory lock keys per schema, so stores in other schemas never wait on us. */
function lockKey(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0;
}

/** First key of every Flagstaff advisory lock ("Flag"); the second names the schema and purpose. */
const LOCK_CLASS = 0x466c6167;

export interface PostgresDialectOptions {
  /**
   * Names the store's schema in the event-id lock key ('' for the connection's default). Releases
   * before 0060 took this lock for whole transactions, so during a rolling upgrade old and new
   * processes still hand out event ids one transaction at a time.
   */
  schema: string;
}

/** The session setting a transaction names its store instance in, for the events notice. */
export const INSTANCE_SETTING = 'flagstaff.instance';

/** A PostgreSQL array literal (`{"a","b"}`): every element quoted, backslashes and quotes escaped. */
export function arrayLiteral(values: readonly string[] | readonly number[]): string {
  const quote = (value: string | number): string =>
    `"${String(value).replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
  return `{${values.map(quote).join(',')}}`;
}

/** A string as an SQL literal (for DDL, which takes no parameters). */
const literal = (value: string): string => `'${value.replaceAll("'", "''")}'`;

/**
 * The statements of migration 0060. Event ids come from `flagstaff_next_event_id()`, which takes a
 * transaction-level advisory lock before drawing from the sequence: the lock is held until commit,
 * so a transaction that appends later commits later and ids follow commit order, while transactions
 * run concurrently until their first append. A statement trigger queues the NOTIFY (delivered at
 * commit only, one per transaction) naming the schema and the appending store instance.
 */
function eventOrderStatements(sequence: string, lockKeyValue: number): string[] {
  return [
    `create function flagstaff_next_event_id() returns bigint language sql volatile as $body$
       select pg_advisory_xact_lock(${LOCK_CLASS}, ${lockKeyValue});
       select nextval(${literal(sequence)}::regclass);
     $body$`,
    'alter table events alter column id set default flagstaff_next_event_id()',
    `create function flagstaff_announce_events() returns trigger language plpgsql as $body$
       begin
         perform pg_notify(${literal(EVENTS_CHANNEL)},
           tg_table_schema || '|' || coalesce(current_setting(${literal(INSTANCE_SETTING)}, true), ''));
         return null;
       end
     $body$`,
    `create trigger events_announce after insert on events
       for each statement execute function flagstaff_announce_events()`,
  ];
}

/** The PostgreSQL side of every dialect difference. */
export function postgresDialect({ schema }: PostgresDialectOptions): SqlDialect {
  return {
    kind: 'postgres',
    // Sent as text and cast, so no driver (pg or PGlite) serialises the string a second time.
    json: (value) => sql<JsonValue>`cast(${JSON.stringify(value)}::text as jsonb)`,
    jsonText: (text) => sql<JsonValue>`cast(${text}::text as jsonb)`,
    // The drivers parse jsonb already; a JSON string value arrives as a JS string and stays one.
    parseJson: (raw) => raw,
    // One array parameter, sent as its text form and cast (no driver's array encoding involved);
    // `= any(array)` is an index condition, as `in (…)` would be.
    inList: (column, values) =>
      typeof values[0] === 'number'
        ? sql<SqlBool>`${column} = any(cast(${arrayLiteral(values)} as bigint[]))`
        : sql<SqlBool>`${column} = any(cast(${arrayLiteral(values)} as text[]))`,
    classifyError(error) {
      const code = codeOf(error);
      if (code === undefined) return null;
      if (code === UNIQUE_VIOLATION) return 'unique';
      if (RETRY_SQLSTATES.has(code)) return 'retry';
      if (code.startsWith('08') || UNAVAILABLE_SQLSTATES.has(code) || NETWORK_CODES.has(code))
        return 'unavailable';
      return null;
    },
    failedStatementAbortsTransaction: true,
    // Text compares by code point ("C"), like SQLite's BINARY and the memory store.
    types: { serialId: 'serial', eventId: 'bigserial', text: sql`text collate "C"`, json: 'jsonb' },
    async defaultSchema(db) {
      const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
      return rows[0]?.schema ?? undefined;
    },
    eventSearch: {
      async create(db) {
        // Lexemes are computed in JS (see store-sql search-terms) and stored as given: no parser,
        // no stemming, so both dialects index exactly the same terms. GIN answers @@ with prefixes.
        await sql`alter table events add column search tsvector not null default ''`.execute(db);
        await sql`create index events_search on events using gin (search)`.execute(db);
      },
      rowValues: (terms) => ({
        search: sql`array_to_tsvector(string_to_array(${terms}::text, ' '))`,
      }),
      match: (query) => sql<boolean>`"events"."search" @@ ${tsQuery(query)}::tsquery`,
    },
    transactions: 'serializable',
    async orderEventIds(db) {
      const { rows } = await sql<{
        sequence: string | null;
      }>`select pg_get_serial_sequence('events', 'id') as sequence`.execute(db);
      const sequence = rows[0]?.sequence;
      if (!sequence) throw new Error('The events table has no id sequence; migration 0001 did not run.');
      for (const statement of eventOrderStatements(sequence, lockKey(`${schema}:transactions`)))
        await sql.raw(statement).execute(db);
    },
  };
}

/** Whether a notification payload is about this schema but from another instance. */
export function isForeignNotice(payload: string | undefined, schema: string, instanceId: string): boolean {
  if (payload === undefined) return false;
  const separator = payload.lastIndexOf('|');
  return payload.slice(0, separator) === schema && payload.slice(separator + 1) !== instanceId;
}
