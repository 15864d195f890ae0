import { createGroupSchema, createUserSchema, parseWith } from '@flagstaff/core';
import { z } from 'zod';
import { absoluteLink } from '../public-links.js';
import { defineRoutes } from '../route.js';
import { idParam } from './bodies.js';

const G = '/api/admin/groups';
const P = '/api/admin/projects/:projectId';
const _project = { project: 'projectId' };
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
    tag: 'Users',
    summary: 'List users',
    status: 200,
    handler: async ({ flagstaff, caller }) => ({ users: await flagstaff.users.list(caller) }),
  },
  {
    method: 'post',
    path: '/api/admin/user-admin',
    api: 'admin',
    tag: 'Users',
    summary: 'Create a user; `inviteLink` is their one-time set-password link (24 hours)',
    status: 201,
    body: createUserSchema,
    errors: [409],
    handler: async ({ flagstaff, caller, body, request, secureCookies }) => {
      const user = await flagstaff.users.create(caller, body);
      return user.inviteLink
        ? { ...user, inviteLink: absoluteLink(request, user.inviteLink, secureCookies) }
        : user;
    },
  },
  {
    method: 'get',
    path: '/api/admin/user-admin/:id',
    api: 'admin',
    tag: 'Users',
    summary: 'Get a user',
    status: 200,
    handler: ({ flagstaff, params, caller }) => flagstaff.users.get(caller, idParam(params.id, 'user')),
  },
  {
    method: 'get',
    path: G,
    api: 'admin',
    tag: 'Groups',
    summary: 'List groups',
    status: 200,
    handler: async ({ flagstaff, caller }) => ({ groups: await flagstaff.users.groups.list(caller) }),
  },
  {
    method: 'post',
    path: G,
    api: 'admin',
    tag: 'Groups',
    summary: 'Create a group',
    status: 201,
    body: createGroupSchema,
    errors: [409],
    handler: ({ flagstaff, caller, body }) => flagstaff.users.groups.create(caller, body),
  },
  {
    method: 'get',
    path: `${G}/:groupId`,
    api: 'admin',
    tag: 'Groups',
    summary: 'Get a group',
    status: 200,
    handler: ({ flagstaff, params, caller }) =>
      flagstaff.users.groups.get(caller, idParam(params.groupId, 'group')),
  },
  {
    method: 'post',
    path: `${G}/:groupId/users`,
    api: 'admin',
    tag: 'Groups',
    summary: 'Add users to a group',
    status: 200,
    body: groupUsersBody,
    handler: ({ flagstaff, caller, params, body }) => {
      const { users } = parseWith(groupUsersBody, body);
      return flagstaff.users.groups.addUsers(
        caller,
        idParam(params.groupId, 'group'),
        users.map((u) => u.user.id),
      );
    },
  },
  {
    method: 'get',
    path: '/api/admin/roles',
    api: 'admin',
    tag: 'Users',
    summary: 'List roles',
    status: 200,
    handler: async ({ flagstaff, caller }) => ({
      version: 1,
      roles: await flagstaff.users.roles.list(caller),
    }),
  },
  {
    method: 'get',
    path: '/api/admin/roles/:id',
    api: 'admin',
    tag: 'Users',
    summary: 'Get a role',
    status: 200,
    handler: ({ flagstaff, params, caller }) => flagstaff.users.roles.get(caller, idParam(params.id, 'role')),
  },
  {
    method: 'get',
    path: `${P}/access`,
    api: 'admin',
    tag: 'Projects',
    summary: 'List who has which role in a project',
    status: 200,
    handler: ({ flagstaff, params, caller }) => flagstaff.users.listProjectAccess(caller, params.projectId!),
  },
  {
    method: 'post',
    path: `${P}/access`,
    api: 'admin',
    tag: 'Projects',
    summary: 'Give users and groups roles in a project',
    status: 200,
    empty: true,
    body: accessBody,
    handler: ({ flagstaff, caller, params, body }) =>
      flagstaff.users.addAccess(caller, params.projectId!, body),
  },
  {
    method: 'put',
    path: `${P}/users/:userId/roles`,
    api: 'admin',
    tag: 'Projects',
    summary: "Set a user's roles in a project",
    status: 200,
    empty: true,
    body: rolesBody,
    handler: ({ flagstaff, caller, params, body }) =>
      flagstaff.users.setUserProjectRoles(
        caller,
        params.projectId!,
        idParam(params.userId, 'user'),
        parseWith(rolesBody, body).roles,
      ),
  },
  {
    method: 'put',
    path: `${P}/groups/:groupId/roles/:roleId`,
    api: 'admin',
    tag: 'Projects',
    summary: "Set a group's role in a project",
    deprecated: true,
    status: 200,
    empty: true,
    handler: ({ flagstaff, caller, params }) =>
      flagstaff.users.setGroupProjectRole(
        caller,
        params.projectId!,
        idParam(params.groupId, 'group'),
        idParam(params.roleId, 'role'),
      ),
  },
]);
