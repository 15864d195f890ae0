import { type Caller, callerOf } from '../../auth/caller.js';
import type {
  CreateSignupTokenInput,
  SignupInput,
  SignupTokenView,
  UpdateSignupTokenInput,
} from '../../domain/signup-token.js';
import type { UserView } from '../../domain/user.js';
import type { OperationRunner } from '../../operations/run-operation.js';
import {
  createSignupToken,
  getSignupToken,
  listSignupTokens,
  signupWithToken,
  updateSignupToken,
  validateSignupToken,
} from './signup-token-operations.js';

/** Whoever holds an invite link: nobody signed in. */
const ANYONE = callerOf({ kind: 'anonymous', name: 'anonymous' });

/**
 * Invite links (public signup tokens): whoever has one may join with the Viewer role. The Admin's
 * functions are typed wrappers over `signup-token-operations.ts`, which HTTP serves too.
 */
export function createSignupTokenService(run: OperationRunner) {
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
    validate: (secret: string): Promise<SignupTokenView> => run(validateSignupToken, ANYONE, { secret }),

    /** Joins through an invite link with the link's role (operation `signupTokens.signup`). */
    signup: (secret: string, input: SignupInput): Promise<UserView> =>
      run(signupWithToken, ANYONE, { ...input, secret }),
  };
}

export type SignupTokenService = ReturnType<typeof createSignupTokenService>;
