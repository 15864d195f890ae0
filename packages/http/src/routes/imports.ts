import { importBodySchema } from '@flagstaff/core';
import { defineRoutes } from '../route.js';

/** Importing features (Unleash's features-batch API): validate first, then apply in one transaction. */
export const importRoutes = defineRoutes([
  {
    method: 'post',
    path: '/api/admin/features-batch/validate',
    api: 'admin',
    tag: 'Import/Export',
    summary: 'Validate an import: every error, warning and missing permission, nothing written',
    status: 200,
    body: importBodySchema,
    bodyLimit: 'import',
    handler: ({ flagstaff, caller, body }) => flagstaff.imports.validate(caller, body),
  },
  {
    method: 'post',
    path: '/api/admin/features-batch/import',
    api: 'admin',
    tag: 'Import/Export',
    summary: 'Import features into a project and environment (features-imported)',
    status: 200,
    empty: true,
    body: importBodySchema,
    bodyLimit: 'import',
    handler: ({ flagstaff, caller, body }) => flagstaff.imports.import(caller, body),
  },
]);
