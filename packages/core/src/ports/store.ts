import type { Repositories } from './repositories.js';

export type { Repositories };

/**
 * A Flagstaff store: every repository, and transactions over them.
 *
 * Reads outside `transaction` see committed state. Inside, `fn` gets repositories bound to one
 * transaction: everything it writes (state and events) commits together or not at all — a throw
 * from `fn` rolls everything back and rethrows. Transactions of one store are serializable with
 * respect to each other (the memory and SQLite stores run them one at a time).
 */
export interface Store extends Repositories {
  /** A short name for error messages and logs (`memory`, `sqlite:./data/x.db`, `postgres`). */
  readonly name: string;
  transaction<T>(fn: (tx: Repositories) => Promise<T>): Promise<T>;
  /** Releases connections; later calls fail with STORE_UNAVAILABLE naming the store. */
  close(): Promise<void>;
  /**
   * Subscribes to "events were appended" notices, including from other processes where the store
   * can tell (PostgreSQL LISTEN/NOTIFY). Returns an unsubscribe function.
   */
  onEventsAppended?(listener: () => void): () => void;
}
