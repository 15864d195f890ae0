import { dependencyInputSchema } from '@flagstaff/core';
import { defineRoutes } from '../route.js';

const D = '/api/admin/projects/:projectId/features/:child/dependencies';

/** Parent dependencies between features. */
export const dependencyRoutes = defineRoutes([
  {
    method: 'post',
    path: D,
    api: 'admin',
    tag: 'Dependencies',
    summary: 'Add a parent dependency',
    status: 200,
    empty: true,
    body: dependencyInputSchema,
    handler: ({ flagstaff, caller, params, body }) =>
      flagstaff.dependencies.add(caller, params.projectId!, params.child!, body),
  },
  {
    method: 'delete',
    path: `${D}/:parent`,
    api: 'admin',
    tag: 'Dependencies',
    summary: 'Remove a parent dependency',
    status: 200,
    empty: true,
    handler: ({ flagstaff, caller, params }) =>
      flagstaff.dependencies.remove(caller, params.projectId!, params.child!, params.parent!),
  },
  {
    method: 'delete',
    path: D,
    api: 'admin',
    tag: 'Dependencies',
    summary: 'Remove every parent dependency of a feature',
    status: 200,
    empty: true,
    handler: ({ flagstaff, caller, params }) =>
      flagstaff.dependencies.removeAll(caller, params.projectId!, params.child!),
  },
  {
    method: 'get',
    path: '/api/admin/projects/:projectId/features/:child/parents',
    api: 'admin',
    tag: 'Dependencies',
    summary: 'List the parent dependencies of a feature',
    status: 200,
    handler: ({ flagstaff, params, caller }) =>
      flagstaff.dependencies.list(caller, params.projectId!, params.child!),
  },
  {
    method: 'get',
    path: '/api/admin/projects/:projectId/dependencies',
    api: 'admin',
    tag: 'Dependencies',
    summary: 'Whether any feature of a project has dependencies',
    status: 200,
    handler: ({ flagstaff, params, caller }) =>
      flagstaff.dependencies.projectHasDependencies(caller, params.projectId!),
  },
]);
