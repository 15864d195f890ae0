import { createEnvironmentSchema, environmentNameSchema, updateEnvironmentSchema } from '@flagstaff/core';
import { z } from 'zod';
import { defineRoutes } from '../route.js';

const E = '/api/admin/environments';

/** Environments of the instance. */
export const environmentRoutes = defineRoutes([
  {
    method: 'get',
    path: E,
    api: 'admin',
    tag: 'Environments',
    summary: 'List environments',
    status: 200,
    handler: async ({ flagstaff, caller }) => ({
      version: 1,
      environments: await flagstaff.environments.list(caller),
    }),
  },
  {
    method: 'post',
    path: E,
    api: 'admin',
    tag: 'Environments',
    summary: 'Create an environment',
    status: 201,
    body: createEnvironmentSchema,
    errors: [409],
    handler: ({ flagstaff, caller, body }) => flagstaff.environments.create(caller, body),
  },
  {
    method: 'post',
    path: `${E}/validate`,
    api: 'admin',
    // Checking a name is the first step of creating an environment, which needs ADMIN.
    tag: 'Environments',
    summary: 'Validate an environment name',
    status: 200,
    empty: true,
    // Documentation only: the service parses the body with the same name rule.
    body: z.object({ name: environmentNameSchema }),
    errors: [409],
    handler: ({ flagstaff, body, caller }) => flagstaff.environments.validateName(caller, body),
  },
  {
    method: 'get',
    path: `${E}/:name`,
    api: 'admin',
    tag: 'Environments',
    summary: 'Get an environment',
    status: 200,
    handler: ({ flagstaff, params, caller }) => flagstaff.environments.get(caller, params.name!),
  },
  {
    method: 'put',
    path: `${E}/update/:name`,
    api: 'admin',
    tag: 'Environments',
    summary: 'Update an environment',
    status: 200,
    body: updateEnvironmentSchema,
    handler: ({ flagstaff, caller, params, body }) =>
      flagstaff.environments.update(caller, params.name!, body),
  },
  {
    method: 'post',
    path: `${E}/:name/on`,
    api: 'admin',
    tag: 'Environments',
    summary: 'Turn an environment on',
    status: 204,
    empty: true,
    handler: ({ flagstaff, caller, params }) => flagstaff.environments.setEnabled(caller, params.name!, true),
  },
  {
    method: 'post',
    path: `${E}/:name/off`,
    api: 'admin',
    tag: 'Environments',
    summary: 'Turn an environment off',
    status: 204,
    empty: true,
    handler: ({ flagstaff, caller, params }) =>
      flagstaff.environments.setEnabled(caller, params.name!, false),
  },
  {
    method: 'delete',
    path: `${E}/:name`,
    api: 'admin',
    tag: 'Environments',
    summary: 'Delete an environment',
    status: 200,
    empty: true,
    errors: [409],
    handler: ({ flagstaff, caller, params }) => flagstaff.environments.delete(caller, params.name!),
  },
]);
