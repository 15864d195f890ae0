import {
  addProjectAccess,
  addRoleAccess,
  listProjectAccess,
  projectRolesSchema,
  removeGroupProjectAccess,
  removeUserProjectAccess,
  roleAccessSchema,
  setGroupProjectRole,
  setGroupProjectRoles,
  setUserProjectRoles,
} from '@flagstaff/core';
import { z } from 'zod';
import { bodyFields, operationRoute } from '../operation-route.js';
import type { Route } from '../route.js';
import { idParam } from './bodies.js';

const accessBody = z.object({
  roles: z.array(z.number().int()),
  users: z.array(z.union([z.number().int(), z.object({ id: z.number().int() })])).optional(),
  groups: z.array(z.union([z.number().int(), z.object({ id: z.number().int() })])).optional(),
});

/**
 * Who has which role in a project: users and groups, as the reference's project access routes. Each
 * route serves one operation of `core/src/services/access/project-access-operations.ts`.
 */
export const projectAccessRoutes: Route[] = [
  operationRoute({
    method: 'get',
    path: '/api/admin/projects/:projectId/access',
    operation: listProjectAccess,
    input: ({ params }) => ({ projectId: params.projectId }),
    api: 'admin',
    tag: 'Projects',
    status: 200,
  }),
  operationRoute({
    method: 'post',
    path: '/api/admin/projects/:projectId/access',
    operation: addProjectAccess,
    input: ({ params, body }) => ({ ...bodyFields(body), projectId: params.projectId }),
    api: 'admin',
    tag: 'Projects',
    status: 200,
    empty: true,
    body: accessBody,
  }),
  operationRoute({
    method: 'put',
    path: '/api/admin/projects/:projectId/users/:userId/roles',
    operation: setUserProjectRoles,
    input: ({ params, body }) => ({
      ...bodyFields(body),
      projectId: params.projectId,
      userId: idParam(params.userId, 'user'),
    }),
    api: 'admin',
    tag: 'Projects',
    status: 200,
    empty: true,
    body: projectRolesSchema,
  }),
  operationRoute({
    method: 'put',
    path: '/api/admin/projects/:projectId/groups/:groupId/roles/:roleId',
    operation: setGroupProjectRole,
    input: ({ params }) => ({
      projectId: params.projectId,
      groupId: idParam(params.groupId, 'group'),
      roleId: idParam(params.roleId, 'role'),
    }),
    api: 'admin',
    tag: 'Projects',
    deprecated: true,
    status: 200,
    empty: true,
  }),
  operationRoute({
    method: 'put',
    path: '/api/admin/projects/:projectId/groups/:groupId/roles',
    operation: setGroupProjectRoles,
    input: ({ params, body }) => ({
      ...bodyFields(body),
      projectId: params.projectId,
      groupId: idParam(params.groupId, 'group'),
    }),
    api: 'admin',
    tag: 'Projects',
    status: 200,
    empty: true,
    body: projectRolesSchema,
  }),
  operationRoute({
    method: 'delete',
    path: '/api/admin/projects/:projectId/users/:userId/roles',
    operation: removeUserProjectAccess,
    input: ({ params }) => ({ projectId: params.projectId, userId: idParam(params.userId, 'user') }),
    api: 'admin',
    tag: 'Projects',
    status: 200,
    empty: true,
  }),
  operationRoute({
    method: 'delete',
    path: '/api/admin/projects/:projectId/groups/:groupId/roles',
    operation: removeGroupProjectAccess,
    input: ({ params }) => ({ projectId: params.projectId, groupId: idParam(params.groupId, 'group') }),
    api: 'admin',
    tag: 'Projects',
    status: 200,
    empty: true,
  }),
  operationRoute({
    method: 'post',
    path: '/api/admin/projects/:projectId/role/:roleId/access',
    operation: addRoleAccess,
    input: ({ params, body }) => ({
      ...bodyFields(body),
      projectId: params.projectId,
      roleId: idParam(params.roleId, 'role'),
    }),
    api: 'admin',
    tag: 'Projects',
    status: 200,
    empty: true,
    body: roleAccessSchema,
  }),
];
