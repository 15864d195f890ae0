import { featureSearchResultSchema, getCurrentUser, userViewSchema } from '@flagstaff/core';
import { z } from 'zod';
import { HttpError } from '../errors.js';
import { operationRoute } from '../operation-route.js';
import type { HttpRequest } from '../request.js';
import { defineRoutes, reply } from '../route.js';
import { isCrossSiteRequest, readCookie, SESSION_COOKIE, sessionCookie } from '../session-cookie.js';
import { idParam } from './bodies.js';

const loginBody = z.object({ username: z.string(), password: z.string() });
const changePasswordBody = z.object({
  oldPassword: z.string(),
  password: z.string(),
  confirmPassword: z.string().optional(),
});
const resetPasswordBody = z.object({ password: z.string() });

/**
 * Signing in and out need no session, so the authenticator's same-origin check never sees them:
 * refuse them here when a browser says another site sent them (login CSRF, forced sign-out).
 */
function refuseCrossSite(request: HttpRequest, what: 'sign-in' | 'sign-out'): void {
  if (isCrossSiteRequest(request))
    throw new HttpError(
      403,
      'NoAccessError',
      `This ${what} came from another site, so we refused it. Sign in and out from the Flagstaff UI itself.`,
    );
}

/** Signing in with a password, the signed-in user, and user administration beyond the listing. */
export const accountRoutes = defineRoutes([
  {
    method: 'post',
    path: '/auth/simple/login',
    api: 'public',
    tag: 'Auth',
    summary: 'Sign in with a username or e-mail and a password; sets the session cookie',
    status: 200,
    body: loginBody,
    response: userViewSchema,
    errors: [401, 403, 429],
    handler: async ({ flagstaff, body, request, secureCookies }) => {
      refuseCrossSite(request, 'sign-in');
      const input = typeof body === 'object' && body !== null ? body : {};
      // The address comes from the connection, never from the body.
      const { user, sessionId, expiresAt } = await flagstaff.sessions.login({
        ...input,
        ip: request.remoteAddress,
      });
      const cookie = sessionCookie(request, sessionId, expiresAt, { secure: secureCookies });
      return reply(200, user, { 'set-cookie': cookie });
    },
  },
  {
    method: 'post',
    path: '/logout',
    api: 'public',
    tag: 'Auth',
    summary: 'Sign out: ends the session and clears its cookie',
    status: 204,
    empty: true,
    errors: [403],
    handler: async ({ flagstaff, request, secureCookies }) => {
      refuseCrossSite(request, 'sign-out');
      const sessionId = readCookie(request.headers.cookie, SESSION_COOKIE);
      if (sessionId) await flagstaff.sessions.logout(sessionId);
      return reply(204, undefined, {
        'set-cookie': sessionCookie(request, null, undefined, { secure: secureCookies }),
      });
    },
  },
  operationRoute({
    method: 'get',
    path: '/api/admin/user',
    operation: getCurrentUser,
    input: () => ({}),
    api: 'admin',
    tag: 'Users',
    status: 200,
  }),
  {
    method: 'post',
    path: '/api/admin/user/change-password',
    api: 'admin',
    tag: 'Users',
    summary: "Change the signed-in user's password (ends their other sessions)",
    status: 200,
    empty: true,
    body: changePasswordBody,
    handler: ({ flagstaff, caller, body, request }) =>
      flagstaff.accounts.changePassword(
        caller,
        body,
        readCookie(request.headers.cookie, SESSION_COOKIE) ?? undefined,
      ),
  },
  {
    method: 'post',
    path: '/api/admin/user-admin/:id/change-password',
    api: 'admin',
    tag: 'Users',
    summary: "Set another user's password (ends their sessions)",
    status: 200,
    empty: true,
    body: resetPasswordBody,
    errors: [404],
    handler: ({ flagstaff, caller, params, body }) =>
      flagstaff.accounts.resetPassword(caller, idParam(params.id, 'user'), body),
  },
  {
    method: 'get',
    path: '/api/admin/search/features',
    api: 'admin',
    tag: 'Search',
    summary: 'Search features: filters, sorting and paging done by the server',
    operationId: 'features.search',
    status: 200,
    response: featureSearchResultSchema,
    query: z.object({
      query: z.string().optional(),
      project: z.string().optional(),
      tag: z.string().optional(),
      type: z.string().optional(),
      state: z.string().optional(),
      lifecycle: z.string().optional(),
      status: z.string().optional(),
      segment: z.string().optional(),
      createdAt: z.string().optional(),
      lastSeenAt: z.string().optional(),
      archived: z.string().optional(),
      sortBy: z.string().optional(),
      sortOrder: z.enum(['asc', 'desc']).optional(),
      offset: z.number().int().min(0).optional(),
      limit: z.number().int().min(1).max(100).optional(),
    }),
    handler: ({ flagstaff, caller, query }) => flagstaff.featureSearch.search(caller, query),
  },
]);
