import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { FlagstaffError, type Logger, type Store } from '@flagstaff/core';
import { mapDriverError, openSqlStore, storeUnavailable } from '@flagstaff/store-sql';
import Database from 'better-sqlite3';
import { sqliteDialect } from './sqlite-dialect.js';
import { flagstaffSqliteDialect, type SqliteConnections } from './sqlite-driver.js';

export interface SqliteStoreOptions {
  /** The database file (created, with its directory, when missing), or `:memory:` for a private, throw-away database. */
  filename: string;
  /** How long a write waits for another process holding the file's lock before STORE_UNAVAILABLE; 5000 ms by default. */
  busyTimeoutMs?: number;
  /** Where failing `onEventsAppended` listeners are reported. */
  logger?: Logger;
}

const isMemory = (filename: string): boolean => filename === ':memory:' || filename === '';

function openConnections(filename: string, busyTimeoutMs: number): SqliteConnections {
  if (isMemory(filename)) {
    // One connection: an in-memory database cannot be shared, so reads outside a transaction queue behind it.
    return { writer: new Database(':memory:', { timeout: busyTimeoutMs }), reader: null, file: null };
  }
  const file = resolve(filename);
  mkdirSync(dirname(file), { recursive: true });
  const writer = new Database(filename, { timeout: busyTimeoutMs });
  try {
    // WAL: readers never block the writer nor see its uncommitted work; NORMAL sync is durable
    // across application crashes in WAL mode and much faster than FULL.
    writer.pragma('journal_mode = WAL');
    writer.pragma('synchronous = NORMAL');
    const reader = new Database(filename, { readonly: true, timeout: busyTimeoutMs });
    return { writer, reader, file };
  } catch (error) {
    writer.close();
    throw error;
  }
}

/** A Flagstaff store on an SQLite file (better-sqlite3), migrated on open. */
export async function sqliteStore(options: SqliteStoreOptions): Promise<Store> {
  const name = `sqlite:${options.filename}`;
  let connections: SqliteConnections;
  try {
    connections = openConnections(options.filename, options.busyTimeoutMs ?? 5000);
  } catch (error) {
    const mapped = mapDriverError(
      { name, classifyError: sqliteDialect.classifyError, isClosed: () => false },
      error,
    );
    if (mapped instanceof FlagstaffError) throw mapped;
    throw storeUnavailable(name, error instanceof Error ? error.message : String(error), error);
  }
  return openSqlStore({
    name,
    dialect: sqliteDialect,
    kyselyDialect: flagstaffSqliteDialect(connections),
    logger: options.logger,
  });
}
