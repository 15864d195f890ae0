import { NONE, patchDocumentSchema, variantSchema } from '@flagstaff/core';
import { z } from 'zod';
import { defineRoutes } from '../route.js';
import { featureNamesBody } from './bodies.js';

const P = '/api/admin/projects/:projectId';
const F = `${P}/features/:featureName`;
const FE = `${F}/environments/:environment`;
const scope = { project: 'projectId', environment: 'environment' };
const variantsBody = z.array(variantSchema);
const variants = async (list: Promise<unknown>) => ({ version: 1, variants: await list });

/** Features on and off per environment, and their variants. */
export const featureEnvironmentRoutes = defineRoutes([
  {
    method: 'post',
    path: `${FE}/on`,
    api: 'admin',
    permission: 'UPDATE_FEATURE_ENVIRONMENT',
    scope,
    tag: 'Features',
    summary: 'Turn a feature on in an environment',
    status: 200,
    empty: true,
    handler: ({ flagstaff, actor, params }) =>
      flagstaff.featureEnvironments.setEnabled(
        actor,
        params.projectId!,
        params.featureName!,
        params.environment!,
        true,
      ),
  },
  {
    method: 'post',
    path: `${FE}/off`,
    api: 'admin',
    permission: 'UPDATE_FEATURE_ENVIRONMENT',
    scope,
    tag: 'Features',
    summary: 'Turn a feature off in an environment',
    status: 200,
    empty: true,
    handler: ({ flagstaff, actor, params }) =>
      flagstaff.featureEnvironments.setEnabled(
        actor,
        params.projectId!,
        params.featureName!,
        params.environment!,
        false,
      ),
  },
  {
    method: 'post',
    path: `${P}/bulk_features/environments/:environment/on`,
    api: 'admin',
    permission: 'UPDATE_FEATURE_ENVIRONMENT',
    scope,
    tag: 'Features',
    summary: 'Turn features on in an environment',
    status: 200,
    empty: true,
    body: featureNamesBody,
    handler: ({ flagstaff, actor, params, body }) =>
      flagstaff.featureEnvironments.bulkSetEnabled(actor, params.projectId!, params.environment!, true, body),
  },
  {
    method: 'post',
    path: `${P}/bulk_features/environments/:environment/off`,
    api: 'admin',
    permission: 'UPDATE_FEATURE_ENVIRONMENT',
    scope,
    tag: 'Features',
    summary: 'Turn features off in an environment',
    status: 200,
    empty: true,
    body: featureNamesBody,
    handler: ({ flagstaff, actor, params, body }) =>
      flagstaff.featureEnvironments.bulkSetEnabled(
        actor,
        params.projectId!,
        params.environment!,
        false,
        body,
      ),
  },
  {
    method: 'get',
    path: `${FE}/variants`,
    api: 'admin',
    permission: NONE,
    scope,
    tag: 'Variants',
    summary: 'Get the variants of a feature environment',
    status: 200,
    handler: ({ flagstaff, params }) =>
      variants(
        flagstaff.featureEnvironments.getVariants(
          params.projectId!,
          params.featureName!,
          params.environment!,
        ),
      ),
  },
  {
    method: 'put',
    path: `${FE}/variants`,
    api: 'admin',
    permission: 'UPDATE_FEATURE_ENVIRONMENT_VARIANTS',
    scope,
    tag: 'Variants',
    summary: 'Replace the variants of a feature environment',
    status: 200,
    body: variantsBody,
    handler: ({ flagstaff, actor, params, body }) =>
      variants(
        flagstaff.featureEnvironments.setVariants(
          actor,
          params.projectId!,
          params.featureName!,
          params.environment!,
          body,
        ),
      ),
  },
  {
    method: 'patch',
    path: `${FE}/variants`,
    api: 'admin',
    permission: 'UPDATE_FEATURE_ENVIRONMENT_VARIANTS',
    scope,
    tag: 'Variants',
    summary: 'Patch the variants of a feature environment',
    status: 200,
    body: patchDocumentSchema,
    handler: ({ flagstaff, actor, params, body }) =>
      variants(
        flagstaff.featureEnvironments.patchVariants(
          actor,
          params.projectId!,
          params.featureName!,
          params.environment!,
          body,
        ),
      ),
  },
  {
    method: 'put',
    path: `${F}/variants-batch`,
    api: 'admin',
    permission: 'UPDATE_FEATURE_ENVIRONMENT_VARIANTS',
    scope: { project: 'projectId' },
    tag: 'Variants',
    summary: 'Set the variants of a feature in several environments',
    status: 200,
    body: z.object({ variants: variantsBody, environments: z.array(z.string()) }),
    handler: ({ flagstaff, actor, params, body }) =>
      variants(
        flagstaff.featureEnvironments.setVariantsInEnvironments(
          actor,
          params.projectId!,
          params.featureName!,
          body,
        ),
      ),
  },
  {
    method: 'put',
    path: `${F}/variants`,
    api: 'admin',
    permission: 'UPDATE_FEATURE_ENVIRONMENT_VARIANTS',
    scope: { project: 'projectId' },
    tag: 'Variants',
    summary: 'Replace the variants of a feature in every environment',
    deprecated: true,
    status: 200,
    body: variantsBody,
    handler: ({ flagstaff, actor, params, body }) =>
      variants(
        flagstaff.featureEnvironments.setFeatureVariants(actor, params.projectId!, params.featureName!, body),
      ),
  },
  {
    method: 'patch',
    path: `${F}/variants`,
    api: 'admin',
    permission: 'UPDATE_FEATURE_ENVIRONMENT_VARIANTS',
    scope: { project: 'projectId' },
    tag: 'Variants',
    summary: 'Patch the variants of a feature in every environment',
    deprecated: true,
    status: 200,
    body: patchDocumentSchema,
    handler: ({ flagstaff, actor, params, body }) =>
      variants(
        flagstaff.featureEnvironments.setFeatureVariants(actor, params.projectId!, params.featureName!, body),
      ),
  },
]);
