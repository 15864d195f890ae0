import type { HttpRequest } from './request.js';

/** The cookie that carries a signed-in user's session id. */
export const SESSION_COOKIE = 'flagstaff-session';

/** A cookie's value from the Cookie header, or null (also when its percent-encoding is malformed). */
export function readCookie(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq === -1 || part.slice(0, eq).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      // We never set such a value: whoever sent it gets treated as having no cookie, not a 500.
      return null;
    }
  }
  return null;
}

/** Whether the request came over HTTPS (directly, or as a proxy in front of us says). */
const isHttps = (request: HttpRequest): boolean =>
  (request.headers['x-forwarded-proto'] ?? '').split(',')[0]?.trim().toLowerCase() === 'https';

/** How the session cookie is written. */
export interface CookieOptions {
  /**
   * Always mark it Secure, whatever the request says (`secureCookies` of the HTTP options). Without
   * it, only requests an HTTPS proxy forwarded (`X-Forwarded-Proto: https`) get a Secure cookie.
   */
  secure?: boolean | undefined;
}

/**
 * The Set-Cookie value for a session: HttpOnly, SameSite=Lax, scoped to where the API is mounted,
 * Secure behind HTTPS or when `options.secure` forces it; `null` clears it.
 */
export function sessionCookie(
  request: HttpRequest,
  sessionId: string | null,
  expiresAt?: string,
  options: CookieOptions = {},
): string {
  const parts = [
    `${SESSION_COOKIE}=${sessionId ?? ''}`,
    `Path=${request.basePath || '/'}`,
    'HttpOnly',
    'SameSite=Lax',
  ];
  if (sessionId === null) parts.push('Max-Age=0');
  else if (expiresAt) parts.push(`Expires=${new Date(expiresAt).toUTCString()}`);
  if (options.secure || isHttps(request)) parts.push('Secure');
  return parts.join('; ');
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Where a request came from, as the browser's headers say (Sec-Fetch-Site, else Origin against
 * Host): `unknown` when neither is sent, as with API clients and scripts.
 */
function requestSite(request: HttpRequest): 'same-origin' | 'cross-site' | 'unknown' {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin' || site === 'none' ? 'same-origin' : 'cross-site';
  const origin = request.headers.origin;
  if (origin === undefined) return 'unknown';
  try {
    return new URL(origin).host === request.headers.host ? 'same-origin' : 'cross-site';
  } catch {
    return 'cross-site';
  }
}

/**
 * Whether a cookie-authenticated request may change anything: browsers send cookies along with
 * cross-site requests, so writes must come from our own origin (Sec-Fetch-Site, else Origin against
 * Host). Reads are always fine.
 */
export function isSameOriginWrite(request: HttpRequest): boolean {
  if (SAFE_METHODS.has(request.method)) return true;
  return requestSite(request) === 'same-origin';
}

/**
 * Whether a browser says the request comes from another site. Signing in and out carry no session
 * to protect yet a page elsewhere must not do them (login CSRF, forced logout); clients that send
 * no browser headers at all (scripts, API tools) are not browsers and may.
 */
export function isCrossSiteRequest(request: HttpRequest): boolean {
  return requestSite(request) === 'cross-site';
}
