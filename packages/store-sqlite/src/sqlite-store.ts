import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { FlagstaffError, type Logger, type Store } from '@flagstaff/core';
import { mapDriverError, openSqlStore, storeUnavailable } from '@flagstaff/store-sql';
import Database from 'better-sqlite3';
import { checkpointInBackground } from './checkpointer.js';
import { sqliteDialect } from './sqlite-dialect.js';
import { flagstaffSqliteDialect, type SqliteConnections } from './sqlite-driver.js';

export interface SqliteStoreOptions {
  /** The database file (created, with its directory, when missing), or `:memory:` for a private, throw-away database. */
  filename: string;
  /** How long a write waits for another process holding the file's lock before STORE_UNAVAILABLE; 5000 ms by default. */
  busyTimeoutMs?: number;
  /** Where failing `onEventsAppended` listeners are reported. */
  logger?: Logger;
  /**
   * How often a background thread checkpoints the WAL into the database file (250 ms by default),
   * so commits never pay for it; 0 leaves checkpoints to SQLite, inside the commit that fills the
   * WAL past 1,000 pages.
   */
  checkpointIntervalMs?: number;
}

/** WAL pages after which a commit checkpoints by itself: SQLite's default, and the fallback. */
const INLINE_CHECKPOINT_PAGES = 1000;
/** With background checkpoints, the inline one only bounds the WAL (~40 MB) if they fall behind. */
const BACKSTOP_CHECKPOINT_PAGES = 10_000;

const isMemory = (filename: string): boolean => filename === ':memory:' || filename === '';

/**
 * Creates the directory (0700) and the database file (0600) before SQLite does: SQLite would
 * create them readable by every local user (0755/0644 under the usual umask), and it gives the
 * -wal and -shm files the database file's mode. Files left readable by others by an earlier
 * version are tightened; a file we may not chmod (another owner) is reported, not fatal.
 */
function createPrivately(file: string, logger: Logger | undefined): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  closeSync(openSync(file, 'a', 0o600));
  for (const path of [file, `${file}-wal`, `${file}-shm`]) {
    if (!existsSync(path)) continue;
    const mode = statSync(path).mode & 0o777;
    if ((mode & 0o077) === 0) continue;
    try {
      chmodSync(path, mode & 0o700);
    } catch (error) {
      logger?.warn('the database file is readable by other users and could not be made private', {
        file: path,
        error: String(error),
      });
    }
  }
}

function openConnections(
  filename: string,
  busyTimeoutMs: number,
  checkpointIntervalMs: number,
  logger: Logger | undefined,
): SqliteConnections {
  if (isMemory(filename)) {
    // One connection: an in-memory database cannot be shared, so reads outside a transaction queue behind it.
    return {
      writer: new Database(':memory:', { timeout: busyTimeoutMs }),
      reader: null,
      file: null,
      stopCheckpoints: null,
    };
  }
  const file = resolve(filename);
  createPrivately(file, logger);
  const writer = new Database(filename, { timeout: busyTimeoutMs });
  try {
    // WAL: readers never block the writer nor see its uncommitted work; NORMAL sync is durable
    // across application crashes in WAL mode and much faster than FULL.
    writer.pragma('journal_mode = WAL');
    writer.pragma('synchronous = NORMAL');
    const reader = new Database(filename, { readonly: true, timeout: busyTimeoutMs });
    if (checkpointIntervalMs <= 0) return { writer, reader, file, stopCheckpoints: null };
    writer.pragma(`wal_autocheckpoint = ${BACKSTOP_CHECKPOINT_PAGES}`);
    const stopCheckpoints = checkpointInBackground(file, {
      intervalMs: checkpointIntervalMs,
      onFailure: (message) => {
        logger?.warn('background WAL checkpoints failed; commits checkpoint by themselves again', {
          file,
          error: message,
        });
        if (writer.open) writer.pragma(`wal_autocheckpoint = ${INLINE_CHECKPOINT_PAGES}`);
      },
    });
    return { writer, reader, file, stopCheckpoints };
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
    connections = openConnections(
      options.filename,
      options.busyTimeoutMs ?? 5000,
      options.checkpointIntervalMs ?? 250,
      options.logger,
    );
  } catch (error) {
    const mapped = mapDriverError(
      { name, classifyError: sqliteDialect.classifyError, isClosed: () => false },
      error,
    );
    if (mapped instanceof FlagstaffError) throw mapped;
    throw storeUnavailable(name, error instanceof Error ? error.message : String(error), error);
  }
  const { reader } = connections;
  return openSqlStore({
    name,
    dialect: sqliteDialect,
    kyselyDialect: flagstaffSqliteDialect(connections),
    logger: options.logger,
    // A private :memory: database has no reader and nothing that outlives the process to back up.
    backup: reader ? (destination) => backupFile(reader, destination) : undefined,
  });
}

/**
 * SQLite's online backup API on the read connection: the first step only sizes the copy, the
 * second copies every page at once, inside one read transaction (WAL: writers go on meanwhile), so
 * the file holds exactly the commits before that moment. Copying in slices would let a commit in
 * between restart the copy, for ever under steady writes.
 */
async function backupFile(reader: Database.Database, destination: string): Promise<void> {
  await reader.backup(destination, { progress: () => 0x7fffffff });
}
