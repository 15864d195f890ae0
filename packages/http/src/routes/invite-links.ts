import { createSignupTokenSchema, signupSchema, updateSignupTokenSchema } from '@flagstaff/core';
import { defineRoutes, reply } from '../route.js';

const T = '/api/admin/invite-link/tokens';

/** Invite links (public signup tokens) and the public routes that use them. */
export const inviteLinkRoutes = defineRoutes([
  {
    method: 'get',
    path: T,
    api: 'admin',
    tag: 'Invite links',
    summary: 'List invite links',
    status: 200,
    handler: async ({ flagstaff, caller }) => ({ tokens: await flagstaff.signupTokens.list(caller) }),
  },
  {
    method: 'post',
    path: T,
    api: 'admin',
    tag: 'Invite links',
    summary: 'Create an invite link',
    status: 201,
    body: createSignupTokenSchema,
    handler: async ({ flagstaff, caller, body }) => {
      const token = await flagstaff.signupTokens.create(caller, body);
      // Relative to the request path, like the reference: resolves to …/invite-link/tokens/<secret>.
      return reply(201, token, { location: `tokens/${encodeURIComponent(token.secret)}` });
    },
  },
  {
    method: 'get',
    path: `${T}/:token`,
    api: 'admin',
    tag: 'Invite links',
    summary: 'Get an invite link',
    status: 200,
    handler: ({ flagstaff, params, caller }) => flagstaff.signupTokens.get(caller, params.token!),
  },
  {
    method: 'put',
    path: `${T}/:token`,
    api: 'admin',
    tag: 'Invite links',
    summary: 'Update an invite link',
    status: 200,
    body: updateSignupTokenSchema,
    handler: ({ flagstaff, caller, params, body }) =>
      flagstaff.signupTokens.update(caller, params.token!, body),
  },
  {
    method: 'get',
    path: '/invite/:token/validate',
    api: 'public',
    tag: 'Public signup',
    summary: 'Validate an invite link',
    status: 200,
    empty: true,
    errors: [400],
    handler: ({ flagstaff, params }) => flagstaff.signupTokens.validate(params.token!),
  },
  {
    method: 'post',
    path: '/invite/:token/signup',
    api: 'public',
    tag: 'Public signup',
    summary: 'Sign up with an invite link',
    status: 200,
    body: signupSchema,
    errors: [409],
    handler: ({ flagstaff, params, body }) => flagstaff.signupTokens.signup(params.token!, body),
  },
]);
