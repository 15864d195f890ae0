import { FlagstaffError } from '../errors.js';
import type { Repositories } from '../ports/repositories.js';
import { type Logger, silentLogger } from '../ports/runtime-ports.js';
import type { Store } from '../ports/store.js';
import { createDatabase, type OpenSession, openSession } from './database.js';
import { type Area, bindRepositories, callMethod, sessionRepositories } from './repositories.js';

export interface MemoryStoreOptions {
  /** The store's name in error messages and logs; `memory` by default. */
  name?: string;
  /** Where failures of `onEventsAppended` listeners are reported. */
  logger?: Logger;
}

/**
 * Creates an in-process store that keeps everything in memory, seeded with the built-in roles.
 *
 * Transactions run one at a time. Each works on a private overlay of the committed tables, so a
 * rollback is dropping the overlay and reads outside see only committed state. A write outside a
 * transaction commits on its own, or queues behind the running transaction so that it never slips
 * into the middle of one (event ids then follow commit order). Inside a transaction, use the
 * repositories it is given: a write through the store itself would wait for that very transaction.
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): Store {
  const name = options.name ?? 'memory';
  const logger = options.logger ?? silentLogger;
  const db = createDatabase();
  const listeners = new Set<() => void>();
  let closed = false;
  let running: OpenSession | null = null;
  let queue: Promise<unknown> = Promise.resolve();

  const assertOpen = (): void => {
    if (closed) throw new FlagstaffError('STORE_UNAVAILABLE', `The ${name} store is closed.`);
  };

  const notify = (): void => {
    for (const listener of listeners) {
      try {
        listener();
      } catch (error) {
        logger.error('An onEventsAppended listener failed.', { store: name, error });
      }
    }
  };

  const transaction = <T>(fn: (tx: Repositories) => Promise<T>): Promise<T> => {
    const run = async (): Promise<T> => {
      assertOpen();
      const session = openSession(db);
      const repositories = sessionRepositories(session);
      let finished = false;
      const tx = bindRepositories(async (area, method, args) => {
        assertOpen();
        if (finished) {
          throw new FlagstaffError(
            'STORE_UNAVAILABLE',
            'The transaction has ended; its repositories are unusable.',
          );
        }
        return callMethod(repositories(area), method, args);
      });
      running = session;
      let appended = 0;
      let result: T;
      try {
        result = await fn(tx);
        assertOpen();
        appended = session.commit().length;
      } finally {
        finished = true;
        running = null;
      }
      if (appended > 0) notify();
      return result;
    };
    const result = queue.then(run);
    queue = result.catch(() => undefined);
    return result;
  };

  const outside = async (area: Area, method: string, args: unknown[]): Promise<unknown> => {
    assertOpen();
    // Memory repositories answer synchronously, so one call is atomic: try it on a fresh session
    // and keep the result if it only read, or if it wrote while no transaction was running.
    const session = openSession(db);
    const result = callMethod(sessionRepositories(session)(area), method, args);
    if (!session.dirty) return result;
    if (running !== null) {
      return transaction(async (tx) => callMethod(tx[area], method, args));
    }
    const appended = session.commit().length;
    if (appended > 0) notify();
    return result;
  };

  return {
    name,
    ...bindRepositories(outside),
    transaction,
    async close() {
      closed = true;
      listeners.clear();
    },
    onEventsAppended(listener) {
      assertOpen();
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
