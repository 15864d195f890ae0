import { FlagstaffError } from '@flagstaff/core';
import type {
  CompiledQuery,
  DatabaseConnection,
  Dialect,
  Driver,
  QueryResult,
  TransactionSettings,
} from 'kysely';
import type { ErrorKind } from './sql-dialect.js';

/** What the guard needs to know about the store it protects. */
export interface StoreGuard {
  /** The store name, used in every error message. */
  readonly name: string;
  classifyError(error: unknown): ErrorKind | null;
  isClosed(): boolean;
}

/** STORE_UNAVAILABLE naming the store. */
export function storeUnavailable(name: string, reason: string, cause?: unknown): FlagstaffError {
  return new FlagstaffError(
    'STORE_UNAVAILABLE',
    `Store "${name}" is unavailable: ${reason}.`,
    { store: name },
    { cause },
  );
}

/** Turns a driver error into a core error where it has a core meaning; other errors pass through. */
export function mapDriverError(guard: StoreGuard, error: unknown): unknown {
  if (error instanceof FlagstaffError) return error;
  const kind = guard.classifyError(error);
  if (kind === 'unique') {
    const details = error as { constraint?: unknown; table?: unknown };
    return new FlagstaffError(
      'CONFLICT',
      'The resource already exists.',
      { store: guard.name, constraint: details.constraint, table: details.table },
      { cause: error },
    );
  }
  if (kind === 'unavailable') {
    const reason = error instanceof Error ? error.message : String(error);
    return storeUnavailable(guard.name, reason, error);
  }
  return error;
}

/**
 * Wraps a kysely dialect so that every error leaves it as a core error: unique violations become
 * CONFLICT, connection failures and a closed store STORE_UNAVAILABLE. Because the check sits in the
 * driver, no query can bypass it.
 */
export function guardDialect(inner: Dialect, guard: StoreGuard): Dialect {
  return {
    createAdapter: () => inner.createAdapter(),
    createQueryCompiler: () => inner.createQueryCompiler(),
    createIntrospector: (db) => inner.createIntrospector(db),
    createDriver: () => guardDriver(inner.createDriver(), guard),
  };
}

function guardDriver(driver: Driver, guard: StoreGuard): Driver {
  const connections = new WeakMap<DatabaseConnection, DatabaseConnection>();
  const originals = new WeakMap<DatabaseConnection, DatabaseConnection>();
  const unwrap = (connection: DatabaseConnection): DatabaseConnection =>
    originals.get(connection) ?? connection;
  const mapped = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      throw mapDriverError(guard, error);
    }
  };
  return {
    init: () => mapped(() => driver.init()),
    async acquireConnection() {
      if (guard.isClosed()) throw storeUnavailable(guard.name, 'the store is closed');
      let connection: DatabaseConnection;
      try {
        connection = await driver.acquireConnection();
      } catch (error) {
        // Failing to get a connection at all means the database cannot be reached, whatever the code.
        const mappedError = mapDriverError(guard, error);
        if (mappedError instanceof FlagstaffError) throw mappedError;
        throw storeUnavailable(guard.name, error instanceof Error ? error.message : String(error), error);
      }
      let wrapped = connections.get(connection);
      if (!wrapped) {
        wrapped = {
          executeQuery: <R>(query: CompiledQuery): Promise<QueryResult<R>> =>
            mapped(() => connection.executeQuery<R>(query)),
          streamQuery: <R>(query: CompiledQuery, chunkSize?: number) =>
            connection.streamQuery<R>(query, chunkSize),
        };
        connections.set(connection, wrapped);
        originals.set(wrapped, connection);
      }
      return wrapped;
    },
    beginTransaction: (c, settings: TransactionSettings) =>
      mapped(() => driver.beginTransaction(unwrap(c), settings)),
    commitTransaction: (c) => mapped(() => driver.commitTransaction(unwrap(c))),
    rollbackTransaction: (c) => mapped(() => driver.rollbackTransaction(unwrap(c))),
    releaseConnection: (c) => driver.releaseConnection(unwrap(c)),
    destroy: () => driver.destroy(),
    ...(driver.savepoint && {
      savepoint: (c, name, compile) => mapped(() => driver.savepoint!(unwrap(c), name, compile)),
    }),
    ...(driver.rollbackToSavepoint && {
      rollbackToSavepoint: (c, name, compile) =>
        mapped(() => driver.rollbackToSavepoint!(unwrap(c), name, compile)),
    }),
    ...(driver.releaseSavepoint && {
      releaseSavepoint: (c, name, compile) =>
        mapped(() => driver.releaseSavepoint!(unwrap(c), name, compile)),
    }),
  };
}
