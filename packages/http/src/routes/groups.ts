import { createGroupSchema, parseWith, updateGroupSchema } from '@flagstaff/core';
import { defineRoutes } from '../route.js';
import { idParam } from './bodies.js';

const G = '/api/admin/groups';
const groupUsersBody = createGroupSchema.pick({ users: true });

/** Groups of users: reading them is for anyone signed in, changing them for Admins. */
export const groupRoutes = defineRoutes([
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
    method: 'put',
    path: `${G}/:groupId`,
    api: 'admin',
    tag: 'Groups',
    summary: 'Update a group (name, description, root role; `users`, when given, replaces its members)',
    status: 200,
    body: updateGroupSchema,
    errors: [409],
    handler: ({ flagstaff, caller, params, body }) =>
      flagstaff.users.groups.update(caller, idParam(params.groupId, 'group'), body),
  },
  {
    method: 'delete',
    path: `${G}/:groupId`,
    api: 'admin',
    tag: 'Groups',
    summary: 'Delete a group; its members lose the project roles they had through it',
    status: 200,
    empty: true,
    handler: ({ flagstaff, caller, params }) =>
      flagstaff.users.groups.remove(caller, idParam(params.groupId, 'group')),
  },
  {
    method: 'delete',
    path: `${G}/:groupId/users/:userId`,
    api: 'admin',
    tag: 'Groups',
    summary: 'Remove a user from a group',
    status: 200,
    handler: ({ flagstaff, caller, params }) =>
      flagstaff.users.groups.removeUser(
        caller,
        idParam(params.groupId, 'group'),
        idParam(params.userId, 'user'),
      ),
  },
]);
