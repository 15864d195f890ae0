import { FlagstaffError } from '../errors.js';
import type { Repositories } from '../ports/repositories.js';
import { type Logger, silentLogger } from '../ports/runtime-ports.js';
import type { EventsAppended, Store } from '../ports/store.js';
import { createDatabase, type OpenSession, openSession } from './database.js';
import {
  type Area,
  bindReadRepositories,
  bindRepositories,
  callMethod,
  sessionRepositories,
} from './repositories.js';

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
 * rollback is dropping the overlay and reads outside see only committed state. Writes happen only
 * inside `transaction`: the store itself offers reads alone.
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): Store {
  const name = options.name ?? 'memory';
  const logger = options.logger ?? silentLogger;
  const db = createDatabase();
  const listeners = new Set<(notice: EventsAppended) => void>();
  let closed = false;
  let _running: OpenSession | null = null;
  let queue: Promise<unknown> = Promise.resolve();

  const assertOpen = (): void => {
    if (closed) throw new FlagstaffError('STORE_UNAVAILABLE', `The ${name} store is closed.`);
  };

  const notify = (notice: EventsAppended): void => {
    for (const listener of listeners) {
      try {
        listener(notice);
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
      _running = session;
      let appended: readonly { event: { type: string } }[] = [];
      let result: T;
      try {
        result = await fn(tx);
        assertOpen();
        appended = session.commit();
      } finally {
        finished = true;
        _running = null;
      }
      if (appended.length > 0) notify({ types: new Set(appended.map((e) => e.event.type)) });
      return result;
    };
    const result = queue.then(run);
    queue = result.catch(() => undefined);
    return result;
  };

  /** Reads outside a transaction: committed state only (a fresh session sees no one's overlay). */
  const outside = async (area: Area, method: string, args: unknown[]): Promise<unknown> => {
    assertOpen();
    return callMethod(sessionRepositories(openSession(db))(area), method, args);
  };

  return {
    name,
    ...bindReadRepositories(outside),
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
