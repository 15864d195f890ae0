import { callerOf } from '../../auth/caller.js';
import { type Principal, principalOfUser } from '../../auth/principal.js';
import type { LoginInput, LoginResult } from '../../domain/session.js';
import type { OperationRunner } from '../../operations/run-operation.js';
import type { ServiceDeps } from '../deps.js';
import { hashSessionId, SESSION_ID } from './session-ids.js';
import { signIn, signOut } from './session-operations.js';
import { type SessionRuntime, TOUCH_EVERY_MS } from './session-runtime.js';

export { hashSessionId } from './session-ids.js';
export { DEFAULT_SESSION_IDLE_TTL_MS, type SessionOptions } from './session-runtime.js';

/** Who signs in: nobody yet. */
const SIGNING_IN = callerOf({ kind: 'anonymous', name: 'anonymous' });

/**
 * Username/password login and the sessions it opens. `login` and `logout` are typed wrappers over
 * `session-operations.ts`, which HTTP serves too; authentication reads sessions on every request.
 */
export function createSessionService(deps: ServiceDeps, run: OperationRunner, runtime: SessionRuntime) {
  const { store, clock } = deps;
  const { expiry } = runtime;

  /** Ends a session that can no longer be used; best effort, a failure only leaves it to expire. */
  const drop = (idHash: string): void => {
    store
      .transaction((tx) => tx.sessions.delete(idHash))
      .catch((error: unknown) =>
        deps.logger.warn('could not delete a dead session', { error: String(error) }),
      );
  };

  return {
    /** Signs a user in and opens a session (operation `sessions.login`). */
    login: (input: LoginInput): Promise<LoginResult> => run(signIn, SIGNING_IN, input),

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
    logout: (sessionId: string): Promise<void> => run(signOut, SIGNING_IN, { sessionId }),

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
