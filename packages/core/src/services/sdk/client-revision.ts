import type { Store } from '../../ports/store.js';

/** How long a revision heard of through notifications is trusted before the store is asked again. */
export const DEFAULT_REVALIDATE_MS = 1000;

export interface RevisionWatchOptions {
  /**
   * The longest a known revision is trusted without asking the store (default 1 s). Notifications
   * make it exact for every writer the store can hear (this process; other processes on
   * PostgreSQL); this bound covers writers it cannot (a second process on the same SQLite file)
   * and a notification channel that dropped.
   */
  revalidateMs?: number;
  now?: () => number;
}

/**
 * The configuration revision, known without a query while nothing was written: store notifications
 * mark it stale, so the hot SDK paths (a 304, a payload already built) touch no store at all.
 * Subscribers hear each new revision once, whoever wrote it.
 */
export function createRevisionWatch(
  store: Store,
  readRevision: () => Promise<number>,
  options: RevisionWatchOptions = {},
) {
  const revalidateMs = options.revalidateMs ?? DEFAULT_REVALIDATE_MS;
  const now = options.now ?? Date.now;
  // Bumped by every notice: a read that started before one may have missed the write it announces.
  let generation = 0;
  let known: { revision: number; at: number; generation: number } | null = null;
  let reading: Promise<number> | null = null;
  let published = -1;
  let stopped = false;
  const listeners = new Set<(revision: number) => void>();
  let timer: ReturnType<typeof setInterval> | null = null;

  function publish(revision: number): void {
    if (revision <= published) return;
    published = revision;
    for (const listener of [...listeners]) listener(revision);
  }

  async function read(): Promise<number> {
    const started = generation;
    const revision = await readRevision();
    if (started === generation) known = { revision, at: now(), generation };
    if (published >= 0) publish(revision);
    return revision;
  }

  function fresh(): number | null {
    if (known === null || known.generation !== generation) return null;
    return now() - known.at < revalidateMs ? known.revision : null;
  }

  /** Reads at once (once for every caller waiting); notices coalesce into the next read. */
  function current(): Promise<number> | number {
    const revision = fresh();
    if (revision !== null) return revision;
    reading ??= read().finally(() => {
      reading = null;
    });
    return reading;
  }

  const unsubscribe = store.onEventsAppended?.(() => {
    generation++;
    // Subscribers want the change as soon as it is committed, not at their next request.
    if (listeners.size > 0 && !stopped) void Promise.resolve(current()).catch(() => undefined);
  });

  return {
    /** The current revision: a number at once while it is known, else a promise of one store read. */
    current,
    /**
     * Calls `listener` with every revision newer than the last one published. While anyone listens,
     * the store is also read every `revalidateMs` for writers notifications do not reach.
     */
    subscribe(listener: (revision: number) => void): () => void {
      listeners.add(listener);
      if (published < 0) published = 0;
      if (timer === null && !stopped) {
        timer = setInterval(() => {
          known = null;
          void Promise.resolve(current()).catch(() => undefined);
        }, revalidateMs);
        timer.unref?.();
      }
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && timer !== null) {
          clearInterval(timer);
          timer = null;
        }
      };
    },
    /** Stops listening to the store and forgets every subscriber. */
    stop(): void {
      stopped = true;
      unsubscribe?.();
      listeners.clear();
      if (timer !== null) clearInterval(timer);
      timer = null;
    },
  };
}

export type RevisionWatch = ReturnType<typeof createRevisionWatch>;
