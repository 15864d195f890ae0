import type { ApiTokenRecord } from '../../domain/api-token.js';
import { noticeMayInclude, type Store } from '../../ports/store.js';

/**
 * How long a looked-up token is trusted without reading the store again. Changes made through this
 * process drop the cache at once, and so does every notice of token events and of events appended
 * elsewhere (another server on the same PostgreSQL hears a deletion within milliseconds, through
 * LISTEN/NOTIFY). This bound only covers writers a store cannot hear: a second process on the same
 * SQLite file.
 */
export const TOKEN_CACHE_MS = 1000;
const MAX_ENTRIES = 1000;

/** API tokens recently found by hash, shared by every service of one store in this process. */
export interface TokenCache {
  /** The cached token, or undefined when absent or older than `TOKEN_CACHE_MS`. */
  get(secretHash: string): ApiTokenRecord | undefined;
  /** A counter read before a store lookup; `remember` ignores results older than the last `invalidate`. */
  readonly generation: number;
  remember(secretHash: string, token: ApiTokenRecord, generation: number): void;
  /** Forgets every token; called once a change to tokens has committed. */
  invalidate(): void;
}

function createTokenCache(now: () => number = Date.now): TokenCache {
  const entries = new Map<string, { token: ApiTokenRecord; until: number }>();
  let generation = 0;
  return {
    get(secretHash) {
      const entry = entries.get(secretHash);
      if (entry === undefined) return undefined;
      if (entry.until > now()) return entry.token;
      entries.delete(secretHash);
      return undefined;
    },
    get generation() {
      return generation;
    },
    remember(secretHash, token, seen) {
      // A lookup that started before an invalidation may have read the old row.
      if (seen !== generation) return;
      if (entries.size >= MAX_ENTRIES) entries.clear();
      entries.set(secretHash, { token, until: now() + TOKEN_CACHE_MS });
    },
    invalidate() {
      generation++;
      entries.clear();
    },
  };
}

const caches = new WeakMap<Store, TokenCache>();
const isTokenEvent = (type: string): boolean => type.startsWith('api-token-');

/** The token cache of a store (one per store object, whatever the number of services over it). */
export function tokenCacheOf(store: Store): TokenCache {
  let cache = caches.get(store);
  if (cache === undefined) {
    const created = createTokenCache();
    // Every change to a token writes an api-token event: forget them all on a notice that may hold
    // one (a re-read per token in use). Other writes keep the cache, so a run of admin commands
    // does not read its token again for each. The store drops its listeners on close.
    store.onEventsAppended?.((notice) => {
      if (noticeMayInclude(notice, isTokenEvent)) created.invalidate();
    });
    caches.set(store, created);
    cache = created;
  }
  return cache;
}
