import {
  getProjectHealthReport,
  getProjectInsights,
  getProjectStatus,
  listProjectApplications,
  listProjectFlagCreators,
} from '@flagstaff/core';
import { operationRoute } from '../operation-route.js';

/**
 * The reference's project views beyond the overview (project tokens: `api-tokens.ts`): each route
 * serves an operation of `core/.../project-status-operations.ts`.
 */
export const projectViewRoutes = [
  operationRoute({
    method: 'get',
    path: '/api/admin/projects/:projectId/applications',
    operation: listProjectApplications,
    input: ({ params }) => ({ project: params.projectId }),
    api: 'admin',
    tag: 'Projects',
    status: 200,
    errors: [404],
  }),
  operationRoute({
    method: 'get',
    path: '/api/admin/projects/:projectId/flag-creators',
    operation: listProjectFlagCreators,
    input: ({ params }) => ({ project: params.projectId }),
    api: 'admin',
    tag: 'Projects',
    status: 200,
    errors: [404],
  }),
  operationRoute({
    method: 'get',
    path: '/api/admin/projects/:projectId/status',
    operation: getProjectStatus,
    input: ({ params }) => ({ project: params.projectId }),
    api: 'admin',
    tag: 'Projects',
    status: 200,
    errors: [404],
  }),
  operationRoute({
    method: 'get',
    path: '/api/admin/projects/:projectId/health-report',
    operation: getProjectHealthReport,
    input: ({ params }) => ({ project: params.projectId }),
    api: 'admin',
    tag: 'Projects',
    status: 200,
    errors: [404],
  }),
  operationRoute({
    method: 'get',
    path: '/api/admin/projects/:projectId/insights',
    operation: getProjectInsights,
    input: ({ params }) => ({ project: params.projectId }),
    api: 'admin',
    tag: 'Projects',
    status: 200,
    errors: [404],
  }),
];
