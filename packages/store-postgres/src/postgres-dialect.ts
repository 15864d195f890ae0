import type { JsonWrite, SqlDialect, TextQuery } from '@flagstaff/store-sql';
import { CompiledQuery, sql } from 'kysely';

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
  /** Names the store's schema in lock keys and notifications ('' for the connection's default). */
  schema: string;
  /** Identifies this store instance in notifications, so it does not hear its own appends twice. */
  instanceId: string;
  /**
   * True when the driver takes the transaction lock as it begins (`beginStatement`) and sends the
   * events notice with the commit when asked (`NOTIFY_AT_COMMIT`, `commitWithNotice`): no round trip
   * for either. The transaction lock alone then orders event ids by commit, as every transaction
   * of the store holds it from begin to commit.
   */
  lockedOnBegin?: boolean;
}

/**
 * `begin` and the store's transaction lock in one simple-protocol message (no parameters, so the
 * server runs both statements from one round trip).
 */
export function beginStatement(schema: string): string {
  return `begin; select pg_advisory_xact_lock(${LOCK_CLASS}, ${lockKey(`${schema}:transactions`)})`;
}

/** Not SQL: tells the driver to send the events notice with this transaction's commit. */
export const NOTIFY_AT_COMMIT = '-- flagstaff: notify at commit';

/** The notice and the commit in one simple-protocol message (a literal payload, escaped). */
export function commitWithNotice(schema: string, instanceId: string): string {
  const text = (value: string): string => `E'${value.replaceAll('\\', '\\\\').replaceAll("'", "''")}'`;
  return `select pg_notify(${text(EVENTS_CHANNEL)}, ${text(`${schema}|${instanceId}`)}); commit`;
}

/** The PostgreSQL side of every dialect difference. */
export function postgresDialect({ schema, instanceId, lockedOnBegin }: PostgresDialectOptions): SqlDialect {
  const transactionLock = lockKey(`${schema}:transactions`);
  const eventLock = lockKey(`${schema}:events`);
  return {
    kind: 'postgres',
    // Sent as text and cast, so no driver (pg or PGlite) serialises the string a second time.
    json: (value) => sql`cast(${JSON.stringify(value)}::text as jsonb)` as unknown as JsonWrite,
    // The drivers parse jsonb already; a JSON string value arrives as a JS string and stays one.
    parseJson: (raw) => raw,
    classifyError(error) {
      const code = codeOf(error);
      if (code === undefined) return null;
      if (code === UNIQUE_VIOLATION) return 'unique';
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
        search: sql`array_to_tsvector(string_to_array(${terms.join(' ')}::text, ' '))`,
      }),
      afterInsert: async () => {},
      match: (query) => sql<boolean>`"events"."search" @@ ${tsQuery(query)}::tsquery`,
    },
    async serializeTransaction(db) {
      if (lockedOnBegin) return;
      await sql`select pg_advisory_xact_lock(${LOCK_CLASS}::int4, ${transactionLock}::int4)`.execute(db);
    },
    async lockEventLog(db) {
      if (lockedOnBegin) {
        await db.executeQuery(CompiledQuery.raw(NOTIFY_AT_COMMIT));
        return;
      }
      // Held until commit: a transaction that appends later commits later, so ids follow commit order.
      // The notice goes in the same round trip: it is delivered at commit only, and dropped on
      // rollback, so queueing it before the inserts announces exactly the same commits.
      await sql`select pg_advisory_xact_lock(${LOCK_CLASS}::int4, ${eventLock}::int4), pg_notify(${EVENTS_CHANNEL}, ${`${schema}|${instanceId}`})`.execute(
        db,
      );
    },
    // Announced by lockEventLog, which every append calls first.
    announceEvents: async () => {},
  };
}

/** Whether a notification payload is about this schema but from another instance. */
export function isForeignNotice(payload: string | undefined, schema: string, instanceId: string): boolean {
  if (payload === undefined) return false;
  const separator = payload.lastIndexOf('|');
  return payload.slice(0, separator) === schema && payload.slice(separator + 1) !== instanceId;
}
