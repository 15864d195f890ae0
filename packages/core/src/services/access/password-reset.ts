import type { Caller } from '../../auth/caller.js';
import type { ResetLinkInput, ResetWithTokenInput } from '../../domain/password-reset.js';
import type { OperationRunner } from '../../operations/run-operation.js';
import {
  checkPasswordRules,
  checkPasswordRulesPublic,
  createResetLink,
  resetPasswordWithLink,
  validateResetLink,
} from './password-reset-operations.js';
import type { ResetLinks } from './reset-links.js';

/**
 * Password reset links (`/auth/reset/*`, see `reset-links.ts`): typed wrappers over
 * `password-reset-operations.ts`, which HTTP serves too.
 */
export function createPasswordResetService(run: OperationRunner, links: ResetLinks) {
  return {
    /** A link for the user (id, e-mail or username), valid 24 hours (Admins). */
    createLink: (caller: Caller, input: ResetLinkInput): Promise<{ resetPasswordUrl: string }> =>
      run(createResetLink, caller, input),

    /**
     * The set-password link for a user an Admin just created (the reference's `inviteLink`). The
     * caller has already been allowed to create the user; this checks nothing itself.
     */
    newUserLink: links.newUserLink,

    /** Whom the link is for (anyone may ask). */
    validateLink: (caller: Caller, query: { token: string }) => run(validateResetLink, caller, query),

    /** Sets the new password; the link then no longer works, and the user's sessions and tokens end. */
    resetWithLink: (caller: Caller, input: ResetWithTokenInput): Promise<void> =>
      run(resetPasswordWithLink, caller, input),

    /** Whether a password meets the rules: nothing, or VALIDATION naming what is missing. */
    checkPassword: (
      caller: Caller,
      input: { password: string },
      audience: 'admin' | 'public',
    ): Promise<void> =>
      run(audience === 'admin' ? checkPasswordRules : checkPasswordRulesPublic, caller, input),
  };
}

export type PasswordResetService = ReturnType<typeof createPasswordResetService>;
