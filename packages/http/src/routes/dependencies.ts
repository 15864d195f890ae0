import { dependencyInputSchema, NONE } from '@flagstaff/core';
import { defineRoutes } from '../route.js';

const D = '/api/admin/projects/:projectId/features/:child/dependencies';
const scope = { project: 'projectId' };

/** Parent dependencies between features. */
export const dependencyRoutes = defineRoutes([
  {
    method: 'post',
    path: D,
    api: 'admin',
    permission: 'UPDATE_FEATURE_DEPENDENCY',
    scope,
    tag: 'Dependencies',
    summary: 'Add a parent dependency',
    status: 200,
    empty: true,
    body: dependencyInputSchema,
    handler: ({ flagstaff, actor, params, body }) =>
      flagstaff.dependencies.add(actor, params.projectId!, params.child!, body),
  },
  {
    method: 'delete',
    path: `${D}/:parent`,
    api: 'admin',
    permission: 'UPDATE_FEATURE_DEPENDENCY',
    scope,
    tag: 'Dependencies',
    summary: 'Remove a parent dependency',
    status: 200,
    empty: true,
    handler: ({ flagstaff, actor, params }) =>
      flagstaff.dependencies.remove(actor, params.projectId!, params.child!, params.parent!),
  },
  {
    method: 'delete',
    path: D,
    api: 'admin',
    permission: 'UPDATE_FEATURE_DEPENDENCY',
    scope,
    tag: 'Dependencies',
    summary: 'Remove every parent dependency of a feature',
    status: 200,
    empty: true,
    handler: ({ flagstaff, actor, params }) =>
      flagstaff.dependencies.removeAll(actor, params.projectId!, params.child!),
  },
  {
    method: 'get',
    path: '/api/admin/projects/:projectId/features/:child/parents',
    api: 'admin',
    permission: NONE,
    scope,
    tag: 'Dependencies',
    summary: 'List the parent dependencies of a feature',
    status: 200,
    handler: ({ flagstaff, params }) => flagstaff.dependencies.list(params.projectId!, params.child!),
  },
  {
    method: 'get',
    path: '/api/admin/projects/:projectId/dependencies',
    api: 'admin',
    permission: NONE,
    scope,
    tag: 'Dependencies',
    summary: 'Whether any feature of a project has dependencies',
    status: 200,
    handler: ({ flagstaff, params }) => flagstaff.dependencies.projectHasDependencies(params.projectId!),
  },
]);
