import { edgeValidateSchema, maintenanceInputSchema, personalTokenInputSchema } from '@flagstaff/core';
import { defineRoutes } from '../route.js';
import { idParam } from './bodies.js';

const PAT = '/api/admin/user/tokens';

/** Health and readiness, maintenance mode, and the signed-in user's personal access tokens. */
export const operationRoutes = defineRoutes([
  {
    method: 'get',
    path: '/health',
    api: 'public',
    tag: 'Operational',
    summary: 'Liveness: the process is up',
    status: 200,
    handler: ({ flagstaff, caller }) => flagstaff.health.health(caller),
  },
  {
    method: 'get',
    path: '/ready',
    api: 'public',
    tag: 'Operational',
    summary: 'Readiness: the store answers (503 when it does not)',
    status: 200,
    errors: [503],
    handler: ({ flagstaff, caller }) => flagstaff.health.ready(caller),
  },
  {
    method: 'post',
    path: '/edge/validate',
    api: 'public',
    tag: 'Edge',
    summary: 'Which of these tokens are valid SDK tokens, and the projects each reaches (Unleash Edge)',
    status: 200,
    body: edgeValidateSchema,
    handler: ({ flagstaff, caller, body }) => flagstaff.edge.validate(caller, body),
  },
  {
    method: 'get',
    path: '/api/admin/ui-config',
    api: 'admin',
    tag: 'Admin UI',
    summary: 'What UIs and tools read about the instance: name, version, base path, maintenance mode',
    status: 200,
    handler: ({ flagstaff, caller }) => flagstaff.instance.uiConfig(caller),
  },
  {
    method: 'get',
    path: '/api/admin/instance-admin/statistics',
    api: 'admin',
    tag: 'Instance admin',
    summary: 'Counts of what the instance holds (root Admins)',
    status: 200,
    handler: ({ flagstaff, caller }) => flagstaff.instance.statistics(caller),
  },
  {
    method: 'get',
    path: '/api/admin/instance-admin/statistics/csv',
    api: 'admin',
    tag: 'Instance admin',
    summary: 'The instance statistics as CSV',
    status: 200,
    handler: async ({ flagstaff, caller }) => ({
      kind: 'reply' as const,
      status: 200,
      raw: new TextEncoder().encode(await flagstaff.instance.statisticsCsv(caller)),
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': 'attachment; filename="flagstaff-statistics.csv"',
      },
    }),
  },
  {
    method: 'get',
    path: '/api/admin/maintenance',
    api: 'admin',
    tag: 'Maintenance',
    summary: 'Whether maintenance mode is on',
    status: 200,
    handler: ({ flagstaff, caller }) => flagstaff.maintenance.get(caller),
  },
  {
    method: 'post',
    path: '/api/admin/maintenance',
    api: 'admin',
    tag: 'Maintenance',
    summary: 'Turn maintenance mode on or off (root Admins): while on, admin changes are refused with 503',
    status: 204,
    empty: true,
    body: maintenanceInputSchema,
    handler: async ({ flagstaff, caller, body }) => {
      await flagstaff.maintenance.set(caller, body);
    },
  },
  {
    method: 'get',
    path: PAT,
    api: 'admin',
    tag: 'Personal access tokens',
    summary: "The signed-in user's personal access tokens (secrets are never listed)",
    status: 200,
    handler: ({ flagstaff, caller }) => flagstaff.personalTokens.list(caller),
  },
  {
    method: 'post',
    path: PAT,
    api: 'admin',
    tag: 'Personal access tokens',
    summary: 'Create a personal access token; its secret is answered this once',
    status: 201,
    body: personalTokenInputSchema,
    errors: [400, 403],
    handler: ({ flagstaff, caller, body }) => flagstaff.personalTokens.create(caller, body),
  },
  {
    method: 'delete',
    path: `${PAT}/:id`,
    api: 'admin',
    tag: 'Personal access tokens',
    summary: 'Delete one of your personal access tokens',
    status: 200,
    empty: true,
    errors: [404],
    handler: ({ flagstaff, caller, params }) =>
      flagstaff.personalTokens.delete(caller, idParam(params.id, 'personal access token')),
  },
]);
