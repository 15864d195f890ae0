import { createApiTokenSchema, type Permission, updateApiTokenSchema } from '@flagstaff/core';
import { defineRoutes, type RouteContext } from '../route.js';

const T = '/api/admin/api-tokens';

/**
 * Creating a token needs the permission of its type, as in the reference: admin tokens need ADMIN.
 * An unreadable type falls back to the client permission; the service then rejects the body by name.
 */
const createPermission = ({ body }: RouteContext): Permission => {
  const type = (body as { type?: unknown } | undefined)?.type;
  const lower = typeof type === 'string' ? type.toLowerCase() : '';
  return lower === 'admin'
    ? 'ADMIN'
    : lower === 'frontend'
      ? 'CREATE_FRONTEND_API_TOKEN'
      : 'CREATE_CLIENT_API_TOKEN';
};

/** API tokens. Changing or deleting one needs ADMIN: the route cannot see the stored token's type. */
export const apiTokenRoutes = defineRoutes([
  {
    method: 'get',
    path: T,
    api: 'admin',
    permission: 'READ_CLIENT_API_TOKEN',
    tag: 'API tokens',
    summary: 'List API tokens',
    status: 200,
    handler: async ({ flagstaff }) => ({ tokens: await flagstaff.apiTokens.list() }),
  },
  {
    method: 'post',
    path: T,
    api: 'admin',
    permission: createPermission,
    tag: 'API tokens',
    summary: 'Create an API token',
    status: 201,
    body: createApiTokenSchema,
    handler: ({ flagstaff, actor, body }) => flagstaff.apiTokens.create(actor, body),
  },
  {
    method: 'get',
    path: `${T}/:name`,
    api: 'admin',
    permission: 'READ_CLIENT_API_TOKEN',
    tag: 'API tokens',
    summary: 'List API tokens by name',
    status: 200,
    handler: async ({ flagstaff, params }) => ({
      tokens: await flagstaff.apiTokens.listByName(params.name!),
    }),
  },
  {
    method: 'put',
    path: `${T}/:token`,
    api: 'admin',
    permission: 'ADMIN',
    tag: 'API tokens',
    summary: 'Change when an API token expires',
    status: 200,
    empty: true,
    body: updateApiTokenSchema,
    handler: ({ flagstaff, actor, params, body }) =>
      flagstaff.apiTokens.updateExpiry(actor, params.token!, body),
  },
  {
    method: 'delete',
    path: `${T}/:token`,
    api: 'admin',
    permission: 'ADMIN',
    tag: 'API tokens',
    summary: 'Delete an API token',
    status: 200,
    empty: true,
    handler: ({ flagstaff, actor, params }) => flagstaff.apiTokens.delete(actor, params.token!),
  },
]);
