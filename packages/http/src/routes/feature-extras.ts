import {
  cloneFeatureSchema,
  completeFeatureSchema,
  featureLinkInputSchema,
  validateConstraintSchema,
} from '@flagstaff/core';
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
    path: `${F}/parent-variants`,
    api: 'admin',
    tag: 'Dependencies',
    summary: 'The variant names a child feature may depend on',
    status: 200,
    errors: [404],
    handler: ({ flagstaff, caller, params }) =>
      flagstaff.featureExtras.parentVariants(caller, params.projectId!, params.featureName!),
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
    method: 'post',
    path: `${F}/link`,
    api: 'admin',
    tag: 'Features',
    summary: 'Add a link to a feature (a ticket, a dashboard)',
    status: 200,
    body: featureLinkInputSchema,
    errors: [400, 404],
    handler: ({ flagstaff, caller, params, body }) =>
      flagstaff.featureLinks.add(caller, params.projectId!, params.featureName!, body),
  },
  {
    method: 'put',
    path: `${F}/link/:linkId`,
    api: 'admin',
    tag: 'Features',
    summary: 'Change a link of a feature',
    status: 200,
    body: featureLinkInputSchema,
    errors: [400, 404],
    handler: ({ flagstaff, caller, params, body }) =>
      flagstaff.featureLinks.update(caller, params.projectId!, params.featureName!, params.linkId!, body),
  },
  {
    method: 'delete',
    path: `${F}/link/:linkId`,
    api: 'admin',
    tag: 'Features',
    summary: 'Remove a link from a feature',
    status: 200,
    empty: true,
    errors: [404],
    handler: ({ flagstaff, caller, params }) =>
      flagstaff.featureLinks.delete(caller, params.projectId!, params.featureName!, params.linkId!),
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
