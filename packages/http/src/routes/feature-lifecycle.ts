import {
  completeFeature,
  completeFeatureSchema,
  countFeatureLifecycles,
  getFeatureLifecycle,
  uncompleteFeature,
} from '@flagstaff/core';
import { bodyFields, operationRoute } from '../operation-route.js';

/** Lifecycle stages of features: each route serves one operation of `feature-lifecycle-operations.ts`. */
export const featureLifecycleRoutes = [
  operationRoute({
    method: 'get',
    path: '/api/admin/projects/:projectId/features/:featureName/lifecycle',
    operation: getFeatureLifecycle,
    input: ({ params }) => ({ project: params.projectId, feature: params.featureName }),
    api: 'admin',
    tag: 'Lifecycle',
    status: 200,
    errors: [404],
  }),
  operationRoute({
    method: 'post',
    path: '/api/admin/projects/:projectId/features/:featureName/lifecycle/complete',
    operation: completeFeature,
    input: ({ params, body }) => ({
      ...bodyFields(body),
      project: params.projectId,
      feature: params.featureName,
    }),
    api: 'admin',
    tag: 'Lifecycle',
    status: 202,
    empty: true,
    body: completeFeatureSchema,
    errors: [400, 404],
  }),
  operationRoute({
    method: 'post',
    path: '/api/admin/projects/:projectId/features/:featureName/lifecycle/uncomplete',
    operation: uncompleteFeature,
    input: ({ params }) => ({ project: params.projectId, feature: params.featureName }),
    api: 'admin',
    tag: 'Lifecycle',
    status: 200,
    empty: true,
    errors: [404],
  }),
  operationRoute({
    method: 'get',
    path: '/api/admin/lifecycle/count',
    operation: countFeatureLifecycles,
    input: () => ({}),
    api: 'admin',
    tag: 'Lifecycle',
    status: 200,
  }),
];
