import type { Logger, Store } from '@flagstaff/core';
import { sqliteStore } from '@flagstaff/store-sqlite';
import type { DatabaseConfig } from './config.js';

type PostgresModule = {
  postgresStore?: (options: {
    connectionString: string;
    statementTimeoutMs?: number;
    logger?: Logger;
  }) => Promise<Store> | Store;
};

/** Opens the configured store; PostgreSQL's driver is loaded only when it is used. */
export async function openStore(database: DatabaseConfig, logger: Logger): Promise<Store> {
  if (database.kind === 'sqlite') return sqliteStore({ filename: database.filename, logger });
  const pg = (await import('@flagstaff/store-postgres')) as unknown as PostgresModule;
  if (typeof pg.postgresStore !== 'function')
    throw new Error(
      'This build of @flagstaff/store-postgres has no postgresStore; use an SQLite DATABASE_URL.',
    );
  return pg.postgresStore({
    connectionString: database.url,
    ...(database.statementTimeoutMs !== undefined && { statementTimeoutMs: database.statementTimeoutMs }),
    logger,
  });
}
