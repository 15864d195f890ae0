import type { HttpRequest } from './request.js';

/** The cookie that carries a signed-in user's session id. */
export const SESSION_COOKIE = 'flagstaff-session';

/** A cookie's value from the Cookie header, or null. */
export function readCookie(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq !== -1 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return null;
}

/** Whether the request came over HTTPS (directly, or as a proxy in front of us says). */
const isHttps = (request: HttpRequest): boolean =>
  (request.headers['x-forwarded-proto'] ?? '').split(',')[0]?.trim().toLowerCase() === 'https';

/**
 * The Set-Cookie value for a session: HttpOnly, SameSite=Lax, scoped to where the API is mounted,
 * Secure behind HTTPS; `null` clears it.
 */
export function sessionCookie(request: HttpRequest, sessionId: string | null, expiresAt?: string): string {
  const parts = [
    `${SESSION_COOKIE}=${sessionId ?? ''}`,
    `Path=${request.basePath || '/'}`,
    'HttpOnly',
    'SameSite=Lax',
  ];
  if (sessionId === null) parts.push('Max-Age=0');
  else if (expiresAt) parts.push(`Expires=${new Date(expiresAt).toUTCString()}`);
  if (isHttps(request)) parts.push('Secure');
  return parts.join('; ');
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Whether a cookie-authenticated request may change anything: browsers send cookies along with
 * cross-site requests, so writes must come from our own origin (Sec-Fetch-Site, else Origin against
 * Host). Reads are always fine.
 */
export function isSameOriginWrite(request: HttpRequest): boolean {
  if (SAFE_METHODS.has(request.method)) return true;
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined) return site === 'same-origin' || site === 'none';
  const origin = request.headers.origin;
  if (origin === undefined) return false;
  try {
    return new URL(origin).host === request.headers.host;
  } catch {
    return false;
  }
}
