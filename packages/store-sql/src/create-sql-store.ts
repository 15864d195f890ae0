import {
  type EventsAppended,
  type Logger,
  READ_METHODS,
  type ReadRepositories,
  type Repositories,
  type Store,
  silentLogger,
} from '@flagstaff/core';
import { type Dialect, Kysely, sql } from 'kysely';
import { createStoreCache, type RepoContext } from './context.js';
import type { Database } from './database.js';
import { guardDialect, mapDriverError, type StoreGuard, storeUnavailable } from './guarded-dialect.js';
import { migrateToLatest } from './migrations/index.js';
import { catchUpEventIndex } from './repositories/event-index.js';
import { createRepositories, repositoryFactories } from './repositories/index.js';
import type { SqlDialect } from './sql-dialect.js';

/**
 * Subscribes to "events appended" notices from other processes about the tables in `schema` (as the
 * database names it); resolves to an unsubscribe function.
 */
export type ListenForEvents = (
  onNotice: () => void,
  schema: string | undefined,
) => Promise<() => Promise<void>>;

export interface SqlStoreOptions {
  /** The store name for errors and logs (`sqlite:./data/flags.db`, `postgres`). */
  name: string;
  /** Where failing `onEventsAppended` listeners and notification problems are reported. */
  logger?: Logger | undefined;
  /** Cross-process notices (PostgreSQL LISTEN); without it only this process's appends are heard. */
  listen?: ListenForEvents | undefined;
  /** The schema the tables live in, as the database names it (PostgreSQL), for `listen`. */
  schema?: string | undefined;
  /** Runs while closing, after the store refuses calls but before its connections are released. */
  beforeDestroy?: ((db: Kysely<Database>) => Promise<void>) | undefined;
  /** Runs once the connections are released (e.g. ends an owned pool or deletes a file). */
  afterClose?: (() => Promise<void>) | undefined;
  /** Marks the store closed for the driver guard, before connections are released. */
  markClosed?: (() => void) | undefined;
  /** A consistent copy of the database into a new file (the port's `backup`); stores without one omit it. */
  backup?: ((destination: string) => Promise<void>) | undefined;
}

type Method = (...args: unknown[]) => Promise<unknown>;

/** How long after an append an event index written behind the log folds in the new events. */
const INDEX_CATCH_UP_MS = 200;

/** How often a transaction that keeps losing races with concurrent ones runs before the call fails. */
const MAX_RUNS = 12;
type Area = keyof Repositories;

/** What the lazily created repositories of one transaction share. */
interface TransactionState {
  readonly ctx: RepoContext;
  /** Rejects calls once the transaction has ended. */
  readonly guard: (fn: Method) => Method;
}

/**
 * The repositories of one transaction, each area created on first use (most commands touch 3–6 of
 * the 20 areas), every method refusing to run once the transaction has ended.
 */
function transactionRepositories(state: TransactionState): Repositories {
  const areas = new Map<PropertyKey, object>();
  const areaOf = (area: PropertyKey): object | undefined => {
    const known = areas.get(area);
    if (known) return known;
    const create: unknown = Reflect.get(repositoryFactories, area);
    if (typeof create !== 'function') return undefined;
    const methods = new Map<PropertyKey, Method>();
    const repository: object = new Proxy(create(state.ctx), {
      get(target, method) {
        let guarded = methods.get(method);
        if (!guarded) {
          const fn: unknown = Reflect.get(target, method);
          if (typeof fn !== 'function') return fn;
          guarded = state.guard((...args) => Reflect.apply(fn, target, args));
          methods.set(method, guarded);
        }
        return guarded;
      },
    });
    areas.set(area, repository);
    return repository;
  };
  // An empty target: every area comes from `areaOf`, typed by the port.
  return new Proxy({} as Repositories, { get: (_target, area) => areaOf(area) });
}

/**
 * A Store over a kysely handle whose dialect was wrapped with `guardDialect`. Reads outside a
 * transaction run directly; writes exist only inside `transaction`.
 */
export function createSqlStore(db: Kysely<Database>, dialect: SqlDialect, options: SqlStoreOptions): Store {
  const { name } = options;
  const logger = options.logger ?? silentLogger;
  const listeners = new Set<(notice: EventsAppended) => void>();
  const cache = createStoreCache();
  let closed = false;
  let stopListening: Promise<(() => Promise<void>) | null> | null = null;

  const notify = (notice: EventsAppended): void => {
    for (const listener of [...listeners]) {
      try {
        listener(notice);
      } catch (error) {
        logger.error('An onEventsAppended listener failed.', { store: name, error });
      }
    }
  };

  // An index written behind the log (SQLite's event search) catches up a moment after appends, a
  // batch at a time; a text search brings it up to date first anyway.
  const directContext: RepoContext = {
    db,
    dialect,
    recoverableConflicts: false,
    eventsAppended: (types) => notify({ types: new Set(types) }),
    afterCommit: (fn) => fn(),
    cache,
  };
  const behind = dialect.eventSearch.behind !== undefined;
  let catchUpTimer: ReturnType<typeof setTimeout> | null = null;
  let catchingUp: Promise<void> | null = null;
  const scheduleCatchUp = (): void => {
    if (!behind || catchUpTimer || closed) return;
    catchUpTimer = setTimeout(() => {
      catchUpTimer = null;
      if (closed) return;
      catchingUp = db
        .transaction()
        .execute((trx) => catchUpEventIndex({ ...directContext, db: trx }))
        .catch((error: unknown) => {
          logger.warn('Could not bring the event search index up to date; the next search will.', {
            store: name,
            error,
          });
        })
        .finally(() => {
          catchingUp = null;
        });
    }, INDEX_CATCH_UP_MS);
    catchUpTimer.unref?.();
  };

  const classify = (error: unknown) => dialect.classifyError(error);
  const serializable = dialect.transactions === 'serializable';

  /** One run of `fn` in a transaction; `lostRace` is set when a statement failed with a `retry` error. */
  const attempt = async <T>(
    fn: (tx: Repositories) => Promise<T>,
    lostRace: { value: boolean },
  ): Promise<T> => {
    let appended: Set<string> | null = null;
    let finished = false;
    const committed: (() => void)[] = [];
    try {
      const begin = db.transaction();
      const result = await (serializable ? begin.setIsolationLevel('serializable') : begin).execute(
        async (trx) => {
          const ctx: RepoContext = {
            db: trx,
            dialect,
            recoverableConflicts: dialect.failedStatementAbortsTransaction,
            eventsAppended: (types) => {
              appended ??= new Set();
              for (const type of types) appended.add(type);
            },
            afterCommit: (fn) => {
              committed.push(fn);
            },
            cache,
          };
          // Repositories of a finished transaction would run outside it; refuse instead. A race lost
          // inside is remembered even if `fn` catches the error: the transaction is aborted anyway.
          const tx = transactionRepositories({
            ctx,
            guard:
              (method) =>
              async (...args) => {
                if (finished)
                  throw storeUnavailable(name, 'the transaction has ended; its repositories are unusable');
                try {
                  return await method(...args);
                } catch (error) {
                  if (classify(error) === 'retry') lostRace.value = true;
                  throw error;
                }
              },
          });
          return await fn(tx);
        },
      );
      finished = true;
      for (const fn of committed) fn();
      if (appended) {
        notify({ types: appended });
        scheduleCatchUp();
      }
      return result;
    } finally {
      finished = true;
    }
  };

  /**
   * Runs `fn` in a transaction. Where transactions run concurrently (SERIALIZABLE), one that loses
   * a race with another (serialization failure, deadlock) is rolled back and `fn` runs again, after
   * a short random pause; nothing of a rolled-back run stays (its afterCommit hooks never run).
   */
  const runTransaction = async <T>(fn: (tx: Repositories) => Promise<T>): Promise<T> => {
    for (let run = 1; ; run++) {
      if (closed) throw storeUnavailable(name, 'the store is closed');
      const lostRace = { value: false };
      try {
        return await attempt(fn, lostRace);
      } catch (error) {
        const retry = serializable && (lostRace.value || classify(error) === 'retry');
        if (!retry) throw mapDriverError({ name, classifyError: classify, isClosed: () => closed }, error);
        if (run >= MAX_RUNS)
          throw storeUnavailable(
            name,
            `the transaction lost a race with concurrent ones ${MAX_RUNS} times in a row; try again`,
            error,
          );
        await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(2 ** run, 50)));
      }
    }
  };

  const direct = createRepositories(directContext);
  // Outside a transaction the store offers reads alone (the port's READ_METHODS); kysely refuses
  // queries once destroyed with its own error, so the closed check comes first.
  const outside: Partial<Record<Area, Readonly<Record<string, Method>>>> = {};
  for (const area of Object.keys(READ_METHODS) as Area[]) {
    const repository: object = direct[area];
    const methods: readonly string[] = READ_METHODS[area];
    outside[area] = Object.fromEntries(
      methods.map((method): [string, Method] => {
        const fn: Method = Reflect.get(repository, method);
        return [
          method,
          async (...args) => {
            if (closed) throw storeUnavailable(name, 'the store is closed');
            return fn(...args);
          },
        ];
      }),
    );
  }

  const startListening = (): void => {
    if (!options.listen || stopListening) return;
    stopListening = options
      .listen(() => notify({ types: null }), options.schema)
      .catch((error: unknown) => {
        logger.error('Could not listen for events appended by other processes.', { store: name, error });
        return null;
      });
  };
  const endListening = async (): Promise<void> => {
    const stopping = stopListening;
    stopListening = null;
    const stop = await stopping;
    await stop?.().catch((error: unknown) =>
      logger.warn('Could not stop listening.', { store: name, error }),
    );
  };

  const backup = options.backup;
  return {
    name,
    ...(outside as ReadRepositories),
    transaction: (fn) => runTransaction(fn),
    ...(backup && {
      async backup(destination: string) {
        if (closed) throw storeUnavailable(name, 'the store is closed');
        await backup(destination);
      },
    }),
    ...(dialect.kind === 'postgres' && {
      async refreshStatistics() {
        if (closed) throw storeUnavailable(name, 'the store is closed');
        await sql`analyze features, feature_environments, feature_tags, feature_strategies`.execute(db);
      },
    }),
    async close() {
      if (closed) return;
      closed = true;
      listeners.clear();
      if (catchUpTimer) clearTimeout(catchUpTimer);
      await catchingUp;
      await endListening();
      try {
        await options.beforeDestroy?.(db);
      } finally {
        options.markClosed?.();
        await db.destroy();
      }
      await options.afterClose?.();
    },
    onEventsAppended(listener) {
      if (closed) throw storeUnavailable(name, 'the store is closed');
      listeners.add(listener);
      startListening();
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) void endListening();
      };
    },
  };
}

export interface OpenSqlStoreOptions extends Omit<SqlStoreOptions, 'markClosed'> {
  dialect: SqlDialect;
  /** The kysely dialect over the driver; it is wrapped with the error and closed-store guard here. */
  kyselyDialect: Dialect;
  /** PostgreSQL schema for the migration bookkeeping tables. */
  schema?: string | undefined;
}

/** Opens a store: guards the driver, applies migrations, seeds built-in roles. */
export async function openSqlStore(options: OpenSqlStoreOptions): Promise<Store> {
  let closed = false;
  const guard: StoreGuard = {
    name: options.name,
    classifyError: (error) => options.dialect.classifyError(error),
    isClosed: () => closed,
  };
  const db = new Kysely<Database>({ dialect: guardDialect(options.kyselyDialect, guard) });
  let schema: string | undefined;
  try {
    schema = options.schema ?? (await options.dialect.defaultSchema(db));
    await migrateToLatest(db, options.dialect, { schema });
  } catch (error) {
    closed = true;
    await db.destroy().catch(() => undefined);
    await options.afterClose?.().catch(() => undefined);
    throw mapDriverError(guard, error);
  }
  return createSqlStore(db, options.dialect, {
    ...options,
    schema,
    markClosed: () => {
      closed = true;
    },
  });
}
