import type { CompiledQuery, DatabaseConnection, Dialect, Driver, QueryResult } from 'kysely';
import { CompiledQuery as Compiled } from 'kysely';
import { NOTIFY_AT_COMMIT } from './postgres-dialect.js';

/** SQLSTATE of a statement the server cancelled: statement_timeout, or an operator's pg_cancel_backend. */
export const QUERY_CANCELED = '57014';

export interface PgDriverOptions {
  /** `begin` with the store's transaction lock, in one message. */
  begin: CompiledQuery;
  /** The events notice and `commit`, in one message. */
  commitWithNotice: CompiledQuery;
  /** The session statement_timeout each connection gets (0: none is set; the server's applies). */
  statementTimeoutMs: number;
  /**
   * False while the store migrates, so a migration's statements (an index built over a large table)
   * and its wait for another process's migration are never cut short; each connection gets the
   * timeout the first time it is used afterwards.
   */
  timeoutInForce: () => boolean;
}

/** A cancelled statement's error, saying which timeout applied (the code stays for classification). */
export function explainCancel(error: unknown, statementTimeoutMs: number): unknown {
  if ((error as { code?: unknown } | null)?.code !== QUERY_CANCELED) return error;
  const message = error instanceof Error ? error.message : String(error);
  const limit =
    statementTimeoutMs > 0
      ? `the store's statement timeout is ${statementTimeoutMs} ms (statementTimeoutMs)`
      : `SQLSTATE ${QUERY_CANCELED}`;
  return Object.assign(new Error(`${message}; ${limit}`, { cause: error }), { code: QUERY_CANCELED });
}

/**
 * The pg driver, saving round trips: plain transactions begin with `begin` (the store's lock
 * included), and a transaction that appended events commits with its notice in the same message.
 * It also applies the statement timeout and words a cancelled statement's error.
 */
export function withFewerRoundTrips(inner: Dialect, options: PgDriverOptions): Dialect {
  const { begin, commitWithNotice, statementTimeoutMs } = options;
  const applyTimeout = Compiled.raw(`set statement_timeout = ${Math.trunc(statementTimeoutMs)}`);
  const explained = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      throw explainCancel(error, statementTimeoutMs);
    }
  };
  return {
    createAdapter: () => inner.createAdapter(),
    createIntrospector: (db) => inner.createIntrospector(db),
    createQueryCompiler: () => inner.createQueryCompiler(),
    createDriver: (): Driver => {
      const driver = inner.createDriver();
      const wrappers = new WeakMap<DatabaseConnection, DatabaseConnection>();
      const originals = new WeakMap<DatabaseConnection, DatabaseConnection>();
      const timed = new WeakSet<DatabaseConnection>();
      const noticeDue = new WeakSet<DatabaseConnection>();
      const original = (connection: DatabaseConnection): DatabaseConnection =>
        originals.get(connection) ?? connection;
      return {
        init: () => driver.init(),
        async acquireConnection() {
          const connection = await driver.acquireConnection();
          if (statementTimeoutMs > 0 && !timed.has(connection) && options.timeoutInForce()) {
            try {
              await connection.executeQuery(applyTimeout);
            } catch (error) {
              await driver.releaseConnection(connection);
              throw error;
            }
            timed.add(connection);
          }
          let wrapped = wrappers.get(connection);
          if (!wrapped) {
            const self: DatabaseConnection = {
              executeQuery: async <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
                if (query.sql !== NOTIFY_AT_COMMIT) return explained(() => connection.executeQuery<R>(query));
                noticeDue.add(self);
                return { rows: [] };
              },
              streamQuery: (query, chunkSize) => connection.streamQuery(query, chunkSize),
            };
            wrapped = self;
            wrappers.set(connection, wrapped);
            originals.set(wrapped, connection);
          }
          return wrapped;
        },
        async beginTransaction(connection, settings) {
          noticeDue.delete(connection);
          if (settings.isolationLevel !== undefined || settings.accessMode !== undefined)
            return driver.beginTransaction(original(connection), settings);
          await explained(() => original(connection).executeQuery(begin));
        },
        async commitTransaction(connection) {
          if (!noticeDue.has(connection)) return driver.commitTransaction(original(connection));
          noticeDue.delete(connection);
          await explained(() => original(connection).executeQuery(commitWithNotice));
        },
        async rollbackTransaction(connection) {
          noticeDue.delete(connection);
          return driver.rollbackTransaction(original(connection));
        },
        releaseConnection: (connection) => driver.releaseConnection(original(connection)),
        destroy: () => driver.destroy(),
        ...(driver.savepoint && {
          savepoint: (connection, name, compile) => driver.savepoint!(original(connection), name, compile),
        }),
        ...(driver.rollbackToSavepoint && {
          rollbackToSavepoint: (connection, name, compile) =>
            driver.rollbackToSavepoint!(original(connection), name, compile),
        }),
        ...(driver.releaseSavepoint && {
          releaseSavepoint: (connection, name, compile) =>
            driver.releaseSavepoint!(original(connection), name, compile),
        }),
      };
    },
  };
}
