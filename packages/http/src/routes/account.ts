import {
  changeOwnPassword,
  changePasswordSchema,
  getCurrentUser,
  resetPasswordSchema,
  setUserPassword,
  signIn,
  signOut,
  userViewSchema,
} from '@flagstaff/core';
import { HttpError } from '../errors.js';
import { bodyFields, operationRoute } from '../operation-route.js';
import type { HttpRequest } from '../request.js';
import { defineRoutes, reply } from '../route.js';
import { isCrossSiteRequest, readCookie, SESSION_COOKIE, sessionCookie } from '../session-cookie.js';
import { idParam } from './bodies.js';

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

/** The session cookie's id, when the request carries one. */
const sessionIdOf = (request: HttpRequest): string | undefined =>
  readCookie(request.headers.cookie, SESSION_COOKIE) ?? undefined;

/**
 * Signing in and out, the signed-in user and passwords. Each route serves one operation of
 * `core/src/services/access/{session,account}-operations.ts`; sign-in, sign-out and the own
 * password change keep thin handlers for the session cookie they set, clear or keep.
 */
export const accountRoutes = defineRoutes([
  {
    method: 'post',
    path: '/auth/simple/login',
    api: 'public',
    tag: 'Auth',
    summary: 'Sign in with a username or e-mail and a password; sets the session cookie',
    operationId: signIn.id,
    status: 200,
    body: signIn.input.omit({ ip: true }),
    response: userViewSchema,
    errors: [401, 403, 429],
    handler: async ({ flagstaff, caller, body, request, secureCookies }) => {
      refuseCrossSite(request, 'sign-in');
      // The address comes from the connection, never from the body.
      const input = { ...bodyFields(body), ip: request.remoteAddress };
      const { user, sessionId, expiresAt } = await flagstaff.run.unknown(signIn, caller, input);
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
    operationId: signOut.id,
    status: 204,
    empty: true,
    errors: [403],
    handler: async ({ flagstaff, caller, request, secureCookies }) => {
      refuseCrossSite(request, 'sign-out');
      const sessionId = sessionIdOf(request);
      if (sessionId) await flagstaff.run(signOut, caller, { sessionId });
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
    summary: changeOwnPassword.summary,
    operationId: changeOwnPassword.id,
    status: 200,
    empty: true,
    body: changePasswordSchema,
    // The session making the request stays signed in; a body cannot name another one.
    handler: ({ flagstaff, caller, body, request }) =>
      flagstaff.run.unknown(changeOwnPassword, caller, {
        ...bodyFields(body),
        currentSessionId: sessionIdOf(request),
      }),
  },
  operationRoute({
    method: 'post',
    path: '/api/admin/user-admin/:id/change-password',
    operation: setUserPassword,
    input: ({ params, body }) => ({ ...bodyFields(body), id: idParam(params.id, 'user') }),
    api: 'admin',
    tag: 'Users',
    status: 200,
    empty: true,
    body: resetPasswordSchema,
    errors: [404],
  }),
]);
