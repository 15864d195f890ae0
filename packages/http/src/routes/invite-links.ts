import {
  createSignupToken,
  createSignupTokenSchema,
  getSignupToken,
  listSignupTokens,
  signupSchema,
  signupWithToken,
  updateSignupToken,
  updateSignupTokenSchema,
  validateSignupToken,
} from '@flagstaff/core';
import { z } from 'zod';
import { bodyFields, operationRoute } from '../operation-route.js';
import { absoluteLink } from '../public-links.js';
import type { HttpRequest } from '../request.js';
import { defineRoutes, reply } from '../route.js';

/** An invite link with its `url` absolute, so the UI can show and copy it as it is. */
const withAbsoluteUrl = <V extends { url?: string | null | undefined }>(
  { request, secureCookies }: { request: HttpRequest; secureCookies: boolean },
  view: V,
): V => (view.url ? { ...view, url: absoluteLink(request, view.url, secureCookies) } : view);

/** Where the UI's pages for the reference's public links are, under the API's mount path. */
const uiPage = (request: HttpRequest, page: string, query: Record<string, string>): string =>
  `${request.basePath}/ui/${page}?${new URLSearchParams(query).toString()}`;

const firstString = (value: unknown): string | undefined =>
  typeof value === 'string'
    ? value
    : Array.isArray(value) && typeof value[0] === 'string'
      ? value[0]
      : undefined;

/**
 * Invite links (public signup tokens) and the public routes that use them. The reference's link
 * paths (`/new-user`, `/reset-password`) are plain redirects to the admin UI: no service is asked.
 */
export const inviteLinkRoutes = defineRoutes([
  // The operations of `core/src/services/access/signup-token-operations.ts`; each link's `url` is
  // made absolute from the request's own address.
  operationRoute({
    method: 'get',
    path: '/api/admin/invite-link/tokens',
    operation: listSignupTokens,
    input: () => ({}),
    answer: ({ tokens }, http) => ({ tokens: tokens.map((t) => withAbsoluteUrl(http, t)) }),
    api: 'admin',
    tag: 'Invite links',
    status: 200,
  }),
  // A plain route for the Location header of the new link.
  {
    method: 'post',
    path: '/api/admin/invite-link/tokens',
    api: 'admin',
    tag: 'Invite links',
    summary: createSignupToken.summary,
    operationId: createSignupToken.id,
    status: 201,
    body: createSignupTokenSchema,
    response: createSignupToken.output,
    handler: async ({ flagstaff, caller, body, request, secureCookies }) => {
      const token = await flagstaff.run.unknown(createSignupToken, caller, body);
      // Relative to the request path, like the reference: resolves to …/invite-link/tokens/<secret>.
      return reply(201, withAbsoluteUrl({ request, secureCookies }, token), {
        location: `tokens/${encodeURIComponent(token.secret)}`,
      });
    },
  },
  operationRoute({
    method: 'get',
    path: '/api/admin/invite-link/tokens/:token',
    operation: getSignupToken,
    input: ({ params }) => ({ secret: params.token }),
    answer: (token, http) => withAbsoluteUrl(http, token),
    api: 'admin',
    tag: 'Invite links',
    status: 200,
  }),
  operationRoute({
    method: 'put',
    path: '/api/admin/invite-link/tokens/:token',
    operation: updateSignupToken,
    input: ({ params, body }) => ({ ...bodyFields(body), secret: params.token }),
    answer: (token, http) => withAbsoluteUrl(http, token),
    api: 'admin',
    tag: 'Invite links',
    status: 200,
    body: updateSignupTokenSchema,
  }),
  operationRoute({
    method: 'get',
    path: '/invite/:token/validate',
    operation: validateSignupToken,
    input: ({ params }) => ({ secret: params.token }),
    api: 'public',
    tag: 'Public signup',
    status: 200,
    empty: true,
    errors: [400],
  }),
  operationRoute({
    method: 'post',
    path: '/invite/:token/signup',
    operation: signupWithToken,
    input: ({ params, body }) => ({ ...bodyFields(body), secret: params.token }),
    api: 'public',
    tag: 'Public signup',
    status: 200,
    body: signupSchema,
    errors: [409],
  }),
  {
    method: 'get',
    path: '/new-user',
    api: 'public',
    tag: 'Public signup',
    summary:
      "The reference's links for new users: `?invite=` (invite link) and `?token=` (set-password link) redirect to the admin UI's page for them",
    operationId: 'links.newUser',
    status: 302,
    empty: true,
    query: z.object({ invite: z.string().optional(), token: z.string().optional() }),
    handler: async ({ request }) => {
      const invite = firstString(request.query.invite);
      const token = firstString(request.query.token);
      const location = invite
        ? uiPage(request, 'signup', { invite })
        : uiPage(request, 'new-user', token ? { token } : {});
      return reply(302, undefined, { location, 'cache-control': 'no-store' });
    },
  },
  {
    method: 'get',
    path: '/reset-password',
    api: 'public',
    tag: 'Auth',
    summary: "The reference's password reset link: redirects to the admin UI's page for it",
    operationId: 'links.resetPassword',
    status: 302,
    empty: true,
    query: z.object({ token: z.string().optional() }),
    handler: async ({ request }) => {
      const token = firstString(request.query.token);
      return reply(302, undefined, {
        location: uiPage(request, 'reset-password', token ? { token } : {}),
        'cache-control': 'no-store',
      });
    },
  },
]);
