import {
  addStrategy,
  copyStrategies,
  deleteStrategy,
  getStrategy,
  listStrategies,
  patchDocumentSchema,
  patchStrategy,
  reorderStrategies,
  strategyConfigSchema,
  strategyCopySchema,
  strategyOrderSchema,
  updateStrategy,
} from '@flagstaff/core';
import { bodyFields, operationRoute } from '../operation-route.js';

type LocationParams = { projectId: string; featureName: string; environment: string };
const at = (params: LocationParams) => ({
  project: params.projectId,
  feature: params.featureName,
  environment: params.environment,
});

/**
 * Strategies of a feature in an environment: each route serves one operation of
 * `core/src/services/features/strategy-operations.ts`.
 */
export const strategyRoutes = [
  operationRoute({
    method: 'get',
    path: '/api/admin/projects/:projectId/features/:featureName/environments/:environment/strategies',
    operation: listStrategies,
    input: ({ params }) => at(params),
    api: 'admin',
    tag: 'Strategies',
    status: 200,
  }),
  operationRoute({
    method: 'post',
    path: '/api/admin/projects/:projectId/features/:featureName/environments/:environment/strategies',
    operation: addStrategy,
    input: ({ params, body }) => ({ ...bodyFields(body), ...at(params) }),
    api: 'admin',
    tag: 'Strategies',
    status: 200,
    body: strategyConfigSchema,
  }),
  operationRoute({
    method: 'post',
    path: '/api/admin/projects/:projectId/features/:featureName/environments/:environment/strategies/set-sort-order',
    operation: reorderStrategies,
    input: ({ params, body }) => ({ ...at(params), order: body }),
    api: 'admin',
    tag: 'Strategies',
    status: 200,
    empty: true,
    body: strategyOrderSchema,
  }),
  operationRoute({
    method: 'post',
    path: '/api/admin/projects/:projectId/features/:featureName/environments/:environment/strategies/copy',
    operation: copyStrategies,
    input: ({ params, body }) => ({ ...bodyFields(body), ...at(params) }),
    api: 'admin',
    tag: 'Strategies',
    status: 201,
    body: strategyCopySchema,
  }),
  operationRoute({
    method: 'get',
    path: '/api/admin/projects/:projectId/features/:featureName/environments/:environment/strategies/:strategyId',
    operation: getStrategy,
    input: ({ params }) => ({ ...at(params), id: params.strategyId }),
    api: 'admin',
    tag: 'Strategies',
    status: 200,
  }),
  operationRoute({
    method: 'put',
    path: '/api/admin/projects/:projectId/features/:featureName/environments/:environment/strategies/:strategyId',
    operation: updateStrategy,
    input: ({ params, body }) => ({ ...bodyFields(body), ...at(params), id: params.strategyId }),
    api: 'admin',
    tag: 'Strategies',
    status: 200,
    body: strategyConfigSchema,
  }),
  operationRoute({
    method: 'patch',
    path: '/api/admin/projects/:projectId/features/:featureName/environments/:environment/strategies/:strategyId',
    operation: patchStrategy,
    input: ({ params, body }) => ({ ...at(params), id: params.strategyId, operations: body }),
    api: 'admin',
    tag: 'Strategies',
    status: 200,
    body: patchDocumentSchema,
  }),
  operationRoute({
    method: 'delete',
    path: '/api/admin/projects/:projectId/features/:featureName/environments/:environment/strategies/:strategyId',
    operation: deleteStrategy,
    input: ({ params }) => ({ ...at(params), id: params.strategyId }),
    api: 'admin',
    tag: 'Strategies',
    status: 200,
    empty: true,
  }),
];
