import { randomUUID } from 'node:crypto';
import { type Logger, type Store, silentLogger } from '@flagstaff/core';
import { type ListenForEvents, openSqlStore } from '@flagstaff/store-sql';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  PostgresDialect,
  type QueryResult,
  sql,
} from 'kysely';
import pg from 'pg';
import {
  beginStatement,
  commitWithNotice,
  EVENTS_CHANNEL,
  isForeignNotice,
  NOTIFY_AT_COMMIT,
  postgresDialect,
} from './postgres-dialect.js';

/**
 * The pg driver, saving round trips: plain transactions begin with `begin` (the store's lock
 * included), and a transaction that appended events commits with its notice in the same message.
 */
function withFewerRoundTrips(inner: Dialect, begin: CompiledQuery, commitWithNotice: CompiledQuery): Dialect {
  return {
    createAdapter: () => inner.createAdapter(),
    createIntrospector: (db) => inner.createIntrospector(db),
    createQueryCompiler: () => inner.createQueryCompiler(),
    createDriver: (): Driver => {
      const driver = inner.createDriver();
      const wrappers = new WeakMap<DatabaseConnection, DatabaseConnection>();
      const originals = new WeakMap<DatabaseConnection, DatabaseConnection>();
      const noticeDue = new WeakSet<DatabaseConnection>();
      const original = (connection: DatabaseConnection): DatabaseConnection =>
        originals.get(connection) ?? connection;
      return {
        init: () => driver.init(),
        async acquireConnection() {
          const connection = await driver.acquireConnection();
          let wrapped = wrappers.get(connection);
          if (!wrapped) {
            const self: DatabaseConnection = {
              executeQuery: async <R>(query: CompiledQuery): Promise<QueryResult<R>> => {
                if (query.sql !== NOTIFY_AT_COMMIT) return connection.executeQuery<R>(query);
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
          await original(connection).executeQuery(begin);
        },
        async commitTransaction(connection) {
          if (!noticeDue.has(connection)) return driver.commitTransaction(original(connection));
          noticeDue.delete(connection);
          await original(connection).executeQuery(commitWithNotice);
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

interface CommonOptions {
  /**
   * The schema for the tables, created when missing (default: the connection's current schema,
   * usually `public`). The store sets `search_path` on the connections it uses.
   */
  schema?: string;
  /** Tests: drop the whole schema when the store closes. Never set this for real data. */
  dropSchemaOnClose?: boolean;
  /** How long to wait for a connection before STORE_UNAVAILABLE; 5000 ms by default. */
  connectionTimeoutMs?: number;
  /** Where idle-connection errors and failing listeners are reported. */
  logger?: Logger;
}

export type PostgresStoreOptions = CommonOptions &
  (
    | { connectionString: string; pool?: never; maxConnections?: number }
    | {
        /** A pool you own: the store never ends it, and holds one of its clients while someone listens. */
        pool: pg.Pool;
        connectionString?: never;
      }
  );

interface Listener {
  client: pg.ClientBase;
  done: () => Promise<void>;
}

/** LISTEN on a dedicated client for appends by other processes and store instances on the schema. */
export function listenVia(
  connect: () => Promise<Listener>,
  schema: string,
  instanceId: string,
  logger: Logger,
): ListenForEvents {
  return async (onNotice) => {
    const { client, done } = await connect();
    const handler = (message: pg.Notification): void => {
      if (message.channel === EVENTS_CHANNEL && isForeignNotice(message.payload, schema, instanceId))
        onNotice();
    };
    client.on('notification', handler);
    // A broken listening connection must not crash the process; notices stop until re-subscribed.
    client.on('error', (error) => logger.warn('The event notification connection failed.', { error }));
    await client.query(`listen ${EVENTS_CHANNEL}`);
    return async () => {
      client.off('notification', handler);
      await client.query(`unlisten ${EVENTS_CHANNEL}`).catch(() => undefined);
      await done();
    };
  };
}

/** A Flagstaff store on PostgreSQL (pg), migrated on open; `onEventsAppended` hears other processes too. */
export async function postgresStore(options: PostgresStoreOptions): Promise<Store> {
  const logger = options.logger ?? silentLogger;
  const connectionTimeoutMillis = options.connectionTimeoutMs ?? 5000;
  const owned = options.pool === undefined;
  const pool =
    options.pool ??
    new pg.Pool({
      connectionString: options.connectionString,
      connectionTimeoutMillis,
      max: options.maxConnections ?? 10,
      keepAlive: true,
    });
  // Without a listener, an idle client's error (say, a server restart) would crash the process.
  if (owned) pool.on('error', (error) => logger.warn('An idle PostgreSQL connection failed.', { error }));

  const schema = options.schema;
  const setPath =
    schema === undefined ? null : CompiledQuery.raw(`set search_path to "${schema.replaceAll('"', '""')}"`);
  const pgDialect = new PostgresDialect({
    // kysely ends the pool it is given on destroy; a pool we do not own must outlive the store.
    pool: owned ? pool : { connect: () => pool.connect(), end: async () => {} },
    ...(setPath && {
      onCreateConnection: async (connection) => {
        await connection.executeQuery(setPath);
      },
    }),
  });
  const instanceId = randomUUID();
  const label = schema ?? '';
  // Every transaction takes the store's lock with `begin`, and announces appended events with `commit`.
  const kyselyDialect = withFewerRoundTrips(
    pgDialect,
    CompiledQuery.raw(beginStatement(label)),
    CompiledQuery.raw(commitWithNotice(label, instanceId)),
  );
  const connectListener = async (): Promise<Listener> => {
    if (!owned) {
      const client = await pool.connect();
      return { client, done: async () => client.release() };
    }
    const client = new pg.Client({ connectionString: options.connectionString, connectionTimeoutMillis });
    await client.connect();
    return { client, done: () => client.end() };
  };
  return openSqlStore({
    name: `postgres${schema === undefined ? '' : `:${schema}`}`,
    dialect: postgresDialect({ schema: label, instanceId, lockedOnBegin: true }),
    kyselyDialect,
    schema,
    logger,
    listen: listenVia(connectListener, label, instanceId, logger),
    beforeDestroy:
      options.dropSchemaOnClose && schema !== undefined
        ? async (db) => {
            await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db);
          }
        : undefined,
  });
}
