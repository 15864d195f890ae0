import { environmentSortOrderSchema, setEnvironmentOrder } from '@flagstaff/core';
import { operationRoute } from '../operation-route.js';

/** The sort order of environments (`core/src/services/projects/environment-order-operations.ts`). */
export const environmentOrderRoutes = [
  operationRoute({
    method: 'put',
    path: '/api/admin/environments/sort-order',
    operation: setEnvironmentOrder,
    input: ({ body }) => body,
    api: 'admin',
    tag: 'Environments',
    status: 200,
    empty: true,
    body: environmentSortOrderSchema,
    errors: [400, 404],
  }),
];
