import { z } from 'zod';
import { decoyHash, hashPassword, needsRehash, verifyPassword } from '../../auth/password.js';
import { loginResultSchema, loginSchema, logoutSchema, type SessionRecord } from '../../domain/session.js';
import type { UserRecord } from '../../domain/user.js';
import { FlagstaffError } from '../../errors.js';
import { defineOperation } from '../../operations/define-operation.js';
import type { ReadRepositories } from '../../ports/store.js';
import { hashSessionId, SESSION_ID, SESSION_ID_BYTES } from './session-ids.js';
import { userView } from './user-view.js';

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

/**
 * Signs a user in with a username or e-mail address (e-mail in any case) and a password, and
 * opens a session. VALIDATION for a malformed body; UNAUTHENTICATED for wrong credentials, an
 * unknown user or a user without a password (one message for all three); RATE_LIMITED (details:
 * `retryAfterSeconds`) while the name is locked after too many failures, or at once, without
 * hashing, while too many hashes are in flight for this client address or overall. A success
 * clears the failures, stamps the user's seenAt and upgrades an outdated password hash.
 *
 * The password is checked before the transaction (it takes tens of milliseconds); a failure is
 * counted in a transaction of its own, which the refusal does not roll back.
 */
export const signIn = defineOperation({
  id: 'sessions.login',
  summary: 'Sign in with a username or e-mail and a password',
  kind: 'write',
  permission: 'PUBLIC',
  input: loginSchema,
  output: loginResultSchema,
  prepare: async (body, { deps, repos }) => {
    const { throttle, hashes } = deps.sessions;
    const name = body.username.toLowerCase();
    await throttle.assertOpen(repos, name, deps.clock.now());
    const found = await findLoginUser(repos, body.username);
    const stored = found?.passwordHash ?? null;
    // Every attempt, known name or not, takes a slot of the hash gate, so a refusal tells nothing.
    const { matches, rehashed } = await hashes.run(body.ip, async () => {
      // Without a hash to check, check a decoy: the answer takes as long either way.
      if (stored === null) {
        await verifyPassword(body.password, await decoyHash());
        return { matches: false, rehashed: null };
      }
      const ok = await verifyPassword(body.password, stored);
      return { matches: ok, rehashed: ok && needsRehash(stored) ? await hashPassword(body.password) : null };
    });
    if (!found || !matches) {
      await deps.store.transaction((tx) => throttle.recordFailure(tx, name, deps.clock.now()));
      throw badCredentials();
    }
    return { name, userId: found.id, stored, rehashed };
  },
  run: async (body, { deps, repos, prepared }) => {
    const { throttle, expiry } = deps.sessions;
    const sessionId = deps.ids.randomHex(SESSION_ID_BYTES);
    const now = deps.clock.now();
    // Failures elsewhere may have locked the name while the hash was being checked.
    await throttle.assertOpen(repos, prepared.name, now);
    const user = await repos.users.get(prepared.userId);
    if (!user || user.passwordHash !== prepared.stored) throw badCredentials();
    await throttle.clear(repos, prepared.name);
    await repos.sessions.deleteExpired(now.toISOString());
    const session: SessionRecord = {
      idHash: hashSessionId(sessionId),
      userId: user.id,
      createdAt: now.toISOString(),
      lastSeenAt: now.toISOString(),
      expiresAt: expiry(now),
      ip: body.ip ?? null,
    };
    await repos.sessions.insert(session);
    const updated: UserRecord = {
      ...user,
      seenAt: now.toISOString(),
      passwordHash: prepared.rehashed ?? user.passwordHash,
    };
    await repos.users.update(updated);
    return { user: userView(updated), sessionId, expiresAt: session.expiresAt };
  },
});

/** Ends a session; an unknown or malformed id is ignored, so signing out twice is fine. */
export const signOut = defineOperation({
  id: 'sessions.logout',
  summary: 'Sign out: end a session',
  kind: 'write',
  permission: 'PUBLIC',
  input: logoutSchema,
  output: z.void(),
  run: async ({ sessionId }, { repos }) => {
    if (sessionId === undefined || !SESSION_ID.test(sessionId)) return;
    await repos.sessions.delete(hashSessionId(sessionId));
  },
});
