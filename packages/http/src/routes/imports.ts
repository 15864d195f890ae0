import { importBodySchema, importFeatures, validateFeatureImport } from '@flagstaff/core';
import { operationRoute } from '../operation-route.js';

/** Importing features (Unleash's features-batch API): validate first, then apply in one transaction. */
export const importRoutes = [
  operationRoute({
    method: 'post',
    path: '/api/admin/features-batch/validate',
    operation: validateFeatureImport,
    api: 'admin',
    tag: 'Import/Export',
    status: 200,
    body: importBodySchema,
    bodyLimit: 'import',
  }),
  operationRoute({
    method: 'post',
    path: '/api/admin/features-batch/import',
    operation: importFeatures,
    api: 'admin',
    tag: 'Import/Export',
    status: 200,
    empty: true,
    body: importBodySchema,
    bodyLimit: 'import',
  }),
];
