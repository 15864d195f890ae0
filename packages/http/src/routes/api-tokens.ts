import { createApiTokenSchema, updateApiTokenSchema } from '@flagstaff/core';
import { defineRoutes } from '../route.js';

const T = '/api/admin/api-tokens';

/**
 * API tokens. Lists hold only the types the caller may read (admin tokens: root Admins). Changing
 * or deleting a token needs the permission of the stored token's type, which only the service can
 * see: UPDATE_/DELETE_CLIENT_API_TOKEN, UPDATE_/DELETE_FRONTEND_API_TOKEN, ADMIN for admin tokens.
 */
export const apiTokenRoutes = defineRoutes([
  {
    method: 'get',
    path: T,
    api: 'admin',
    tag: 'API tokens',
    summary: 'List API tokens',
    status: 200,
    handler: async ({ flagstaff, caller }) => ({ tokens: await flagstaff.apiTokens.list(caller) }),
  },
  {
    method: 'post',
    path: T,
    api: 'admin',
    tag: 'API tokens',
    summary: 'Create an API token',
    status: 201,
    body: createApiTokenSchema,
    handler: ({ flagstaff, caller, body }) => flagstaff.apiTokens.create(caller, body),
  },
  {
    method: 'get',
    path: `${T}/:name`,
    api: 'admin',
    tag: 'API tokens',
    summary: 'List API tokens by name',
    status: 200,
    handler: async ({ flagstaff, params, caller }) => ({
      tokens: await flagstaff.apiTokens.listByName(caller, params.name!),
    }),
  },
  {
    method: 'put',
    path: `${T}/:token`,
    api: 'admin',
    // Checked by the service against the stored token's type.
    tag: 'API tokens',
    summary: 'Change when an API token expires',
    status: 200,
    empty: true,
    body: updateApiTokenSchema,
    errors: [403],
    handler: ({ flagstaff, caller, params, body }) =>
      flagstaff.apiTokens.updateExpiry(caller, params.token!, body),
  },
  {
    method: 'delete',
    path: `${T}/:token`,
    api: 'admin',
    // Checked by the service against the stored token's type.
    tag: 'API tokens',
    summary: 'Delete an API token',
    status: 200,
    empty: true,
    errors: [403],
    handler: ({ flagstaff, caller, params }) => flagstaff.apiTokens.delete(caller, params.token!),
  },
]);
