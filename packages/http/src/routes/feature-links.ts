import {
  addFeatureLink,
  deleteFeatureLink,
  featureLinkInputSchema,
  updateFeatureLink,
} from '@flagstaff/core';
import { bodyFields, operationRoute } from '../operation-route.js';

/** Links on features: each route serves one operation of `feature-link-operations.ts`. */
export const featureLinkRoutes = [
  operationRoute({
    method: 'post',
    path: '/api/admin/projects/:projectId/features/:featureName/link',
    operation: addFeatureLink,
    input: ({ params, body }) => ({
      ...bodyFields(body),
      project: params.projectId,
      feature: params.featureName,
    }),
    api: 'admin',
    tag: 'Features',
    status: 200,
    body: featureLinkInputSchema,
    errors: [400, 404],
  }),
  operationRoute({
    method: 'put',
    path: '/api/admin/projects/:projectId/features/:featureName/link/:linkId',
    operation: updateFeatureLink,
    input: ({ params, body }) => ({
      ...bodyFields(body),
      project: params.projectId,
      feature: params.featureName,
      id: params.linkId,
    }),
    api: 'admin',
    tag: 'Features',
    status: 200,
    body: featureLinkInputSchema,
    errors: [400, 404],
  }),
  operationRoute({
    method: 'delete',
    path: '/api/admin/projects/:projectId/features/:featureName/link/:linkId',
    operation: deleteFeatureLink,
    input: ({ params }) => ({ project: params.projectId, feature: params.featureName, id: params.linkId }),
    api: 'admin',
    tag: 'Features',
    status: 200,
    empty: true,
    errors: [404],
  }),
];
