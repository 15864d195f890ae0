import { createHash } from 'node:crypto';
import {
  type DatabaseConnection,
  type Dialect,
  type Driver,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import type pg from 'pg';
import { INSTANCE_SETTING } from './postgres-dialect.js';

/** SQLSTATE of a statement the server cancelled: statement_timeout, or an operator's pg_cancel_backend. */
export const QUERY_CANCELED = '57014';

/** At most this many distinct statements get a name per store (each connection prepares those it runs). */
const MAX_NAMED = 500;

export interface PgDriverOptions {
  pool: pg.Pool;
  /** Whether the store owns the pool and ends it when it closes. */
  ownsPool: boolean;
  /** The schema the connections use (their search_path); the connection's default when undefined. */
  schema: string | undefined;
  /** Named in the events notice of this store's transactions (see `INSTANCE_SETTING`). */
  instanceId: string;
  /** The session statement_timeout each connection gets (0: none is set; the server's applies). */
  statementTimeoutMs: number;
  /**
   * Each connection plans every execution of a prepared statement for its values
   * (`plan_cache_mode = force_custom_plan`). Without it PostgreSQL may switch a statement to one
   * generic plan after five executions, and on skewed data that plan can be a cliff: the latest event
   * of each configuration type became a backward scan of every event for the types never written,
   * 2.5 s instead of 0.1 ms per toggle at 180,000 events. The statements still parse once.
   */
  customPlans: boolean;
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

const quoteIdentifier = (name: string): string => `"${name.replaceAll('"', '""')}"`;
const quoteLiteral = (value: string): string => `'${value.replaceAll("'", "''")}'`;

/** One pooled pg client as kysely sees it. */
class PgConnection implements DatabaseConnection {
  /** Whether the connection got its search_path, and (once in force) the statement timeout. */
  initialized = false;
  timed = false;

  constructor(
    readonly client: pg.PoolClient,
    private readonly driver: PgDriver,
  ) {}

  async executeQuery<R>(query: { sql: string; parameters: readonly unknown[] }): Promise<QueryResult<R>> {
    const { sql, parameters } = query;
    const values = [...parameters];
    // Parameterized statements run as named prepared statements (pg's own API): PostgreSQL parses
    // and plans each text once per connection, and pg skips sending it again. Statements without
    // parameters use the simple protocol, which also takes several statements in one message.
    const name = values.length > 0 ? this.driver.statementName(sql) : undefined;
    const result = await this.driver.explained(() =>
      name === undefined
        ? this.client.query<R & pg.QueryResultRow>(sql, values)
        : this.client.query<R & pg.QueryResultRow>({ name, text: sql, values }),
    );
    const { command, rowCount, rows } = result;
    const counted =
      command === 'INSERT' || command === 'UPDATE' || command === 'DELETE' || command === 'MERGE';
    return { rows: rows ?? [], ...(counted && { numAffectedRows: BigInt(rowCount ?? 0) }) };
  }

  // biome-ignore lint/correctness/useYield: streaming is not offered; the generator only refuses.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming is not supported by the Flagstaff PostgreSQL driver.');
  }
}

/**
 * A kysely driver over a pg pool. Each connection gets the store's search_path (and, on its own pools,
 * custom plans: see `customPlans`) when first used,
 * parameterized statements are prepared once per connection under names derived from their text,
 * and every transaction names the store instance (a transaction-local setting) in one message with
 * its `begin`, so the events notice the trigger sends says who appended.
 */
class PgDriver implements Driver {
  readonly #options: PgDriverOptions;
  readonly #connections = new WeakMap<pg.PoolClient, PgConnection>();
  readonly #names = new Map<string, string>();
  readonly #setup: string | null;
  readonly #applyTimeout: string;
  readonly #nameInstance: string;

  constructor(options: PgDriverOptions) {
    this.#options = options;
    const setup = [
      ...(options.schema === undefined ? [] : [`set search_path to ${quoteIdentifier(options.schema)}`]),
      ...(options.customPlans ? ['set plan_cache_mode = force_custom_plan'] : []),
    ];
    this.#setup = setup.length === 0 ? null : setup.join('; ');
    this.#applyTimeout = `set statement_timeout = ${Math.trunc(options.statementTimeoutMs)}`;
    this.#nameInstance = `select set_config(${quoteLiteral(INSTANCE_SETTING)}, ${quoteLiteral(options.instanceId)}, true)`;
  }

  /** The statement name for `sql`: a digest of the text, so a name never stands for two texts. */
  statementName(sql: string): string | undefined {
    let name = this.#names.get(sql);
    if (name === undefined && this.#names.size < MAX_NAMED) {
      name = `flagstaff_${createHash('sha1').update(sql).digest('base64url')}`;
      this.#names.set(sql, name);
    }
    return name;
  }

  async explained<T>(run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      throw explainCancel(error, this.#options.statementTimeoutMs);
    }
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const client = await this.#options.pool.connect();
    let connection = this.#connections.get(client);
    if (!connection) {
      connection = new PgConnection(client, this);
      this.#connections.set(client, connection);
    }
    try {
      if (!connection.initialized) {
        if (this.#setup !== null) await client.query(this.#setup);
        connection.initialized = true;
      }
      const { statementTimeoutMs, timeoutInForce } = this.#options;
      if (statementTimeoutMs > 0 && !connection.timed && timeoutInForce()) {
        await client.query(this.#applyTimeout);
        connection.timed = true;
      }
    } catch (error) {
      client.release(error instanceof Error ? error : true);
      this.#connections.delete(client);
      throw error;
    }
    return connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const { isolationLevel, accessMode } = settings;
    const begin = [
      isolationLevel === undefined ? 'begin' : `start transaction isolation level ${isolationLevel}`,
      ...(accessMode === undefined ? [] : [accessMode]),
    ].join(' ');
    await this.#simple(connection, `${begin}; ${this.#nameInstance}`);
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await this.#simple(connection, 'commit');
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await this.#simple(connection, 'rollback');
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    if (connection instanceof PgConnection) connection.client.release();
  }

  async destroy(): Promise<void> {
    if (this.#options.ownsPool) await this.#options.pool.end();
  }

  async #simple(connection: DatabaseConnection, sql: string): Promise<void> {
    if (!(connection instanceof PgConnection)) throw new Error('Not a connection of this driver.');
    await this.explained(() => connection.client.query(sql));
  }
}

/** The kysely dialect over a pg pool (see `PgDriver`). */
export function pgDialect(options: PgDriverOptions): Dialect {
  return {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new PgDriver(options),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  };
}
