import { createHash } from 'node:crypto';
import { createHashGate, type HashLimits } from '../../auth/hash-gate.js';
import { decoyHash, hashPassword, needsRehash, verifyPassword } from '../../auth/password.js';
import { type Principal, principalOfUser } from '../../auth/principal.js';
import { parseWith } from '../../domain/parse.js';
import { type LoginResult, loginSchema, type SessionRecord } from '../../domain/session.js';
import type { UserRecord } from '../../domain/user.js';
import { FlagstaffError } from '../../errors.js';
import type { ReadRepositories } from '../../ports/store.js';
import { inTransaction, type ServiceDeps } from '../deps.js';
import { createLoginThrottle, type LoginThrottleOptions } from './login-throttle.js';
import { userView } from './user-view.js';

/** Session lifetime and login throttling. */
export interface SessionOptions {
  /** A session unused this long ends (default 48 hours). */
  sessionIdleTtlMs?: number | undefined;
  loginThrottle?: LoginThrottleOptions | undefined;
  /** Password hashes in flight, overall and per client address (defaults in `DEFAULT_HASH_LIMITS`). */
  hashLimits?: HashLimits | undefined;
}

export const DEFAULT_SESSION_IDLE_TTL_MS = 48 * 60 * 60_000;
/** lastSeenAt is written at most this often per session, not on every request. */
const TOUCH_EVERY_MS = 60_000;
/** 32 random bytes, as 64 hex characters. */
const SESSION_ID_BYTES = 32;
const SESSION_ID = /^[0-9a-f]{64}$/;

/** The key a session is stored under: SHA-256 of its id, so a database leak gives no live session. */
export const hashSessionId = (sessionId: string): string =>
  createHash('sha256').update(sessionId).digest('hex');

// One message for an unknown user, a user without a password and a wrong password alike.
const badCredentials = (): FlagstaffError =>
  new FlagstaffError('UNAUTHENTICATED', 'The combination of password and username you provided is invalid.');

/** Finds the user a login name means: an e-mail address (any case) or an exact username. */
async function findLoginUser(repos: ReadRepositories, name: string): Promise<UserRecord | null> {
  if (name.includes('@')) {
    const byEmail = await repos.users.getByEmail(name);
    if (byEmail) return byEmail;
  }
  return repos.users.getByUsername(name);
}

/** Username/password login and the sessions it opens. */
export function createSessionService(deps: ServiceDeps & { sessions?: SessionOptions | undefined }) {
  const { store, clock } = deps;
  const idleTtlMs = deps.sessions?.sessionIdleTtlMs ?? DEFAULT_SESSION_IDLE_TTL_MS;
  if (!Number.isFinite(idleTtlMs) || idleTtlMs < TOUCH_EVERY_MS)
    throw new FlagstaffError('VALIDATION', `"sessionIdleTtlMs" must be at least ${TOUCH_EVERY_MS} ms.`, {
      path: 'sessionIdleTtlMs',
    });
  const throttle = createLoginThrottle(deps.sessions?.loginThrottle);
  const hashes = createHashGate(deps.sessions?.hashLimits);
  const expiry = (from: Date): string => new Date(from.getTime() + idleTtlMs).toISOString();

  /** Ends a session that can no longer be used; best effort, a failure only leaves it to expire. */
  const drop = (idHash: string): void => {
    store
      .transaction((tx) => tx.sessions.delete(idHash))
      .catch((error: unknown) =>
        deps.logger.warn('could not delete a dead session', { error: String(error) }),
      );
  };

  return {
    /**
     * Signs a user in with a username or e-mail address (e-mail in any case) and a password, and
     * opens a session. VALIDATION for a malformed body; UNAUTHENTICATED for wrong credentials, an
     * unknown user or a user without a password (one message for all three); RATE_LIMITED (details:
     * `retryAfterSeconds`) while the name is locked after too many failures, or at once, without
     * hashing, while too many hashes are in flight for this client address or overall. A success
     * clears the failures, stamps the user's seenAt and upgrades an outdated password hash.
     */
    async login(input: unknown): Promise<LoginResult> {
      const body = parseWith(loginSchema, input);
      const name = body.username.toLowerCase();
      await throttle.assertOpen(store, name, clock.now());
      // The hash check runs outside any transaction: it takes tens of milliseconds.
      const found = await findLoginUser(store, body.username);
      const stored = found?.passwordHash ?? null;
      // Every attempt, known name or not, takes a slot of the hash gate, so a refusal tells nothing.
      const { matches, rehashed } = await hashes.run(body.ip, async () => {
        // Without a hash to check, check a decoy: the answer takes as long either way.
        if (stored === null) {
          await verifyPassword(body.password, await decoyHash());
          return { matches: false, rehashed: null };
        }
        const ok = await verifyPassword(body.password, stored);
        return {
          matches: ok,
          rehashed: ok && needsRehash(stored) ? await hashPassword(body.password) : null,
        };
      });
      if (!found || !matches) {
        await inTransaction(deps, (tx) => throttle.recordFailure(tx, name, clock.now()));
        throw badCredentials();
      }
      const sessionId = deps.ids.randomHex(SESSION_ID_BYTES);
      return inTransaction(deps, async (tx) => {
        const now = clock.now();
        // Failures elsewhere may have locked the name while the hash was being checked.
        await throttle.assertOpen(tx, name, now);
        const user = await tx.users.get(found.id);
        if (!user || user.passwordHash !== stored) throw badCredentials();
        await throttle.clear(tx, name);
        await tx.sessions.deleteExpired(now.toISOString());
        const session: SessionRecord = {
          idHash: hashSessionId(sessionId),
          userId: user.id,
          createdAt: now.toISOString(),
          lastSeenAt: now.toISOString(),
          expiresAt: expiry(now),
          ip: body.ip ?? null,
        };
        await tx.sessions.insert(session);
        const updated: UserRecord = {
          ...user,
          seenAt: now.toISOString(),
          passwordHash: rehashed ?? user.passwordHash,
        };
        await tx.users.update(updated);
        return { user: userView(updated), sessionId, expiresAt: session.expiresAt };
      });
    },

    /**
     * The user principal of a live session, or null (unknown, expired, or the user is gone). The
     * user is read afresh on every call, so a changed root role applies at once. Extends the idle
     * lifetime, writing lastSeenAt at most once a minute per session.
     */
    async authenticate(sessionId: string): Promise<Principal | null> {
      if (typeof sessionId !== 'string' || !SESSION_ID.test(sessionId)) return null;
      const idHash = hashSessionId(sessionId);
      const session = await store.sessions.get(idHash);
      if (!session) return null;
      const now = clock.now();
      if (Date.parse(session.expiresAt) <= now.getTime()) {
        drop(idHash);
        return null;
      }
      const user = await store.users.get(session.userId);
      if (!user) {
        drop(idHash);
        return null;
      }
      if (now.getTime() - Date.parse(session.lastSeenAt) >= TOUCH_EVERY_MS) {
        store
          .transaction((tx) => tx.sessions.touch(idHash, now.toISOString(), expiry(now)))
          .catch((error: unknown) =>
            deps.logger.warn('could not record session use', { error: String(error) }),
          );
      }
      return principalOfUser(user);
    },

    /** Ends a session; unknown or malformed ids are ignored, so logging out twice is fine. */
    async logout(sessionId: string): Promise<void> {
      if (typeof sessionId !== 'string' || !SESSION_ID.test(sessionId)) return;
      const idHash = hashSessionId(sessionId);
      await store.transaction((tx) => tx.sessions.delete(idHash));
    },

    /** Ends every session of a user (e.g. "sign out everywhere"); returns how many ended. */
    async logoutUser(userId: number): Promise<number> {
      return store.transaction((tx) => tx.sessions.deleteForUser(userId));
    },

    /** Deletes expired sessions (logins do it too); for a periodic job. Returns how many. */
    async deleteExpired(): Promise<number> {
      const now = clock.now().toISOString();
      return store.transaction((tx) => tx.sessions.deleteExpired(now));
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
