import { createApiTokenSchema } from '@flagstaff/core';
import { defineRoutes } from '../route.js';

const P = '/api/admin/projects/:projectId';

/** Project tokens and the reference's project views beyond the overview. */
export const projectViewRoutes = defineRoutes([
  {
    method: 'get',
    path: `${P}/api-tokens`,
    api: 'admin',
    tag: 'Projects',
    summary: "The project's own SDK tokens",
    status: 200,
    errors: [404],
    handler: ({ flagstaff, caller, params }) => flagstaff.apiTokens.project.list(caller, params.projectId!),
  },
  {
    method: 'post',
    path: `${P}/api-tokens`,
    api: 'admin',
    tag: 'Projects',
    summary: 'Create an SDK token scoped to the project (project Owners may)',
    status: 201,
    body: createApiTokenSchema,
    errors: [400, 404],
    handler: ({ flagstaff, caller, params, body }) =>
      flagstaff.apiTokens.project.create(caller, params.projectId!, body),
  },
  {
    method: 'delete',
    path: `${P}/api-tokens/:token`,
    api: 'admin',
    tag: 'Projects',
    summary: 'Delete one of the project’s SDK tokens',
    status: 200,
    empty: true,
    errors: [404],
    handler: ({ flagstaff, caller, params }) =>
      flagstaff.apiTokens.project.delete(caller, params.projectId!, params.token!),
  },
  {
    method: 'get',
    path: `${P}/applications`,
    api: 'admin',
    tag: 'Projects',
    summary: 'Applications that reported the project’s features',
    status: 200,
    errors: [404],
    handler: ({ flagstaff, caller, params }) =>
      flagstaff.projectViews.applications(caller, params.projectId!),
  },
  {
    method: 'get',
    path: `${P}/flag-creators`,
    api: 'admin',
    tag: 'Projects',
    summary: 'Who created the project’s features',
    status: 200,
    errors: [404],
    handler: ({ flagstaff, caller, params }) =>
      flagstaff.projectViews.flagCreators(caller, params.projectId!),
  },
  {
    method: 'get',
    path: `${P}/status`,
    api: 'admin',
    tag: 'Projects',
    summary: 'Activity, resources, health and lifecycle summary',
    status: 200,
    errors: [404],
    handler: ({ flagstaff, caller, params }) => flagstaff.projectViews.status(caller, params.projectId!),
  },
  {
    method: 'get',
    path: `${P}/health-report`,
    api: 'admin',
    tag: 'Projects',
    summary: 'The overview with staleness counts',
    status: 200,
    errors: [404],
    handler: ({ flagstaff, caller, params }) =>
      flagstaff.projectViews.healthReport(caller, params.projectId!),
  },
  {
    method: 'get',
    path: `${P}/insights`,
    api: 'admin',
    tag: 'Projects',
    summary: 'Stats, type counts, lead time, health and members',
    status: 200,
    errors: [404],
    handler: ({ flagstaff, caller, params }) => flagstaff.projectViews.insights(caller, params.projectId!),
  },
]);
