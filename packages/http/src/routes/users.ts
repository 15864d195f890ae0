import { createGroupSchema, createUserSchema, NONE, parseWith } from '@flagstaff/core';
import { z } from 'zod';
import { defineRoutes } from '../route.js';
import { idParam } from './bodies.js';

const G = '/api/admin/groups';
const P = '/api/admin/projects/:projectId';
const project = { project: 'projectId' };
const groupUsersBody = createGroupSchema.pick({ users: true });
const rolesBody = z.object({ roles: z.array(z.number().int()) });
const accessBody = z.object({
  roles: z.array(z.number().int()),
  users: z.array(z.union([z.number().int(), z.object({ id: z.number().int() })])).optional(),
  groups: z.array(z.union([z.number().int(), z.object({ id: z.number().int() })])).optional(),
});

/** Users, groups, roles, and role assignments in projects. */
export const userRoutes = defineRoutes([
  {
    method: 'get',
    path: '/api/admin/user-admin',
    api: 'admin',
    permission: 'ADMIN',
    tag: 'Users',
    summary: 'List users',
    status: 200,
    handler: async ({ flagstaff }) => ({ users: await flagstaff.users.list() }),
  },
  {
    method: 'post',
    path: '/api/admin/user-admin',
    api: 'admin',
    permission: 'ADMIN',
    tag: 'Users',
    summary: 'Create a user',
    status: 201,
    body: createUserSchema,
    errors: [409],
    handler: ({ flagstaff, actor, body }) => flagstaff.users.create(actor, body),
  },
  {
    method: 'get',
    path: '/api/admin/user-admin/:id',
    api: 'admin',
    permission: 'ADMIN',
    tag: 'Users',
    summary: 'Get a user',
    status: 200,
    handler: ({ flagstaff, params }) => flagstaff.users.get(idParam(params.id, 'user')),
  },
  {
    method: 'get',
    path: G,
    api: 'admin',
    permission: NONE,
    tag: 'Groups',
    summary: 'List groups',
    status: 200,
    handler: async ({ flagstaff }) => ({ groups: await flagstaff.users.groups.list() }),
  },
  {
    method: 'post',
    path: G,
    api: 'admin',
    permission: 'ADMIN',
    tag: 'Groups',
    summary: 'Create a group',
    status: 201,
    body: createGroupSchema,
    errors: [409],
    handler: ({ flagstaff, actor, body }) => flagstaff.users.groups.create(actor, body),
  },
  {
    method: 'get',
    path: `${G}/:groupId`,
    api: 'admin',
    permission: NONE,
    tag: 'Groups',
    summary: 'Get a group',
    status: 200,
    handler: ({ flagstaff, params }) => flagstaff.users.groups.get(idParam(params.groupId, 'group')),
  },
  {
    method: 'post',
    path: `${G}/:groupId/users`,
    api: 'admin',
    permission: 'ADMIN',
    tag: 'Groups',
    summary: 'Add users to a group',
    status: 200,
    body: groupUsersBody,
    handler: ({ flagstaff, actor, params, body }) => {
      const { users } = parseWith(groupUsersBody, body);
      return flagstaff.users.groups.addUsers(
        actor,
        idParam(params.groupId, 'group'),
        users.map((u) => u.user.id),
      );
    },
  },
  {
    method: 'get',
    path: '/api/admin/roles',
    api: 'admin',
    permission: NONE,
    tag: 'Users',
    summary: 'List roles',
    status: 200,
    handler: async ({ flagstaff }) => ({ version: 1, roles: await flagstaff.users.roles.list() }),
  },
  {
    method: 'get',
    path: '/api/admin/roles/:id',
    api: 'admin',
    permission: NONE,
    tag: 'Users',
    summary: 'Get a role',
    status: 200,
    handler: ({ flagstaff, params }) => flagstaff.users.roles.get(idParam(params.id, 'role')),
  },
  {
    method: 'get',
    path: `${P}/access`,
    api: 'admin',
    permission: NONE,
    scope: project,
    tag: 'Projects',
    summary: 'List who has which role in a project',
    status: 200,
    handler: ({ flagstaff, params }) => flagstaff.users.listProjectAccess(params.projectId!),
  },
  {
    method: 'post',
    path: `${P}/access`,
    api: 'admin',
    permission: 'UPDATE_PROJECT',
    scope: project,
    tag: 'Projects',
    summary: 'Give users and groups roles in a project',
    status: 200,
    empty: true,
    body: accessBody,
    handler: ({ flagstaff, actor, params, body }) =>
      flagstaff.users.addAccess(actor, params.projectId!, body),
  },
  {
    method: 'put',
    path: `${P}/users/:userId/roles`,
    api: 'admin',
    permission: 'UPDATE_PROJECT',
    scope: project,
    tag: 'Projects',
    summary: "Set a user's roles in a project",
    status: 200,
    empty: true,
    body: rolesBody,
    handler: ({ flagstaff, actor, params, body }) =>
      flagstaff.users.setUserProjectRoles(
        actor,
        params.projectId!,
        idParam(params.userId, 'user'),
        parseWith(rolesBody, body).roles,
      ),
  },
  {
    method: 'put',
    path: `${P}/groups/:groupId/roles/:roleId`,
    api: 'admin',
    permission: 'UPDATE_PROJECT',
    scope: project,
    tag: 'Projects',
    summary: "Set a group's role in a project",
    deprecated: true,
    status: 200,
    empty: true,
    handler: ({ flagstaff, actor, params }) =>
      flagstaff.users.setGroupProjectRole(
        actor,
        params.projectId!,
        idParam(params.groupId, 'group'),
        idParam(params.roleId, 'role'),
      ),
  },
]);
