import { defineRoutes } from '../route.js';

const P = '/api/admin/projects/:projectId';

/** The reference's project views beyond the overview (project tokens: `api-tokens.ts`). */
export const projectViewRoutes = defineRoutes([
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
