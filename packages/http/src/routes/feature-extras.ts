import { cloneFeatureSchema, completeFeatureSchema, validateConstraintSchema } from '@flagstaff/core';
import { defineRoutes } from '../route.js';

const F = '/api/admin/projects/:projectId/features/:featureName';

/** The reference's feature operations beyond the contract. */
export const featureExtraRoutes = defineRoutes([
  {
    method: 'get',
    path: `${F}/environments/:environment`,
    api: 'admin',
    tag: 'Features',
    summary: 'A feature in one environment: switch, strategies, variants',
    status: 200,
    errors: [404],
    handler: ({ flagstaff, caller, params }) =>
      flagstaff.featureExtras.environment(
        caller,
        params.projectId!,
        params.featureName!,
        params.environment!,
      ),
  },
  {
    method: 'post',
    path: `${F}/clone`,
    api: 'admin',
    tag: 'Features',
    summary: 'Clone a feature: strategies, variants, switches, tags and dependencies, in one transaction',
    status: 201,
    body: cloneFeatureSchema,
    errors: [400, 404, 409],
    handler: ({ flagstaff, caller, params, body }) =>
      flagstaff.featureExtras.clone(caller, params.projectId!, params.featureName!, body),
  },
  {
    method: 'get',
    path: `${F}/lifecycle`,
    api: 'admin',
    tag: 'Lifecycle',
    summary: "A feature's lifecycle stages",
    status: 200,
    errors: [404],
    handler: ({ flagstaff, caller, params }) =>
      flagstaff.featureExtras.lifecycle(caller, params.projectId!, params.featureName!),
  },
  {
    method: 'post',
    path: `${F}/lifecycle/complete`,
    api: 'admin',
    tag: 'Lifecycle',
    summary: "Mark a feature's work complete (kept or discarded)",
    status: 202,
    empty: true,
    body: completeFeatureSchema,
    errors: [400, 404],
    handler: ({ flagstaff, caller, params, body }) =>
      flagstaff.featureExtras.complete(caller, params.projectId!, params.featureName!, body),
  },
  {
    method: 'post',
    path: `${F}/lifecycle/uncomplete`,
    api: 'admin',
    tag: 'Lifecycle',
    summary: 'Take a completed feature back to live',
    status: 200,
    empty: true,
    errors: [404],
    handler: ({ flagstaff, caller, params }) =>
      flagstaff.featureExtras.uncomplete(caller, params.projectId!, params.featureName!),
  },
  {
    method: 'get',
    path: '/api/admin/lifecycle/count',
    api: 'admin',
    tag: 'Lifecycle',
    summary: 'How many features are in each lifecycle stage',
    status: 200,
    handler: ({ flagstaff, caller }) => flagstaff.featureExtras.lifecycleCount(caller),
  },
  {
    method: 'post',
    path: '/api/admin/constraints/validate',
    api: 'admin',
    tag: 'Strategies',
    summary: 'Check a constraint (204 when valid; 400 naming what is wrong)',
    status: 204,
    empty: true,
    body: validateConstraintSchema,
    handler: ({ flagstaff, caller, body }) => flagstaff.featureExtras.validateConstraint(caller, body),
  },
]);
