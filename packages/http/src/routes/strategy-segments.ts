import { listStrategySegments, setStrategySegments, strategySegmentsSchema } from '@flagstaff/core';
import { operationRoute } from '../operation-route.js';

/** The segments of one strategy (`core/src/services/projects/segment-strategy-operations.ts`). */
export const strategySegmentRoutes = [
  operationRoute({
    method: 'get',
    path: '/api/admin/segments/strategies/:strategyId',
    operation: listStrategySegments,
    input: ({ params }) => ({ strategyId: params.strategyId }),
    api: 'admin',
    tag: 'Segments',
    status: 200,
    errors: [404],
  }),
  operationRoute({
    method: 'post',
    path: '/api/admin/segments/strategies',
    operation: setStrategySegments,
    input: ({ body }) => body,
    api: 'admin',
    tag: 'Segments',
    status: 201,
    empty: true,
    body: strategySegmentsSchema,
    errors: [400, 404],
  }),
];
