import {
  checkHealth,
  checkReady,
  edgeValidateSchema,
  frontendOriginsSchema,
  getInstanceStatistics,
  getInstanceStatisticsCsv,
  getMaintenanceMode,
  getUiConfig,
  maintenanceInputSchema,
  setFrontendOrigins,
  setMaintenanceMode,
  validateEdgeTokens,
} from '@flagstaff/core';
import { operationRoute } from '../operation-route.js';
import type { Route } from '../route.js';

/** Health and readiness, the UI configuration and statistics, maintenance mode: operations of `core/src/services/operations/`. */
const instanceRoutes: Route[] = [
  operationRoute({
    method: 'get',
    path: '/health',
    operation: checkHealth,
    api: 'public',
    tag: 'Operational',
    status: 200,
  }),
  operationRoute({
    method: 'get',
    path: '/ready',
    operation: checkReady,
    api: 'public',
    tag: 'Operational',
    status: 200,
    errors: [503],
  }),
  operationRoute({
    method: 'get',
    path: '/api/admin/ui-config',
    operation: getUiConfig,
    api: 'admin',
    tag: 'Admin UI',
    status: 200,
  }),
  operationRoute({
    method: 'post',
    path: '/api/admin/ui-config/cors',
    operation: setFrontendOrigins,
    api: 'admin',
    tag: 'Admin UI',
    status: 204,
    empty: true,
    body: frontendOriginsSchema,
    errors: [400],
  }),
  operationRoute({
    method: 'get',
    path: '/api/admin/instance-admin/statistics',
    operation: getInstanceStatistics,
    api: 'admin',
    tag: 'Instance admin',
    status: 200,
  }),
  operationRoute({
    method: 'get',
    path: '/api/admin/maintenance',
    operation: getMaintenanceMode,
    api: 'admin',
    tag: 'Maintenance',
    status: 200,
  }),
  operationRoute({
    method: 'post',
    path: '/api/admin/maintenance',
    operation: setMaintenanceMode,
    api: 'admin',
    tag: 'Maintenance',
    status: 204,
    empty: true,
    body: maintenanceInputSchema,
  }),
];

/** Health and readiness, maintenance mode, the UI configuration, instance statistics and Edge's token check. */
export const operationRoutes: Route[] = [
  ...instanceRoutes,
  operationRoute({
    method: 'get',
    path: '/api/admin/instance-admin/statistics/csv',
    operation: getInstanceStatisticsCsv,
    api: 'admin',
    tag: 'Instance admin',
    status: 200,
    mediaType: 'text/csv',
    answer: (csv) => ({
      kind: 'reply',
      status: 200,
      raw: new TextEncoder().encode(csv),
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': 'attachment; filename="flagstaff-statistics.csv"',
      },
    }),
  }),
  operationRoute({
    method: 'post',
    path: '/edge/validate',
    operation: validateEdgeTokens,
    // A client token (Unleash Edge's own) or an admin; the operation's permission says which pass.
    api: 'client',
    tag: 'Edge',
    status: 200,
    body: edgeValidateSchema,
  }),
];
