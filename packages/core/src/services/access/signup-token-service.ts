import type { Caller } from '../../auth/caller.js';
import { hashPassword, validatePassword } from '../../auth/password.js';
import { parseWith } from '../../domain/parse.js';
import {
  type CreateSignupTokenInput,
  type SignupTokenRecord,
  type SignupTokenView,
  signupSchema,
  type UpdateSignupTokenInput,
} from '../../domain/signup-token.js';
import type { UserView } from '../../domain/user.js';
import { FlagstaffError, isFlagstaffError } from '../../errors.js';
import type { OperationRunner } from '../../operations/run-operation.js';
import type { ReadRepositories } from '../../ports/store.js';
import { type Actor, inTransaction, nowIso, type ServiceDeps } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';
import {
  createSignupToken,
  getSignupToken,
  isActive,
  listSignupTokens,
  signupTokenView,
  unknownLink,
  updateSignupToken,
} from './signup-token-operations.js';
import { insertUser } from './user-operations.js';

// Whoever holds an invite link must not learn from it which addresses or usernames have accounts.
const signupRefused = () =>
  new FlagstaffError(
    'VALIDATION',
    'Could not sign up with these details; check them, or ask an Admin of this Flagstaff for an account.',
  );

/**
 * Invite links (public signup tokens): whoever has one may join with the Viewer role. The Admin's
 * functions are typed wrappers over `signup-token-operations.ts`, which HTTP serves too.
 */
export function createSignupTokenService(
  deps: ServiceDeps & { baseUrl?: string | undefined },
  run: OperationRunner,
) {
  const { store } = deps;

  async function requireUsable(repos: ReadRepositories, secret: string): Promise<SignupTokenRecord> {
    const token = await repos.signupTokens.get(secret);
    if (!token) throw unknownLink();
    if (!token.enabled)
      throw new FlagstaffError('VALIDATION', `Invite link "${token.name}" is disabled.`, { path: 'invite' });
    if (!isActive(deps, token))
      throw new FlagstaffError('VALIDATION', `Invite link "${token.name}" has expired.`, { path: 'invite' });
    return token;
  }

  return {
    /** Every invite link, newest first (Admins). */
    list: async (caller: Caller): Promise<SignupTokenView[]> =>
      (await run(listSignupTokens, caller, {})).tokens,

    /** One invite link or NOT_FOUND (Admins). */
    get: (caller: Caller, secret: string): Promise<SignupTokenView> =>
      run(getSignupToken, caller, { secret }),

    /** Creates an invite link for the Viewer role (public-signup-token-created). */
    create: (caller: Caller, input: CreateSignupTokenInput): Promise<SignupTokenView> =>
      run(createSignupToken, caller, input),

    /** Changes expiresAt and/or enabled (public-signup-token-updated). */
    update: (caller: Caller, secret: string, input: UpdateSignupTokenInput): Promise<SignupTokenView> =>
      run(updateSignupToken, caller, { ...input, secret }),

    /** Throws unless the link can be used now: NOT_FOUND when unknown, VALIDATION when disabled or expired. */
    async validate(secret: string): Promise<SignupTokenView> {
      return signupTokenView(deps, store, await requireUsable(store, secret));
    },

    /**
     * Joins through an invite link: creates a Viewer user (user-created) and records that they used
     * the link (public-signup-token-user-added). VALIDATION naming `password` when it breaks the
     * password rules; VALIDATION with one message that names nothing when the e-mail or username is
     * taken, so the link cannot be used to find out who has an account.
     */
    async signup(secret: string, input: unknown): Promise<UserView> {
      const body = parseWith(signupSchema, input);
      if (body.password !== undefined) validatePassword(body.password, 'password');
      // Hashing takes tens of milliseconds: done before the transaction, not while holding it.
      const passwordHash = body.password === undefined ? null : await hashPassword(body.password);
      return inTransaction(deps, async (tx) => {
        const token = await requireUsable(tx, secret);
        const actor: Actor = { name: body.email, userId: null };
        const at = nowIso(deps);
        if (body.username !== undefined && (await tx.users.getByUsername(body.username)))
          throw signupRefused();
        const user = await insertUser(tx, actor, at, {
          name: body.name ?? null,
          email: body.email,
          username: body.username ?? null,
          rootRole: token.roleId,
          passwordHash,
        }).catch((error: unknown) => {
          // A taken e-mail (or a username taken meanwhile) says CONFLICT naming it: say nothing.
          throw isFlagstaffError(error, 'CONFLICT') ? signupRefused() : error;
        });
        await tx.signupTokens.addUser(secret, user.id, at);
        await writeEvents(tx, { name: body.email, userId: user.id }, at, [
          {
            type: 'public-signup-token-user-added',
            data: { name: token.name, userId: user.id, email: user.email },
          },
        ]);
        return user;
      });
    },
  };
}

export type SignupTokenService = ReturnType<typeof createSignupTokenService>;
