import type { HttpRequest } from './request.js';

/** The origin the caller reached us at: the browser's Origin when it names our host, else Host. */
function requestOrigin(request: HttpRequest, secure: boolean): string | null {
  const host = request.headers.host;
  if (!host) return null;
  const origin = request.headers.origin;
  if (origin) {
    try {
      const url = new URL(origin);
      if (url.host === host && (url.protocol === 'http:' || url.protocol === 'https:')) return url.origin;
    } catch {}
  }
  const proto = (request.headers['x-forwarded-proto'] ?? '').split(',')[0]?.trim().toLowerCase();
  return `${secure || proto === 'https' ? 'https' : 'http'}://${host}`;
}

/**
 * A link core made, as an absolute URL: unchanged when a base URL was configured (core's links are
 * then absolute already), else resolved against the request's origin and the API's mount path, so
 * an Admin can pass it on as is. Left relative when the request names no host.
 */
export function absoluteLink(request: HttpRequest, link: string, secure: boolean): string {
  if (!link.startsWith('/')) return link;
  const origin = requestOrigin(request, secure);
  return origin ? `${origin}${request.basePath}${link}` : link;
}
