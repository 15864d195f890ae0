import { patchDocumentSchema, variantSchema } from '@flagstaff/core';
import { z } from 'zod';
import { defineRoutes } from '../route.js';
import { featureNamesBody } from './bodies.js';

const P = '/api/admin/projects/:projectId';
const F = `${P}/features/:featureName`;
const FE = `${F}/environments/:environment`;
const variantsBody = z.array(variantSchema);
const variants = async (list: Promise<unknown>) => ({ version: 1, variants: await list });

/** Features on and off per environment, and their variants. */
export const featureEnvironmentRoutes = defineRoutes([
  {
    method: 'post',
    path: `${FE}/on`,
    api: 'admin',
    tag: 'Features',
    summary: 'Turn a feature on in an environment',
    status: 200,
    empty: true,
    handler: ({ flagstaff, caller, params }) =>
      flagstaff.featureEnvironments.setEnabled(
        caller,
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
    tag: 'Features',
    summary: 'Turn a feature off in an environment',
    status: 200,
    empty: true,
    handler: ({ flagstaff, caller, params }) =>
      flagstaff.featureEnvironments.setEnabled(
        caller,
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
    tag: 'Features',
    summary: 'Turn features on in an environment',
    status: 200,
    empty: true,
    body: featureNamesBody,
    handler: ({ flagstaff, caller, params, body }) =>
      flagstaff.featureEnvironments.bulkSetEnabled(
        caller,
        params.projectId!,
        params.environment!,
        true,
        body,
      ),
  },
  {
    method: 'post',
    path: `${P}/bulk_features/environments/:environment/off`,
    api: 'admin',
    tag: 'Features',
    summary: 'Turn features off in an environment',
    status: 200,
    empty: true,
    body: featureNamesBody,
    handler: ({ flagstaff, caller, params, body }) =>
      flagstaff.featureEnvironments.bulkSetEnabled(
        caller,
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
    tag: 'Variants',
    summary: 'Get the variants of a feature environment',
    status: 200,
    handler: ({ flagstaff, params, caller }) =>
      variants(
        flagstaff.featureEnvironments.getVariants(
          caller,
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
    tag: 'Variants',
    summary: 'Replace the variants of a feature environment',
    status: 200,
    body: variantsBody,
    handler: ({ flagstaff, caller, params, body }) =>
      variants(
        flagstaff.featureEnvironments.setVariants(
          caller,
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
    tag: 'Variants',
    summary: 'Patch the variants of a feature environment',
    status: 200,
    body: patchDocumentSchema,
    handler: ({ flagstaff, caller, params, body }) =>
      variants(
        flagstaff.featureEnvironments.patchVariants(
          caller,
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
    tag: 'Variants',
    summary: 'Set the variants of a feature in several environments',
    status: 200,
    body: z.object({ variants: variantsBody, environments: z.array(z.string()) }),
    handler: ({ flagstaff, caller, params, body }) =>
      variants(
        flagstaff.featureEnvironments.setVariantsInEnvironments(
          caller,
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
    tag: 'Variants',
    summary: 'Replace the variants of a feature in every environment',
    deprecated: true,
    status: 200,
    body: variantsBody,
    handler: ({ flagstaff, caller, params, body }) =>
      variants(
        flagstaff.featureEnvironments.setFeatureVariants(
          caller,
          params.projectId!,
          params.featureName!,
          body,
        ),
      ),
  },
  {
    method: 'patch',
    path: `${F}/variants`,
    api: 'admin',
    tag: 'Variants',
    summary: 'Patch the variants of a feature in every environment',
    deprecated: true,
    status: 200,
    body: patchDocumentSchema,
    handler: ({ flagstaff, caller, params, body }) =>
      variants(
        flagstaff.featureEnvironments.setFeatureVariants(
          caller,
          params.projectId!,
          params.featureName!,
          body,
        ),
      ),
  },
]);
