import type { Flagstaff } from '@flagstaff/core';
import type { HttpRequest, HttpResponse } from './request.js';

const FRONTEND = '/api/frontend';
/** OFREP's browser provider evaluates and listens from other origins too. */
const OFREP = '/ofrep/';
const browserPath = (path: string) => path.startsWith(FRONTEND) || path.startsWith(OFREP);
const ALLOWED_HEADERS = [
  'authorization',
  'content-type',
  'if-none-match',
  'unleash-appname',
  'unleash-connection-id',
  'unleash-interval',
  'unleash-sdk',
  'x-api-key',
  'x-flagstaff-ofrep-values',
].join(', ');

/**
 * CORS for the frontend API, so browser SDKs on other origins can call it: the origins an Admin
 * allows (`POST /api/admin/ui-config/cors`; any by default, as the reference) get
 * `Access-Control-Allow-Origin` on `/api/frontend…` answers, and preflights are answered. Other
 * routes never get CORS headers.
 */
export function createFrontendCors(flagstaff: Flagstaff) {
  async function allowedOrigin(request: HttpRequest<unknown>): Promise<string | null> {
    const origin = request.headers.origin;
    if (!origin || !browserPath(request.path)) return null;
    const allowed = await flagstaff.instance.frontendOrigins();
    if (allowed.includes('*')) return '*';
    return allowed.includes(origin) ? origin : null;
  }

  const vary = (headers: Record<string, string>) =>
    headers.vary ? (/\borigin\b/i.test(headers.vary) ? headers.vary : `${headers.vary}, Origin`) : 'Origin';

  return {
    /** A preflight (`OPTIONS` with `Access-Control-Request-Method`) to the frontend API; null otherwise. */
    async preflight(request: HttpRequest<unknown>): Promise<HttpResponse | null> {
      if (request.method !== 'OPTIONS' || !request.headers['access-control-request-method']) return null;
      if (!browserPath(request.path)) return null;
      const origin = await allowedOrigin(request);
      if (!origin) return { status: 204, headers: { vary: 'Origin' } };
      return {
        status: 204,
        headers: {
          'access-control-allow-origin': origin,
          'access-control-allow-methods': 'GET, POST, OPTIONS',
          'access-control-allow-headers': ALLOWED_HEADERS,
          'access-control-max-age': '86400',
          vary: 'Origin',
        },
      };
    },

    /** Adds the CORS headers to a frontend API answer for an allowed origin. */
    async decorate(request: HttpRequest<unknown>, response: HttpResponse): Promise<HttpResponse> {
      const origin = await allowedOrigin(request);
      if (!origin) return response;
      return {
        ...response,
        headers: {
          ...response.headers,
          'access-control-allow-origin': origin,
          'access-control-expose-headers': 'ETag',
          vary: vary(response.headers),
        },
      };
    },
  };
}
