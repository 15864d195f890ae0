import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import type { UserRecord } from '../../domain/user.js';
import { FlagstaffError } from '../../errors.js';
import type { Clock } from '../../ports/runtime-ports.js';
import type { ReadRepositories } from '../../ports/store.js';

/** How long a reset link works (24 hours). */
const LINK_TTL_MS = 24 * 60 * 60 * 1000;
/** Clock difference tolerated between the process that made a link and the one checking it. */
const CLOCK_SKEW_MS = 60_000;
/** HKDF `info` for the link key: another label than any other key taken from the server key. */
const RESET_LINK_KEY_LABEL = 'flagstaff password-reset link v1';

/**
 * The key reset links are signed with: HKDF-SHA256 of the server key under its own label (the
 * sealing key is SHA-256 of the server key, so the two never coincide). It lives only in memory:
 * neither the database nor a backup of it can sign a link. Without a server key (embedded use) it
 * is random per process, so links stop working when the process restarts and work only on the
 * process that made them.
 */
function resetLinkKey(secretKey: string | undefined): Buffer {
  // An empty key would give every server the same link key: treat it as none.
  if (!secretKey) return randomBytes(32);
  return Buffer.from(hkdfSync('sha256', secretKey, '', RESET_LINK_KEY_LABEL, 32));
}

export const invalidResetLink = (): FlagstaffError =>
  new FlagstaffError(
    'UNAUTHENTICATED',
    'The reset link is invalid or has expired; ask an Admin for a new one.',
  );

type LinkUser = Pick<UserRecord, 'id' | 'passwordHash'>;

/**
 * Password reset links, as the reference's `/auth/reset/*` routes use them: an Admin makes a link
 * for a user (Flagstaff sends no e-mail; the Admin passes it on), the user opens it and sets a new
 * password. The token is signed (HMAC-SHA256 under `resetLinkKey`) over the user, its expiry and
 * the user's current password hash, so it stops working once used, when the password changes
 * otherwise, or after 24 hours — nothing needs to be stored per link. A link whose expiry lies more
 * than 24 hours ahead is refused even when its signature holds. (The key used to be the settings row
 * `password-reset.key`; that row is no longer read, so any copy of it signs nothing.)
 */
export function createResetLinks(options: {
  clock: Clock;
  baseUrl?: string | undefined;
  secretKey?: string | undefined;
}) {
  const { clock } = options;
  const baseUrl = (options.baseUrl ?? '').replace(/\/+$/, '');
  const key = resetLinkKey(options.secretKey);

  const sign = (user: LinkUser, expires: number): string =>
    createHmac('sha256', key)
      .update(`${user.id}.${expires}.${user.passwordHash ?? ''}`)
      .digest('base64url');

  /** A token for the user's current password hash, valid LINK_TTL_MS from now. */
  const tokenFor = (user: LinkUser): string => {
    const expires = clock.now().getTime() + LINK_TTL_MS;
    return encodeURIComponent(`${user.id}.${expires}.${sign(user, expires)}`);
  };

  return {
    /** The reset link for a user, valid 24 hours (relative without a base URL). */
    resetLink: (user: LinkUser): string => `${baseUrl}/reset-password?token=${tokenFor(user)}`,

    /**
     * The set-password link for a user an Admin just created (the reference's `inviteLink`): a
     * reset link under the reference's `/new-user?token=` path, so it works once, for 24 hours.
     */
    newUserLink: (user: LinkUser): string => `${baseUrl}/new-user?token=${tokenFor(user)}`,

    /** The user a token is for; UNAUTHENTICATED when it is not a valid, current link. */
    async userOf(repos: ReadRepositories, token: string): Promise<UserRecord> {
      const [id, expires, signature] = token.split('.');
      const user = id && /^\d+$/.test(id) ? await repos.users.get(Number(id)) : null;
      if (!user || !expires || !/^\d+$/.test(expires) || !signature) throw invalidResetLink();
      const now = clock.now().getTime();
      // Only this server signs links, never further ahead than LINK_TTL_MS: a later expiry is forged.
      if (Number(expires) <= now || Number(expires) > now + LINK_TTL_MS + CLOCK_SKEW_MS)
        throw invalidResetLink();
      const expected = Buffer.from(sign(user, Number(expires)));
      const given = Buffer.from(signature);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw invalidResetLink();
      return user;
    },
  };
}

export type ResetLinks = ReturnType<typeof createResetLinks>;
