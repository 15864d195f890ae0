import type { UserRecord } from '../../domain/user.js';
import type { Repositories } from '../../ports/repositories.js';
import type { Actor } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';
import { userView } from './user-view.js';

/**
 * Stores a new password hash, ends the user's sessions (all, or all but `keepIdHash`) and writes
 * user-updated. The event says that the password changed, never what it is or its hash.
 *
 * `revokeTokens` also deletes the user's personal access tokens. A reset by an Admin (directly or
 * through a reset link) does: it is how an account someone else may control is taken back, and a
 * token made by that someone must not outlive it. A user changing their own password keeps their
 * tokens: they proved the old password and made those tokens themselves; they delete any they doubt.
 */
export async function storePassword(
  tx: Repositories,
  actor: Actor,
  before: UserRecord,
  passwordHash: string,
  keepIdHash: string | undefined,
  at: string,
  revokeTokens = false,
): Promise<void> {
  const after: UserRecord = { ...before, passwordHash };
  await tx.users.update(after);
  await tx.sessions.deleteForUser(before.id, keepIdHash);
  const revoked = revokeTokens ? await tx.personalTokens.deleteForUser(before.id) : 0;
  const data = {
    ...userView(after),
    passwordChanged: true,
    ...(revoked > 0 ? { personalTokensRevoked: revoked } : {}),
  };
  await writeEvents(tx, actor, at, [{ type: 'user-updated', data, preData: userView(before) }]);
}
