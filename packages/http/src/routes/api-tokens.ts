import {
  createApiToken,
  createApiTokenSchema,
  createProjectApiToken,
  deleteApiToken,
  deleteProjectApiToken,
  listApiTokens,
  listApiTokensByName,
  listProjectApiTokens,
  updateApiTokenExpiry,
  updateApiTokenSchema,
} from '@flagstaff/core';
import { bodyFields, operationRoute } from '../operation-route.js';

/**
 * API tokens, root and project-scoped: each route serves one operation of
 * `core/src/services/access/api-token-operations.ts`, whose permission (for changes, the stored
 * token's type) the policy judges. Lists hold only the tokens the caller may read.
 */
export const apiTokenRoutes = [
  operationRoute({
    method: 'get',
    path: '/api/admin/api-tokens',
    operation: listApiTokens,
    api: 'admin',
    tag: 'API tokens',
    status: 200,
  }),
  operationRoute({
    method: 'post',
    path: '/api/admin/api-tokens',
    operation: createApiToken,
    api: 'admin',
    tag: 'API tokens',
    status: 201,
    body: createApiTokenSchema,
  }),
  operationRoute({
    method: 'get',
    path: '/api/admin/api-tokens/:name',
    operation: listApiTokensByName,
    input: ({ params }) => ({ name: params.name }),
    api: 'admin',
    tag: 'API tokens',
    status: 200,
  }),
  operationRoute({
    method: 'put',
    path: '/api/admin/api-tokens/:token',
    operation: updateApiTokenExpiry,
    api: 'admin',
    tag: 'API tokens',
    status: 200,
    empty: true,
    body: updateApiTokenSchema,
    errors: [403],
  }),
  operationRoute({
    method: 'delete',
    path: '/api/admin/api-tokens/:token',
    operation: deleteApiToken,
    input: ({ params }) => ({ token: params.token }),
    api: 'admin',
    tag: 'API tokens',
    status: 200,
    empty: true,
    errors: [403],
  }),
  operationRoute({
    method: 'get',
    path: '/api/admin/projects/:projectId/api-tokens',
    operation: listProjectApiTokens,
    input: ({ params }) => ({ project: params.projectId }),
    api: 'admin',
    tag: 'Projects',
    status: 200,
    errors: [404],
  }),
  operationRoute({
    method: 'post',
    path: '/api/admin/projects/:projectId/api-tokens',
    operation: createProjectApiToken,
    // The path names the project; a body's `project` or `projects` cannot widen the token.
    input: ({ params, body }) => ({ ...bodyFields(body), project: params.projectId, projects: undefined }),
    api: 'admin',
    tag: 'Projects',
    status: 201,
    body: createApiTokenSchema,
    errors: [400, 404],
  }),
  operationRoute({
    method: 'delete',
    path: '/api/admin/projects/:projectId/api-tokens/:token',
    operation: deleteProjectApiToken,
    input: ({ params }) => ({ project: params.projectId, token: params.token }),
    api: 'admin',
    tag: 'Projects',
    status: 200,
    empty: true,
    errors: [404],
  }),
];
