import {
  addGroupUsers,
  createGroup,
  createGroupSchema,
  deleteGroup,
  getGroup,
  listGroups,
  removeGroupUser,
  searchGroups,
  updateGroup,
  updateGroupSchema,
} from '@flagstaff/core';
import { z } from 'zod';
import { bodyFields, operationRoute } from '../operation-route.js';
import { idParam } from './bodies.js';

const groupUsersBody = createGroupSchema.pick({ users: true });

/**
 * Groups of users: reading them is for anyone signed in, changing them for Admins. Each route serves
 * one operation of `core/src/services/access/group-operations.ts`; an id that is no number is a 404.
 */
export const groupRoutes = [
  operationRoute({
    method: 'get',
    path: '/api/admin/groups',
    operation: listGroups,
    input: () => ({}),
    api: 'admin',
    tag: 'Groups',
    status: 200,
  }),
  operationRoute({
    method: 'post',
    path: '/api/admin/groups',
    operation: createGroup,
    api: 'admin',
    tag: 'Groups',
    status: 201,
    body: createGroupSchema,
    errors: [409],
  }),
  {
    ...operationRoute({
      method: 'get',
      path: '/api/admin/groups/search',
      operation: searchGroups,
      input: ({ query }) => query,
      api: 'admin',
      tag: 'Groups',
      status: 200,
    }),
    // The query string in the OpenAPI document (an operation route documents no query).
    query: z.object({ q: z.string().optional() }),
  },
  operationRoute({
    method: 'get',
    path: '/api/admin/groups/:groupId',
    operation: getGroup,
    input: ({ params }) => ({ id: idParam(params.groupId, 'group') }),
    api: 'admin',
    tag: 'Groups',
    status: 200,
  }),
  operationRoute({
    method: 'post',
    path: '/api/admin/groups/:groupId/users',
    operation: addGroupUsers,
    input: ({ params, body }) => ({ ...bodyFields(body), id: idParam(params.groupId, 'group') }),
    api: 'admin',
    tag: 'Groups',
    status: 200,
    body: groupUsersBody,
  }),
  operationRoute({
    method: 'put',
    path: '/api/admin/groups/:groupId',
    operation: updateGroup,
    input: ({ params, body }) => ({ ...bodyFields(body), id: idParam(params.groupId, 'group') }),
    api: 'admin',
    tag: 'Groups',
    status: 200,
    body: updateGroupSchema,
    errors: [409],
  }),
  operationRoute({
    method: 'delete',
    path: '/api/admin/groups/:groupId',
    operation: deleteGroup,
    input: ({ params }) => ({ id: idParam(params.groupId, 'group') }),
    api: 'admin',
    tag: 'Groups',
    status: 200,
    empty: true,
  }),
  operationRoute({
    method: 'delete',
    path: '/api/admin/groups/:groupId/users/:userId',
    operation: removeGroupUser,
    input: ({ params }) => ({ id: idParam(params.groupId, 'group'), userId: idParam(params.userId, 'user') }),
    api: 'admin',
    tag: 'Groups',
    status: 200,
  }),
];
