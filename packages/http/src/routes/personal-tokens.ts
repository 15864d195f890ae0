import {
  createPersonalToken,
  deletePersonalToken,
  listPersonalTokens,
  personalTokenInputSchema,
} from '@flagstaff/core';
import { operationRoute } from '../operation-route.js';
import { idParam } from './bodies.js';

/**
 * The signed-in user's personal access tokens: each route serves one operation of
 * `core/src/services/access/personal-token-operations.ts` (signed-in users only, never API tokens).
 */
export const personalTokenRoutes = [
  operationRoute({
    method: 'get',
    path: '/api/admin/user/tokens',
    operation: listPersonalTokens,
    input: () => ({}),
    api: 'admin',
    tag: 'Personal access tokens',
    status: 200,
  }),
  operationRoute({
    method: 'post',
    path: '/api/admin/user/tokens',
    operation: createPersonalToken,
    api: 'admin',
    tag: 'Personal access tokens',
    status: 201,
    body: personalTokenInputSchema,
    errors: [400, 403],
  }),
  operationRoute({
    method: 'delete',
    path: '/api/admin/user/tokens/:id',
    operation: deletePersonalToken,
    // An id that is no number names no token: 404, as for anyone else's.
    input: ({ params }) => ({ id: idParam(params.id, 'personal access token') }),
    api: 'admin',
    tag: 'Personal access tokens',
    status: 200,
    empty: true,
    errors: [404],
  }),
];
