import type BetterSqlite3 from 'better-sqlite3';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  SelectQueryNode,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';

/** A FIFO lock: better-sqlite3 has one write connection, so transactions on it take turns. */
class Mutex {
  #tail: Promise<void> = Promise.resolve();

  async lock(): Promise<() => void> {
    let release = (): void => {};
    const next = new Promise<void>((resolve) => {
      release = resolve;
    });
    const previous = this.#tail;
    this.#tail = previous.then(() => next);
    await previous;
    return release;
  }
}

/**
 * Writer locks by database file, shared by every store of this process on that file. better-sqlite3
 * waits for a busy file synchronously, blocking the event loop: a second store in the same process
 * would spin in its busy handler while the transaction it waits for cannot run to its commit.
 * Taking turns in JS first leaves the busy timeout to arbitrate between processes only.
 */
const fileLocks = new Map<string, { mutex: Mutex; users: number }>();

function acquireFileLock(file: string | null): { mutex: Mutex; dispose: () => void } {
  if (file === null) return { mutex: new Mutex(), dispose: () => {} };
  const entry = fileLocks.get(file) ?? { mutex: new Mutex(), users: 0 };
  entry.users++;
  fileLocks.set(file, entry);
  return {
    mutex: entry.mutex,
    dispose: () => {
      if (--entry.users === 0) fileLocks.delete(file);
    },
  };
}

/** The connections of one store: every write goes to `writer`; `reader` (WAL files only) serves reads. */
export interface SqliteConnections {
  writer: BetterSqlite3.Database;
  /** A second connection that sees only committed data; null for `:memory:`, where reads queue behind writes. */
  reader: BetterSqlite3.Database | null;
  /** The absolute path of the file, or null for `:memory:`. */
  file: string | null;
  /** Stops background checkpoints of the file (resolving once they have let go of it); null when none run. */
  stopCheckpoints: (() => Promise<void>) | null;
}

type Statement = BetterSqlite3.Statement<unknown[], unknown>;

/** Prepared statements by SQL text; kysely emits the same text for the same query shape. */
function statementCache(db: BetterSqlite3.Database): (sql: string) => Statement {
  const cache = new Map<string, Statement>();
  return (sql) => {
    let statement = cache.get(sql);
    if (!statement) {
      if (cache.size >= 500) cache.clear();
      statement = db.prepare(sql);
      cache.set(sql, statement);
    }
    return statement;
  };
}

// The "booleans" dialect difference: SQLite stores them as 0/1 and better-sqlite3 refuses JS booleans.
const bindable = (value: unknown): unknown => (typeof value === 'boolean' ? Number(value) : value);

function execute<R>(prepare: (sql: string) => Statement, query: CompiledQuery): QueryResult<R> {
  const statement = prepare(query.sql);
  const parameters = query.parameters.map(bindable);
  if (statement.reader) return { rows: statement.all(parameters) as R[] };
  const { changes, lastInsertRowid } = statement.run(parameters);
  return { rows: [], numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid) };
}

/**
 * The kysely driver over better-sqlite3. Transactions are `BEGIN IMMEDIATE` on the writer, one at a
 * time (a mutex), so the write lock is taken up front and a busy file waits out the busy timeout
 * instead of failing half-way. Outside a transaction, a SELECT runs on the reader (committed state,
 * never blocked by an open transaction); anything else waits its turn on the writer, so it never
 * lands inside someone else's transaction.
 */
class SqliteDriver implements Driver {
  readonly #connections: SqliteConnections;
  readonly #mutex: Mutex;
  readonly #disposeLock: () => void;
  readonly #prepareWriter: (sql: string) => Statement;
  readonly #prepareReader: ((sql: string) => Statement) | null;
  readonly #held = new WeakMap<DatabaseConnection, () => void>();

  constructor(connections: SqliteConnections) {
    this.#connections = connections;
    const lock = acquireFileLock(connections.file);
    this.#mutex = lock.mutex;
    this.#disposeLock = lock.dispose;
    this.#prepareWriter = statementCache(connections.writer);
    this.#prepareReader = connections.reader ? statementCache(connections.reader) : null;
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection: DatabaseConnection = {
      executeQuery: async <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
        if (this.#held.has(connection)) return execute<R>(this.#prepareWriter, query);
        if (this.#prepareReader && SelectQueryNode.is(query.query))
          return execute<R>(this.#prepareReader, query);
        const release = await this.#mutex.lock();
        try {
          return execute<R>(this.#prepareWriter, query);
        } finally {
          release();
        }
      },
      streamQuery: () => {
        throw new Error('Streaming is not supported by the Flagstaff SQLite driver.');
      },
    };
    return connection;
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const release = await this.#mutex.lock();
    try {
      this.#connections.writer.exec('begin immediate');
    } catch (error) {
      release();
      throw error;
    }
    this.#held.set(connection, release);
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    // A failed commit leaves the transaction open; kysely then calls rollback, which releases.
    this.#connections.writer.exec('commit');
    this.#release(connection);
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      // SQLite may already have rolled back by itself (e.g. on SQLITE_FULL).
      if (this.#connections.writer.inTransaction) this.#connections.writer.exec('rollback');
    } finally {
      this.#release(connection);
    }
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    this.#release(connection);
  }

  async destroy(): Promise<void> {
    // Wait for a running transaction rather than closing the file under it.
    const release = await this.#mutex.lock();
    try {
      await this.#connections.stopCheckpoints?.();
      // SQLite's advice for long-lived files: refresh planner statistics where they have gone stale.
      try {
        this.#connections.writer.pragma('optimize');
      } catch {
        // Never worth failing a close over (e.g. a read-only file).
      }
      this.#connections.reader?.close();
      this.#connections.writer.close();
    } finally {
      release();
      this.#disposeLock();
    }
  }

  #release(connection: DatabaseConnection): void {
    const release = this.#held.get(connection);
    this.#held.delete(connection);
    release?.();
  }
}

/** SQLite runs DDL inside transactions, so migrations apply all-or-nothing (kysely assumes not). */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/** The kysely dialect for a store's better-sqlite3 connections. */
export function flagstaffSqliteDialect(connections: SqliteConnections): Dialect {
  return {
    createAdapter: () => new TransactionalDdlSqliteAdapter(),
    createDriver: () => new SqliteDriver(connections),
    createIntrospector: (db: Kysely<unknown>) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  };
}
