import { createHash } from 'node:crypto';
import { callerOf } from '../../auth/caller.js';
import { type Principal, type ProjectVisibility, principalOfUser } from '../../auth/principal.js';
import { projectVisibility } from '../../auth/project-visibility.js';
import { noticeMayInclude } from '../../ports/store.js';
import type { Actor, ServiceDeps } from '../deps.js';
import { nowIso } from '../deps.js';
import { tokenCacheOf } from './token-cache.js';

/** Hash under which API token secrets are stored and looked up. */
export const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');

const RECENT_HASHES = 1000;

/**
 * `hashSecret`, remembered for the last secrets seen (the map empties when full): every request
 * presents its token, and a SHA-256 costs ~25 µs in Node 20. One per service instance, so a store's
 * secrets never outlive it in memory.
 */
function createSecretHasher(): (secret: string) => string {
  const recent = new Map<string, string>();
  return (secret) => {
    let hash = recent.get(secret);
    if (hash === undefined) {
      if (recent.size >= RECENT_HASHES) recent.clear();
      hash = hashSecret(secret);
      recent.set(secret, hash);
    }
    return hash;
  };
}

const SEEN_FLUSH_MS = 60_000;

/** Authentication of API tokens and users, and the permission model. */
export function createAccessService(deps: ServiceDeps) {
  const { store } = deps;
  const lastSeenWrite = new Map<string, number>();
  const tokens = tokenCacheOf(store);
  const hashPresentedSecret = createSecretHasher();

  /** Whether a use of `key` should be written now: at most once a minute each, so requests do not write. */
  const dueForSeenStamp = (key: string, now: number): boolean => {
    if (now - (lastSeenWrite.get(key) ?? 0) < SEEN_FLUSH_MS) return false;
    if (lastSeenWrite.size >= 10_000) lastSeenWrite.clear();
    lastSeenWrite.set(key, now);
    return true;
  };

  /** A personal access token acts as its user until it expires (or the user is gone). */
  async function personalToken(hash: string): Promise<Principal | null> {
    const pat = await store.personalTokens.getByHash(hash);
    const now = deps.clock.now().getTime();
    if (!pat || Date.parse(pat.expiresAt) <= now) return null;
    if (dueForSeenStamp(`pat:${pat.id}`, now))
      store
        .transaction((tx) => tx.personalTokens.markSeen(pat.id, nowIso(deps)))
        .catch((e: unknown) => deps.logger.warn('could not record token use', { error: String(e) }));
    const user = await store.users.get(pat.userId);
    return user ? principalOfUser(user) : null;
  }

  return {
    /**
     * Looks up an API token by its secret, then a personal access token (which acts as its user);
     * null when unknown or expired.
     */
    async authenticateToken(secret: string): Promise<Principal | null> {
      const hash = hashPresentedSecret(secret.trim());
      let token = tokens.get(hash);
      if (token === undefined) {
        const generation = tokens.generation;
        const found = await store.apiTokens.getByHash(hash);
        // Unknown secrets are not cached: a token created a moment later must work at once.
        if (!found) return personalToken(hash);
        tokens.remember(hash, found, generation);
        token = found;
      }
      const now = deps.clock.now();
      if (token.expiresAt && Date.parse(token.expiresAt) <= now.getTime()) return null;
      if (dueForSeenStamp(token.secretHash, now.getTime())) {
        // Usage stamps are best effort; a failed stamp must not fail the request.
        store
          .transaction((tx) => tx.apiTokens.markSeen([token.secretHash], now.toISOString()))
          .catch((e: unknown) => deps.logger.warn('could not record token use', { error: String(e) }));
      }
      return {
        kind: 'api-token',
        tokenType: token.type,
        name: token.tokenName,
        secretHash: token.secretHash,
        projects: token.projects,
        environment: token.environment,
      };
    },

    /**
     * Whether the API token with this secret hash still authenticates, read from the store (not
     * the cache): null once it is deleted or expired, else when it will expire. Long-lived
     * connections (SDK streams) ask it again on every token change.
     */
    async tokenState(secretHash: string): Promise<{ expiresAt: string | null } | null> {
      const token = await store.apiTokens.getByHash(secretHash);
      if (!token) return null;
      if (token.expiresAt && Date.parse(token.expiresAt) <= deps.clock.now().getTime()) return null;
      return { expiresAt: token.expiresAt ?? null };
    },

    /**
     * Calls `listener` after API tokens may have changed, in this process or (where the store can
     * tell) any other; returns an unsubscribe function. A no-op on stores without notices.
     */
    onTokensChanged(listener: () => void): () => void {
      return (
        store.onEventsAppended?.((notice) => {
          if (noticeMayInclude(notice, (type) => type.startsWith('api-token-'))) listener();
        }) ?? (() => {})
      );
    },

    /** The principal of a known user id (host apps that authenticate users themselves). */
    async userPrincipal(userId: number): Promise<Principal | null> {
      const user = await store.users.get(userId);
      if (!user) return null;
      if (dueForSeenStamp(`user:${user.id}`, deps.clock.now().getTime())) {
        // Like token stamps: best effort, at most once a minute, never failing the request.
        store
          .transaction((tx) => tx.users.markSeen(user.id, nowIso(deps)))
          .catch((e: unknown) => deps.logger.warn('could not record user activity', { error: String(e) }));
      }
      return principalOfUser(user);
    },

    /** The actor recorded in events for a principal. */
    actorOf(principal: Principal): Actor {
      return callerOf(principal).actor;
    },

    /** Which projects the principal may see (private projects hide from non-members). */
    visibleProjects: (principal: Principal): Promise<ProjectVisibility> =>
      projectVisibility(store, principal),
  };
}

export type AccessService = ReturnType<typeof createAccessService>;
