import {
  contextFieldSchema,
  legalValueSchema,
  updateContextFieldSchema,
  validateContextFieldNameSchema,
} from '@flagstaff/core';
import { defineRoutes } from '../route.js';

const C = '/api/admin/projects/:projectId/context';

/** Context fields scoped to one project. */
export const projectContextRoutes = defineRoutes([
  {
    method: 'get',
    path: C,
    api: 'admin',
    tag: 'Context',
    summary: "The project's own context fields",
    status: 200,
    errors: [404],
    handler: ({ flagstaff, caller, params }) =>
      flagstaff.projectContextFields.list(caller, params.projectId!),
  },
  {
    method: 'post',
    path: C,
    api: 'admin',
    tag: 'Context',
    summary: 'Create a context field of the project',
    status: 201,
    body: contextFieldSchema,
    errors: [400, 404, 409],
    handler: ({ flagstaff, caller, params, body }) =>
      flagstaff.projectContextFields.create(caller, params.projectId!, body),
  },
  {
    method: 'post',
    path: `${C}/validate`,
    api: 'admin',
    tag: 'Context',
    summary: 'Check a name for a new context field of the project',
    status: 200,
    empty: true,
    body: validateContextFieldNameSchema,
    errors: [400, 409],
    handler: ({ flagstaff, caller, params, body }) =>
      flagstaff.projectContextFields.validateName(caller, params.projectId!, body),
  },
  {
    method: 'get',
    path: `${C}/:contextField`,
    api: 'admin',
    tag: 'Context',
    summary: 'One context field of the project',
    status: 200,
    errors: [404],
    handler: ({ flagstaff, caller, params }) =>
      flagstaff.projectContextFields.get(caller, params.projectId!, params.contextField!),
  },
  {
    method: 'put',
    path: `${C}/:contextField`,
    api: 'admin',
    tag: 'Context',
    summary: 'Change a context field of the project',
    status: 200,
    empty: true,
    body: updateContextFieldSchema,
    errors: [400, 404],
    handler: async ({ flagstaff, caller, params, body }) => {
      await flagstaff.projectContextFields.update(caller, params.projectId!, params.contextField!, body);
    },
  },
  {
    method: 'delete',
    path: `${C}/:contextField`,
    api: 'admin',
    tag: 'Context',
    summary: 'Delete a context field of the project',
    status: 200,
    empty: true,
    errors: [404],
    handler: ({ flagstaff, caller, params }) =>
      flagstaff.projectContextFields.delete(caller, params.projectId!, params.contextField!),
  },
  {
    method: 'post',
    path: `${C}/:contextField/legal-values`,
    api: 'admin',
    tag: 'Context',
    summary: 'Add a legal value to a context field of the project, or change its description',
    status: 200,
    empty: true,
    body: legalValueSchema,
    errors: [400, 404],
    handler: async ({ flagstaff, caller, params, body }) => {
      await flagstaff.projectContextFields.setLegalValue(
        caller,
        params.projectId!,
        params.contextField!,
        body,
      );
    },
  },
  {
    method: 'delete',
    path: `${C}/:contextField/legal-values/:legalValue`,
    api: 'admin',
    tag: 'Context',
    summary: 'Remove a legal value from a context field of the project',
    status: 200,
    empty: true,
    errors: [404],
    handler: async ({ flagstaff, caller, params }) => {
      await flagstaff.projectContextFields.deleteLegalValue(
        caller,
        params.projectId!,
        params.contextField!,
        params.legalValue!,
      );
    },
  },
  {
    method: 'get',
    path: `${C}/:contextField/strategies`,
    api: 'admin',
    tag: 'Context',
    summary: "The project's feature strategies constrained on the field",
    status: 200,
    errors: [404],
    handler: ({ flagstaff, caller, params }) =>
      flagstaff.projectContextFields.strategies(caller, params.projectId!, params.contextField!),
  },
]);
