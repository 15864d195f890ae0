import { createUserSchema } from '@flagstaff/core';
import { absoluteLink } from '../public-links.js';
import { defineRoutes } from '../route.js';
import { idParam } from './bodies.js';

/** Users and roles (groups: groups.ts; roles in projects: project-access.ts). */
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
]);
