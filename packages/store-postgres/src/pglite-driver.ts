import {
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import { INSTANCE_SETTING } from './postgres-dialect.js';

/** The part of a PGlite instance the store uses (structural, so PGlite stays an optional dependency). */
export interface PGliteLike {
  query<T>(query: string, params?: unknown[]): Promise<{ rows: T[]; affectedRows?: number }>;
  listen(channel: string, callback: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/**
 * PGlite is one session. Stores sharing an instance take turns through one lock per instance, and
 * each sets its own search_path when its turn starts (the session has only one).
 */
interface InstanceState {
  tail: Promise<void>;
  searchPath: string | null;
}
const instances = new WeakMap<PGliteLike, InstanceState>();

function stateOf(pglite: PGliteLike): InstanceState {
  let state = instances.get(pglite);
  if (!state) {
    state = { tail: Promise.resolve(), searchPath: null };
    instances.set(pglite, state);
  }
  return state;
}

/** Runs `fn` while holding the instance's turn. */
export async function withInstance<T>(pglite: PGliteLike, fn: () => Promise<T>): Promise<T> {
  const release = await lockInstance(pglite);
  try {
    return await fn();
  } finally {
    release();
  }
}

async function lockInstance(pglite: PGliteLike): Promise<() => void> {
  const state = stateOf(pglite);
  let release = (): void => {};
  const next = new Promise<void>((resolve) => {
    release = resolve;
  });
  const previous = state.tail;
  state.tail = previous.then(() => next);
  await previous;
  return release;
}

class PGliteDriver implements Driver {
  readonly #pglite: PGliteLike;
  readonly #searchPath: string;
  readonly #held = new WeakMap<DatabaseConnection, () => void>();
  readonly #instanceId: string;

  constructor(pglite: PGliteLike, schema: string | undefined, instanceId: string) {
    this.#pglite = pglite;
    this.#instanceId = instanceId;
    // A store without a schema resets the path another store on the instance may have set.
    this.#searchPath =
      schema === undefined
        ? 'set search_path to default'
        : `set search_path to "${schema.replaceAll('"', '""')}"`;
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await lockInstance(this.#pglite);
    const state = stateOf(this.#pglite);
    try {
      if (state.searchPath !== this.#searchPath) {
        await this.#pglite.query(this.#searchPath);
        state.searchPath = this.#searchPath;
      }
    } catch (error) {
      release();
      throw error;
    }
    const pglite = this.#pglite;
    const connection: DatabaseConnection = {
      async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
        const result = await pglite.query<R>(query.sql, [...query.parameters]);
        return {
          rows: result.rows,
          ...(result.affectedRows !== undefined && { numAffectedRows: BigInt(result.affectedRows) }),
        };
      },
      streamQuery: () => {
        throw new Error('Streaming is not supported by the Flagstaff PGlite driver.');
      },
    };
    this.#held.set(connection, release);
    return connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    // One session: transactions already run one at a time, whatever isolation they ask for.
    const { isolationLevel } = settings;
    await connection.executeQuery(
      CompiledQuery.raw(isolationLevel ? `start transaction isolation level ${isolationLevel}` : 'begin'),
    );
    // Names the store instance in the events notice (see INSTANCE_SETTING).
    await connection.executeQuery(
      CompiledQuery.raw('select set_config($1, $2, true)', [INSTANCE_SETTING, this.#instanceId]),
    );
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const release = this.#held.get(connection);
    this.#held.delete(connection);
    release?.();
  }

  async destroy(): Promise<void> {}
}

/** The kysely dialect over a PGlite instance (PostgreSQL compiled to WebAssembly). */
export function pgliteDialect(pglite: PGliteLike, schema: string | undefined, instanceId: string): Dialect {
  return {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new PGliteDriver(pglite, schema, instanceId),
    createIntrospector: (db: Kysely<unknown>) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  };
}
