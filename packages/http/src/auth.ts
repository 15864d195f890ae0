import type { Flagstaff, Principal } from '@flagstaff/core';
import type { AuthFailureLimiter } from './auth-failures.js';
import { authenticationRequired, HttpError } from './errors.js';
import type { HttpRequest } from './request.js';
import { isSameOriginWrite, readCookie, SESSION_COOKIE } from './session-cookie.js';

/** How the API learns who is calling. */
export type AuthMode = { type: 'none'; name?: string } | { type: 'token' };

/** Host apps that already know their users return a principal (or null to fall back to tokens). */
export type Authenticate<Native = unknown> = (
  request: HttpRequest<Native>,
) => Promise<Principal | null> | Principal | null;

/** `Authorization: <secret>` or `Authorization: Bearer <secret>`; null when absent or blank. */
export function readSecret(header: string | undefined): string | null {
  if (header === undefined) return null;
  const value = header.trim();
  const secret = /^bearer\s+/i.test(value) ? value.replace(/^bearer\s+/i, '').trim() : value;
  return secret.length > 0 ? secret : null;
}

const crossSiteWrite = () =>
  new HttpError(
    403,
    'NoAccessError',
    'This change came from another site with your session cookie, so we refused it. Make changes from the Flagstaff UI itself, or send an API token in the Authorization header.',
  );

/**
 * Resolves the principal of a request: the host's `authenticate` first, then an API token from the
 * Authorization header, then a session cookie from signing in (writes only from our own origin);
 * with `auth: { type: 'none' }` everyone is a full-access anonymous admin. Throws the reference's
 * 401 when nobody is recognised; an address that presented too many unknown tokens gets 429s.
 */
export function createAuthenticator<Native>(
  flagstaff: Flagstaff,
  auth: AuthMode,
  authenticate?: Authenticate<Native>,
  failures?: AuthFailureLimiter,
) {
  const anonymous: Principal = {
    kind: 'anonymous-admin',
    name: auth.type === 'none' ? (auth.name ?? 'anonymous') : 'anonymous',
  };
  return async (request: HttpRequest<Native>, apiKeyHeader = false): Promise<Principal> => {
    if (authenticate) {
      const principal = await authenticate(request);
      if (principal) return principal;
    }
    if (auth.type === 'none') return anonymous;
    const header = request.headers.authorization ?? (apiKeyHeader ? request.headers['x-api-key'] : undefined);
    const secret = readSecret(header);
    if (secret) {
      // Checked before the lookup: an address over its limit learns nothing more about any token.
      failures?.assertOpen(request.remoteAddress);
      const principal = await flagstaff.access.authenticateToken(secret);
      if (principal) return principal;
      failures?.recordFailure(request.remoteAddress);
      throw authenticationRequired(true);
    }
    const sessionId = readCookie(request.headers.cookie, SESSION_COOKIE);
    if (sessionId) {
      const principal = await flagstaff.sessions.authenticate(sessionId);
      if (principal) {
        if (!isSameOriginWrite(request)) throw crossSiteWrite();
        return principal;
      }
    }
    throw authenticationRequired(header !== undefined);
  };
}
