import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { Caller } from '../../auth/caller.js';
import { hashPassword, validatePassword } from '../../auth/password.js';
import { parseWith } from '../../domain/parse.js';
import type { UserRecord } from '../../domain/user.js';
import { FlagstaffError, notFound } from '../../errors.js';
import { inTransaction, nowIso, type ServiceDeps } from '../deps.js';
import { storePassword } from './account-service.js';

/** How long a reset link works (24 hours). */
const LINK_TTL_MS = 24 * 60 * 60 * 1000;
/** Clock difference tolerated between the process that made a link and the one checking it. */
const CLOCK_SKEW_MS = 60_000;
/** HKDF `info` for the link key: another label than any other key taken from the server key. */
export const RESET_LINK_KEY_LABEL = 'flagstaff password-reset link v1';

/**
 * The key reset links are signed with: HKDF-SHA256 of the server key under its own label (the
 * sealing key is SHA-256 of the server key, so the two never coincide). It lives only in memory:
 * neither the database nor a backup of it can sign a link. Without a server key (embedded use) it
 * is random per process, so links stop working when the process restarts and work only on the
 * process that made them.
 */
export function resetLinkKey(secretKey: string | undefined): Buffer {
  // An empty key would give every server the same link key: treat it as none.
  if (!secretKey) return randomBytes(32);
  return Buffer.from(hkdfSync('sha256', secretKey, '', RESET_LINK_KEY_LABEL, 32));
}

export const resetLinkSchema = z.object({
  id: z.union([z.string().min(1, 'must name a user by id, e-mail or username'), z.number().int()]),
});
export const resetTokenQuerySchema = z.object({ token: z.string().min(1, 'is required') });
export const resetWithTokenSchema = z.object({
  token: z.string().min(1, 'is required'),
  password: z.string(),
});
export const passwordCheckSchema = z.object({ password: z.string() });

const invalidLink = (): FlagstaffError =>
  new FlagstaffError(
    'UNAUTHENTICATED',
    'The reset link is invalid or has expired; ask an Admin for a new one.',
  );

/**
 * Password reset links, as the reference's `/auth/reset/*` routes use them: an Admin makes a link
 * for a user (Flagstaff sends no e-mail; the Admin passes it on), the user opens it and sets a new
 * password. The token is signed (HMAC-SHA256 under `resetLinkKey`) over the user, its expiry and
 * the user's current password hash, so it stops working once used, when the password changes
 * otherwise, or after 24 hours — nothing needs to be stored per link. A link whose expiry lies more
 * than 24 hours ahead is refused even when its signature holds. (The key used to be the settings row
 * `password-reset.key`; that row is no longer read, so any copy of it signs nothing.)
 */
export function createPasswordResetService(
  deps: ServiceDeps & { baseUrl?: string | undefined; secretKey?: string | undefined },
) {
  const { store } = deps;
  const baseUrl = (deps.baseUrl ?? '').replace(/\/+$/, '');
  const key = resetLinkKey(deps.secretKey);

  const sign = (user: Pick<UserRecord, 'id' | 'passwordHash'>, expires: number): string =>
    createHmac('sha256', key)
      .update(`${user.id}.${expires}.${user.passwordHash ?? ''}`)
      .digest('base64url');

  /** The user a token is for; UNAUTHENTICATED when it is not a valid, current link. */
  async function userOf(token: string): Promise<UserRecord> {
    const [id, expires, signature] = token.split('.');
    const user = id && /^\d+$/.test(id) ? await store.users.get(Number(id)) : null;
    if (!user || !expires || !/^\d+$/.test(expires) || !signature) throw invalidLink();
    const now = deps.clock.now().getTime();
    // Only this server signs links, never further ahead than LINK_TTL_MS: a later expiry is forged.
    if (Number(expires) <= now || Number(expires) > now + LINK_TTL_MS + CLOCK_SKEW_MS) throw invalidLink();
    const expected = Buffer.from(sign(user, Number(expires)));
    const given = Buffer.from(signature);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalidLink();
    return user;
  }

  async function findUser(id: string | number): Promise<UserRecord> {
    if (typeof id === 'number' || /^\d+$/.test(id)) {
      const user = await store.users.get(Number(id));
      if (user) return user;
    }
    const text = String(id);
    const user = (await store.users.getByEmail(text)) ?? (await store.users.getByUsername(text));
    if (!user) throw notFound('user', text);
    return user;
  }

  /** A token for the user's current password hash, valid LINK_TTL_MS from now. */
  const tokenFor = (user: Pick<UserRecord, 'id' | 'passwordHash'>): string => {
    const expires = deps.clock.now().getTime() + LINK_TTL_MS;
    return encodeURIComponent(`${user.id}.${expires}.${sign(user, expires)}`);
  };

  return {
    /** POST /api/admin/user-admin/reset-password (Admins): a link for the user, valid 24 hours. */
    async createLink(caller: Caller, input: unknown): Promise<{ resetPasswordUrl: string }> {
      await deps.policy.require(caller, 'ADMIN', {});
      const { id } = parseWith(resetLinkSchema, input);
      const user = await findUser(id);
      return { resetPasswordUrl: `${baseUrl}/reset-password?token=${tokenFor(user)}` };
    },

    /**
     * The set-password link for a user an Admin just created (the reference's `inviteLink`): a
     * reset link under the reference's `/new-user?token=` path, so it works once, for 24 hours.
     * The caller has already been allowed to create the user; this checks nothing itself.
     */
    newUserLink(user: Pick<UserRecord, 'id' | 'passwordHash'>): string {
      return `${baseUrl}/new-user?token=${tokenFor(user)}`;
    },

    /** GET /auth/reset/validate?token=: whom the link is for (public). */
    async validateLink(caller: Caller, query: unknown) {
      await deps.policy.require(caller, 'NONE', {}, 'public');
      const { token } = parseWith(resetTokenQuerySchema, query);
      const user = await userOf(token);
      return { id: user.id, name: user.name, email: user.email, username: user.username, token };
    },

    /**
     * POST /auth/reset/password: sets the new password; the link then no longer works. An Admin
     * made the link, so this is an Admin reset: the user's sessions and personal tokens end.
     */
    async resetWithLink(caller: Caller, input: unknown): Promise<void> {
      await deps.policy.require(caller, 'NONE', {}, 'public');
      const body = parseWith(resetWithTokenSchema, input);
      validatePassword(body.password, 'password');
      const user = await userOf(body.token);
      const passwordHash = await hashPassword(body.password);
      await inTransaction(deps, async (tx) => {
        const before = await tx.users.get(user.id);
        // Used or changed meanwhile: the link was for the password it had.
        if (!before || before.passwordHash !== user.passwordHash) throw invalidLink();
        await storePassword(
          tx,
          { name: before.email ?? before.username ?? `user ${before.id}`, userId: before.id },
          before,
          passwordHash,
          undefined,
          nowIso(deps),
          true,
        );
      });
    },

    /** Whether a password meets the rules: nothing, or VALIDATION naming what is missing. */
    async checkPassword(caller: Caller, input: unknown, audience: 'admin' | 'public'): Promise<void> {
      await deps.policy.require(caller, 'NONE', {}, audience);
      validatePassword(parseWith(passwordCheckSchema, input).password, 'password');
    },
  };
}

export type PasswordResetService = ReturnType<typeof createPasswordResetService>;
