import type { Logger, Store } from '@flagstaff/core';
import { sqliteStore } from '@flagstaff/store-sqlite';
import type { DatabaseConfig } from './config.js';

/** Opens the configured store; PostgreSQL's driver is loaded only when it is used. */
export async function openStore(database: DatabaseConfig, logger: Logger): Promise<Store> {
  if (database.kind === 'sqlite') return sqliteStore({ filename: database.filename, logger });
  const { postgresStore } = await import('@flagstaff/store-postgres');
  return postgresStore({
    connectionString: database.url,
    ...(database.statementTimeoutMs !== undefined && { statementTimeoutMs: database.statementTimeoutMs }),
    logger,
  });
}
