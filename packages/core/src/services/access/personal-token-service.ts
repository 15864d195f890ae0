import type { Caller } from '../../auth/caller.js';
import type { PersonalAccessToken, PersonalTokenInput } from '../../domain/personal-token.js';
import { FlagstaffError } from '../../errors.js';
import type { OperationRunner } from '../../operations/run-operation.js';
import {
  createPersonalToken,
  DEFAULT_PAT_MAX_LIFETIME_DAYS,
  deletePersonalToken,
  listPersonalTokens,
} from './personal-token-operations.js';

export { DEFAULT_PAT_MAX_LIFETIME_DAYS } from './personal-token-operations.js';

/** Limits on personal access tokens. */
export interface PersonalTokenOptions {
  /** Furthest ahead a new token's expiresAt may lie, in days (default 365). */
  maxLifetimeDays?: number | undefined;
}

/**
 * Personal access tokens (`/api/admin/user/tokens`): secrets a user makes for scripts and tools
 * (Terraform, CI) that act as that user, with the user's permissions, until they expire. Only a
 * SHA-256 of the secret is kept; the secret is answered once, at creation. Lifetimes are capped, so
 * a leaked token does not work for decades; an Admin's reset of the user's password revokes them all.
 * Typed wrappers over `personal-token-operations.ts`, which HTTP serves too.
 */
export function createPersonalTokenService(run: OperationRunner, options: PersonalTokenOptions = {}) {
  // A limit that is not a whole number of days, at least 1, is refused at start, not at the first token.
  const maxDays = options.maxLifetimeDays ?? DEFAULT_PAT_MAX_LIFETIME_DAYS;
  if (!Number.isInteger(maxDays) || maxDays < 1)
    throw new FlagstaffError(
      'VALIDATION',
      '"personalTokenMaxLifetimeDays" must be a whole number of days, at least 1.',
      { path: 'personalTokenMaxLifetimeDays' },
    );
  return {
    list: (caller: Caller): Promise<{ pats: PersonalAccessToken[] }> => run(listPersonalTokens, caller, {}),
    /** Creates a token and answers it with its `secret`, this once. */
    create: (caller: Caller, input: PersonalTokenInput): Promise<PersonalAccessToken & { secret: string }> =>
      run(createPersonalToken, caller, input),
    /** Deletes one of the caller's own tokens; NOT_FOUND for anyone else's. */
    delete: (caller: Caller, id: number): Promise<void> => run(deletePersonalToken, caller, { id }),
  };
}

export type PersonalTokenService = ReturnType<typeof createPersonalTokenService>;
