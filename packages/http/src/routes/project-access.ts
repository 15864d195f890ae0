import { parseWith, projectRolesSchema, roleAccessSchema } from '@flagstaff/core';
import { z } from 'zod';
import { defineRoutes } from '../route.js';
import { idParam } from './bodies.js';

const P = '/api/admin/projects/:projectId';
const rolesBody = projectRolesSchema;
const accessBody = z.object({
  roles: z.array(z.number().int()),
  users: z.array(z.union([z.number().int(), z.object({ id: z.number().int() })])).optional(),
  groups: z.array(z.union([z.number().int(), z.object({ id: z.number().int() })])).optional(),
});

/** Who has which role in a project: users and groups, as the reference's project access routes. */
export const projectAccessRoutes = defineRoutes([
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
  {
    method: 'put',
    path: `${P}/groups/:groupId/roles`,
    api: 'admin',
    tag: 'Projects',
    summary: "Set a group's roles in a project (an empty list removes its access)",
    status: 200,
    empty: true,
    body: rolesBody,
    handler: ({ flagstaff, caller, params, body }) =>
      flagstaff.users.setGroupProjectRoles(caller, params.projectId!, idParam(params.groupId, 'group'), body),
  },
  {
    method: 'delete',
    path: `${P}/users/:userId/roles`,
    api: 'admin',
    tag: 'Projects',
    summary: 'Remove a user from a project (every role they have there)',
    status: 200,
    empty: true,
    handler: ({ flagstaff, caller, params }) =>
      flagstaff.users.removeProjectAccess(caller, params.projectId!, {
        userId: idParam(params.userId, 'user'),
      }),
  },
  {
    method: 'delete',
    path: `${P}/groups/:groupId/roles`,
    api: 'admin',
    tag: 'Projects',
    summary: 'Remove a group from a project (every role it has there)',
    status: 200,
    empty: true,
    handler: ({ flagstaff, caller, params }) =>
      flagstaff.users.removeProjectAccess(caller, params.projectId!, {
        groupId: idParam(params.groupId, 'group'),
      }),
  },
  {
    method: 'post',
    path: `${P}/role/:roleId/access`,
    api: 'admin',
    tag: 'Projects',
    summary: 'Give one role in a project to users and groups',
    status: 200,
    empty: true,
    body: roleAccessSchema,
    handler: ({ flagstaff, caller, params, body }) =>
      flagstaff.users.addRoleAccess(caller, params.projectId!, idParam(params.roleId, 'role'), body),
  },
]);
