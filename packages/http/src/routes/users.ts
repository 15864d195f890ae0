import {
  createUser,
  createUserSchema,
  getRole,
  getUser,
  listRoles,
  listUsers,
  removeUser,
  updateUser,
  updateUserSchema,
} from '@flagstaff/core';
import { bodyFields, operationRoute } from '../operation-route.js';
import { absoluteLink } from '../public-links.js';
import type { Route } from '../route.js';
import { idParam } from './bodies.js';

/**
 * Users and roles (groups: groups.ts; roles in projects: project-access.ts). Each route serves one
 * operation of `core/src/services/access/user-operations.ts`; an id that is no number is a 404.
 */
export const userRoutes: Route[] = [
  operationRoute({
    method: 'get',
    path: '/api/admin/user-admin',
    operation: listUsers,
    input: () => ({}),
    api: 'admin',
    tag: 'Users',
    status: 200,
  }),
  operationRoute({
    method: 'post',
    path: '/api/admin/user-admin',
    operation: createUser,
    // The set-password link, absolute against the address the Admin used.
    answer: (user, { request, secureCookies }) =>
      user.inviteLink ? { ...user, inviteLink: absoluteLink(request, user.inviteLink, secureCookies) } : user,
    api: 'admin',
    tag: 'Users',
    status: 201,
    body: createUserSchema,
    errors: [409],
  }),
  operationRoute({
    method: 'get',
    path: '/api/admin/user-admin/:id',
    operation: getUser,
    input: ({ params }) => ({ id: idParam(params.id, 'user') }),
    api: 'admin',
    tag: 'Users',
    status: 200,
  }),
  operationRoute({
    method: 'put',
    path: '/api/admin/user-admin/:id',
    operation: updateUser,
    input: ({ params, body }) => ({ ...bodyFields(body), id: idParam(params.id, 'user') }),
    api: 'admin',
    tag: 'Users',
    status: 200,
    body: updateUserSchema,
    errors: [404, 409],
  }),
  operationRoute({
    method: 'delete',
    path: '/api/admin/user-admin/:id',
    operation: removeUser,
    input: ({ params }) => ({ id: idParam(params.id, 'user') }),
    api: 'admin',
    tag: 'Users',
    status: 200,
    empty: true,
    errors: [404],
  }),
  operationRoute({
    method: 'get',
    path: '/api/admin/roles',
    operation: listRoles,
    input: () => ({}),
    api: 'admin',
    tag: 'Users',
    status: 200,
  }),
  operationRoute({
    method: 'get',
    path: '/api/admin/roles/:id',
    operation: getRole,
    input: ({ params }) => ({ id: idParam(params.id, 'role') }),
    api: 'admin',
    tag: 'Users',
    status: 200,
  }),
];
