import { randomUUID } from 'node:crypto';
import { type Logger, type Store, silentLogger } from '@flagstaff/core';
import { type ListenForEvents, openSqlStore } from '@flagstaff/store-sql';
import { CompiledQuery, type Dialect, type Driver, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { beginStatement, EVENTS_CHANNEL, isForeignNotice, postgresDialect } from './postgres-dialect.js';

/** The pg driver, beginning plain transactions with `begin` (a raw, parameterless statement). */
function beginningWith(inner: Dialect, begin: CompiledQuery): Dialect {
  return {
    createAdapter: () => inner.createAdapter(),
    createIntrospector: (db) => inner.createIntrospector(db),
    createQueryCompiler: () => inner.createQueryCompiler(),
    createDriver: (): Driver => {
      const driver = inner.createDriver();
      return {
        init: () => driver.init(),
        acquireConnection: () => driver.acquireConnection(),
        beginTransaction: async (connection, settings) => {
          if (settings.isolationLevel !== undefined || settings.accessMode !== undefined)
            return driver.beginTransaction(connection, settings);
          await connection.executeQuery(begin);
        },
        commitTransaction: (connection) => driver.commitTransaction(connection),
        rollbackTransaction: (connection) => driver.rollbackTransaction(connection),
        releaseConnection: (connection) => driver.releaseConnection(connection),
        destroy: () => driver.destroy(),
        ...(driver.savepoint && { savepoint: driver.savepoint.bind(driver) }),
        ...(driver.rollbackToSavepoint && { rollbackToSavepoint: driver.rollbackToSavepoint.bind(driver) }),
        ...(driver.releaseSavepoint && { releaseSavepoint: driver.releaseSavepoint.bind(driver) }),
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
  // Every transaction takes the store's lock first; sending it with `begin` saves a round trip.
  const kyselyDialect = beginningWith(pgDialect, CompiledQuery.raw(beginStatement(label)));
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
