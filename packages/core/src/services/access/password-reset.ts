import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { Caller } from '../../auth/caller.js';
import { hashPassword, validatePassword } from '../../auth/password.js';
import { parseWith } from '../../domain/parse.js';
import type { UserRecord } from '../../domain/user.js';
import { FlagstaffError, notFound } from '../../errors.js';
import { inTransaction, nowIso, type ServiceDeps } from '../deps.js';
import { storePassword } from './account-service.js';

const KEY_SETTING = 'password-reset.key';
/** How long a reset link works (24 hours). */
const LINK_TTL_MS = 24 * 60 * 60 * 1000;

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
 * password. The token is signed (HMAC-SHA256 under a key kept in the store's settings) over the user,
 * its expiry and the user's current password hash, so it stops working once used, when the password
 * changes otherwise, or after 24 hours — nothing needs to be stored per link.
 */
export function createPasswordResetService(deps: ServiceDeps & { baseUrl?: string | undefined }) {
  const { store } = deps;
  const baseUrl = (deps.baseUrl ?? '').replace(/\/+$/, '');

  async function key(): Promise<string> {
    const stored = await store.settings.get(KEY_SETTING);
    if (typeof stored === 'string') return stored;
    return inTransaction(deps, async (tx) => {
      const again = await tx.settings.get(KEY_SETTING);
      if (typeof again === 'string') return again;
      const fresh = randomBytes(32).toString('hex');
      await tx.settings.set(KEY_SETTING, fresh);
      return fresh;
    });
  }

  const sign = (secret: string, user: UserRecord, expires: number): string =>
    createHmac('sha256', secret)
      .update(`${user.id}.${expires}.${user.passwordHash ?? ''}`)
      .digest('base64url');

  /** The user a token is for; UNAUTHENTICATED when it is not a valid, current link. */
  async function userOf(token: string): Promise<UserRecord> {
    const [id, expires, signature] = token.split('.');
    const user = id && /^\d+$/.test(id) ? await store.users.get(Number(id)) : null;
    if (!user || !expires || !signature || Number(expires) <= deps.clock.now().getTime()) throw invalidLink();
    const expected = Buffer.from(sign(await key(), user, Number(expires)));
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

  return {
    /** POST /api/admin/user-admin/reset-password (Admins): a link for the user, valid 24 hours. */
    async createLink(caller: Caller, input: unknown): Promise<{ resetPasswordUrl: string }> {
      await deps.policy.require(caller, 'ADMIN', {});
      const { id } = parseWith(resetLinkSchema, input);
      const user = await findUser(id);
      const expires = deps.clock.now().getTime() + LINK_TTL_MS;
      const token = `${user.id}.${expires}.${sign(await key(), user, expires)}`;
      return { resetPasswordUrl: `${baseUrl}/reset-password?token=${encodeURIComponent(token)}` };
    },

    /** GET /auth/reset/validate?token=: whom the link is for (public). */
    async validateLink(caller: Caller, query: unknown) {
      await deps.policy.require(caller, 'NONE', {}, 'public');
      const { token } = parseWith(resetTokenQuerySchema, query);
      const user = await userOf(token);
      return { id: user.id, name: user.name, email: user.email, username: user.username, token };
    },

    /** POST /auth/reset/password: sets the new password; the link then no longer works. */
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
