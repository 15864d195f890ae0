import type { Expression, Kysely, RawBuilder, SqlBool } from 'kysely';
import type { Database, JsonWrite } from './database.js';
import type { TextQuery } from './search-terms.js';

/**
 * How a database error should surface: a unique violation, a database that cannot serve us, or a
 * transaction that lost a race with a concurrent one (serialization failure, deadlock) and may run again.
 */
export type ErrorKind = 'unique' | 'unavailable' | 'retry';

/**
 * Everything that differs between SQLite and PostgreSQL, in one place per concern. The queries in
 * the repositories are written once against this interface.
 */
export interface SqlDialect {
  readonly kind: 'sqlite' | 'postgres';

  /** JSON columns: how a value is written (text on SQLite, jsonb on PostgreSQL). */
  json(value: unknown): JsonWrite;
  /** JSON columns: how JSON text (a value bound later, say) is written; `json(v)` is `jsonText` of its text. */
  jsonText(text: Expression<string | null>): JsonWrite;
  /** JSON columns: how a read value becomes JS (SQLite returns text, PostgreSQL parsed values). */
  parseJson(raw: unknown): unknown;

  /**
   * `column IN (values)` with the whole list bound as one parameter (SQLite: a JSON array read by
   * `json_each`; PostgreSQL: an array with `= any`), so a list of any length binds one SQL variable
   * and the column's index still serves the lookup. Use through `inList` (context.ts).
   */
  inList(column: Expression<unknown>, values: readonly string[] | readonly number[]): RawBuilder<SqlBool>;

  /** Classifies a driver error by its error code (never by message text). */
  classifyError(error: unknown): ErrorKind | null;
  /**
   * PostgreSQL aborts the whole transaction when one statement fails; SQLite only undoes the
   * statement. Where true, statements that may fail with CONFLICT run inside a savepoint, so a caught
   * CONFLICT leaves the transaction usable as it does on the memory store.
   */
  readonly failedStatementAbortsTransaction: boolean;

  /** Column types for migrations. */
  readonly types: {
    /** Store-assigned integer primary key that never reuses a value. */
    serialId: 'serial' | 'integer';
    /** The event id (64-bit on PostgreSQL). */
    eventId: 'bigserial' | 'integer';
    /** Text compared and ordered by code point, like the memory store. */
    text: RawBuilder<unknown> | 'text';
    json: 'jsonb' | 'text';
  };

  /**
   * The schema kysely's migration bookkeeping belongs to when none was configured (PostgreSQL: the
   * current schema, so another schema's bookkeeping in the same database is never mistaken for ours).
   */
  defaultSchema(db: Kysely<Database>): Promise<string | undefined>;

  /** Free-text index over events. */
  readonly eventSearch: EventSearchIndex;

  /**
   * How the store's transactions stay serializable with respect to each other (the port's promise).
   * `one-at-a-time`: the driver runs them one after another (SQLite's writer, PGlite's one session).
   * `serializable`: they run concurrently at SERIALIZABLE isolation, and one that fails with a
   * `retry` error is rolled back and run again.
   */
  readonly transactions: 'one-at-a-time' | 'serializable';

  /**
   * Migration step: the database itself hands out event ids in commit order and announces appends
   * (PostgreSQL: the id default takes an advisory lock held until commit, and a trigger NOTIFYs).
   * SQLite has one writer at a time, so its rowids are already in commit order.
   */
  orderEventIds(db: Kysely<unknown>): Promise<void>;
}

/**
 * The dialect-specific free-text index over events: written with each append (PostgreSQL keeps a
 * tsvector on the row), or behind the log (`behind`, SQLite).
 */
export interface EventSearchIndex {
  /** Creates the index objects (a migration step). */
  create(db: Kysely<unknown>): Promise<void>;
  /** Extra column values of an event row from its terms joined by spaces (PostgreSQL keeps a tsvector on the row). */
  rowValues(terms: Expression<string>): { search?: RawBuilder<unknown> };
  /** A condition on `events` that holds for rows matching the text query. */
  match(query: TextQuery, window: SearchWindow): RawBuilder<SqlBool>;
  /**
   * Present when the index is written behind the log: appends leave it alone, and the store folds
   * new events into it a batch at a time, a moment after they commit and always before a text
   * search reads it (FTS5 writes a new segment in every transaction that touches it, which doubled
   * what a one-event command wrote).
   */
  readonly behind?: WriteBehindIndex;
}

/** An event index that records how far through the log it is. */
export interface WriteBehindIndex {
  /** Creates where the index records the last event it holds (migration 0066), at the newest event. */
  createPosition(db: Kysely<unknown>): Promise<void>;
  /** The id of the last event the index holds. */
  position(db: Kysely<Database>): Promise<number>;
  /** Whether events were appended past the position (one read, to skip a write transaction when none). */
  lagging(db: Kysely<Database>): Promise<boolean>;
  /** Adds entries for events past the position, ids ascending, and moves the position to the last. */
  add(db: Kysely<Database>, rows: readonly { id: number; terms: readonly string[] }[]): Promise<void>;
}

/** The rest of a search, which an index that orders by id can use to stop early. */
export interface SearchWindow {
  maxId?: number | undefined;
  afterId?: number | undefined;
  limit?: number | undefined;
  ascending: boolean;
  /** True when the text query (filter terms included) and the id bounds are the whole search. */
  complete: boolean;
}
