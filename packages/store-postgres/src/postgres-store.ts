import { randomUUID } from 'node:crypto';
import { FlagstaffError, type Logger, type Store, silentLogger } from '@flagstaff/core';
import { type ListenForEvents, openSqlStore, storeUnavailable } from '@flagstaff/store-sql';
import { sql } from 'kysely';
import pg from 'pg';
import { EVENTS_CHANNEL, isForeignNotice, postgresDialect } from './postgres-dialect.js';
import { pgDialect } from './postgres-driver.js';

/** Tries at taking the open lock before the open fails (the server refusing a connection under load). */
const OPEN_LOCK_ATTEMPTS = 3;

/** The statement timeout when none is configured. */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 30_000;

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
    | {
        connectionString: string;
        pool?: never;
        maxConnections?: number;
        /**
         * How long one statement may run before the server cancels it and the call fails with
         * STORE_UNAVAILABLE (the session's statement_timeout); 30000 ms by default, 0 sets none.
         * Migrations at open are exempt.
         */
        statementTimeoutMs?: number;
      }
    | {
        /**
         * A pool you own: the store never ends it, and holds one of its clients while someone
         * listens. Give its clients a statement_timeout yourself, and `plan_cache_mode =
         * force_custom_plan` (as the store does on its own pools: see `PgDriverOptions.customPlans`);
         * the store leaves their settings alone.
         */
        pool: pg.Pool;
        connectionString?: never;
        statementTimeoutMs?: never;
      }
  );

interface Listener {
  client: pg.ClientBase;
  done: () => Promise<void>;
}

/** LISTEN on a dedicated client for appends by other processes and store instances on the schema. */
export function listenVia(
  connect: () => Promise<Listener>,
  instanceId: string,
  logger: Logger,
): ListenForEvents {
  return async (onNotice, schema = '') => {
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
  const statementTimeoutMs = owned ? (options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS) : 0;
  if (!Number.isSafeInteger(statementTimeoutMs) || statementTimeoutMs < 0)
    throw new FlagstaffError(
      'VALIDATION',
      `statementTimeoutMs must be a whole number of milliseconds, 0 or more; got ${statementTimeoutMs}.`,
      { property: 'statementTimeoutMs' },
    );
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
  const storeName = `postgres${schema === undefined ? '' : `:${schema}`}`;
  const instanceId = randomUUID();
  let opened = false;
  const kyselyDialect = pgDialect({
    pool,
    // A pool we do not own must outlive the store.
    ownsPool: owned,
    schema,
    instanceId,
    statementTimeoutMs,
    // A pool we do not own keeps its plan cache mode, as it keeps its statement timeout.
    customPlans: owned,
    timeoutInForce: () => opened,
  });
  const connectListener = async (): Promise<Listener> => {
    if (!owned) {
      const client = await pool.connect();
      return { client, done: async () => client.release() };
    }
    const client = new pg.Client({ connectionString: options.connectionString, connectionTimeoutMillis });
    await client.connect();
    return { client, done: () => client.end() };
  };
  // Processes opening one schema at once migrate one after the other: kysely's migrator creates the
  // schema and its bookkeeping tables before it takes its own lock, and two at once could trip over
  // each other there. A session lock on a connection of its own spans the whole open.
  const lock = await takeOpenLockRetrying(schema ?? '');
  let store: Store;
  try {
    store = await open();
  } finally {
    await lock();
  }
  opened = true;
  return store;

  /**
   * The open lock, retried while the server is briefly unavailable (a busy server refusing one
   * connection). Opening without it could let two processes migrate one schema at once, so a lock
   * that cannot be had fails the open with STORE_UNAVAILABLE naming the store.
   */
  async function takeOpenLockRetrying(key: string): Promise<() => Promise<void>> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await takeOpenLock(key);
      } catch (error) {
        if (attempt < OPEN_LOCK_ATTEMPTS) {
          await new Promise((resolve) => setTimeout(resolve, 150 * attempt));
          continue;
        }
        if (owned) await pool.end().catch(() => undefined);
        const reason = error instanceof Error ? error.message : String(error);
        throw storeUnavailable(storeName, reason, error);
      }
    }
  }

  /** Takes the open lock on a connection of its own; resolves to its release. */
  async function takeOpenLock(key: string): Promise<() => Promise<void>> {
    const { client, done } = await connectListener();
    const name = `flagstaff:open:${key}`;
    try {
      await client.query('select pg_advisory_lock(hashtext($1))', [name]);
    } catch (error) {
      await done();
      throw error;
    }
    return async () => {
      await client.query('select pg_advisory_unlock(hashtext($1))', [name]).catch(() => undefined);
      await done();
    };
  }

  function open(): Promise<Store> {
    return openSqlStore({
      name: storeName,
      dialect: postgresDialect({ schema: schema ?? '' }),
      kyselyDialect,
      schema,
      logger,
      listen: listenVia(connectListener, instanceId, logger),
      beforeDestroy:
        options.dropSchemaOnClose && schema !== undefined
          ? async (db) => {
              await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db);
            }
          : undefined,
    });
  }
}
