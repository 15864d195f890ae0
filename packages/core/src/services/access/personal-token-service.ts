import type { Caller } from '../../auth/caller.js';
import { parseWith } from '../../domain/parse.js';
import { type PersonalAccessToken, personalTokenInputSchema } from '../../domain/personal-token.js';
import { FlagstaffError, invalid, notFound } from '../../errors.js';
import { inTransaction, nowIso, type ServiceDeps } from '../deps.js';
import { writeEvents } from '../events/event-writer.js';
import { hashSecret } from './access-service.js';

/** The signed-in user a personal token belongs to; API tokens cannot have personal tokens. */
function userOf(caller: Caller): number {
  const { principal } = caller;
  if (principal.kind === 'user') return principal.userId;
  throw new FlagstaffError(
    'FORBIDDEN',
    'Personal access tokens belong to a signed-in user; sign in (or use a personal token) to manage them.',
  );
}

/** Longest a personal access token may live unless configured otherwise: one year. */
export const DEFAULT_PAT_MAX_LIFETIME_DAYS = 365;
const DAY_MS = 86_400_000;

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
 */
export function createPersonalTokenService(deps: ServiceDeps, options: PersonalTokenOptions = {}) {
  const { store } = deps;
  const maxDays = options.maxLifetimeDays ?? DEFAULT_PAT_MAX_LIFETIME_DAYS;
  if (!Number.isInteger(maxDays) || maxDays < 1)
    throw new FlagstaffError(
      'VALIDATION',
      '"personalTokenMaxLifetimeDays" must be a whole number of days, at least 1.',
      {
        path: 'personalTokenMaxLifetimeDays',
      },
    );
  return {
    async list(caller: Caller): Promise<{ pats: PersonalAccessToken[] }> {
      await deps.policy.require(caller, 'NONE', {});
      return { pats: await store.personalTokens.listForUser(userOf(caller)) };
    },

    /**
     * Creates a token (pat-created) and answers it with its `secret`, this once. VALIDATION naming
     * `expiresAt` when it is past or beyond the lifetime limit.
     */
    async create(caller: Caller, input: unknown): Promise<PersonalAccessToken & { secret: string }> {
      const actor = await deps.policy.permit(caller, 'NONE', {});
      const userId = userOf(caller);
      const body = parseWith(personalTokenInputSchema, input);
      const expiresAt = new Date(body.expiresAt);
      const now = deps.clock.now().getTime();
      if (expiresAt.getTime() <= now) throw invalid('expiresAt', 'must be in the future.');
      if (expiresAt.getTime() > now + maxDays * DAY_MS)
        throw invalid(
          'expiresAt',
          `must be at most ${maxDays} days from now: that is the longest a personal access token may live here.`,
        );
      const secret = `user:${deps.ids.randomHex(28)}`;
      const created = await inTransaction(deps, async (tx) => {
        const token = await tx.personalTokens.insert({
          secretHash: hashSecret(secret),
          userId,
          description: body.description,
          expiresAt: expiresAt.toISOString(),
          createdAt: nowIso(deps),
          seenAt: null,
        });
        await writeEvents(tx, actor, token.createdAt, [
          {
            type: 'pat-created',
            data: { id: token.id, description: token.description, expiresAt: token.expiresAt },
          },
        ]);
        return token;
      });
      return { ...created, secret };
    },

    /** Deletes one of the caller's own tokens (pat-deleted); NOT_FOUND for anyone else's. */
    async delete(caller: Caller, id: number): Promise<void> {
      const actor = await deps.policy.permit(caller, 'NONE', {});
      const userId = userOf(caller);
      await inTransaction(deps, async (tx) => {
        const mine = (await tx.personalTokens.listForUser(userId)).find((t) => t.id === id);
        if (!mine || !(await tx.personalTokens.delete(userId, id)))
          throw notFound('personal access token', id);
        await writeEvents(tx, actor, nowIso(deps), [
          { type: 'pat-deleted', preData: { id, description: mine.description, expiresAt: mine.expiresAt } },
        ]);
      });
    },
  };
}

export type PersonalTokenService = ReturnType<typeof createPersonalTokenService>;
