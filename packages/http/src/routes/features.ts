import {
  createFeatureSchema,
  parseWith,
  patchDocumentSchema,
  updateFeatureSchema,
  validateFeatureNameSchema,
} from '@flagstaff/core';
import { z } from 'zod';
import { defineRoutes, streamJsonList } from '../route.js';
import { featureNamesBody, staleBody } from './bodies.js';

const P = '/api/admin/projects/:projectId';
const F = `${P}/features/:featureName`;
const _project = { project: 'projectId' };
const _feature = { feature: 'featureName' };
const names = (body: unknown) => parseWith(featureNamesBody, body).features;

/** Features: create, read, update, archive, revive, delete, stale, favorites. */
export const featureRoutes = defineRoutes([
  {
    method: 'get',
    path: '/api/admin/features',
    api: 'admin',
    tag: 'Features',
    summary: 'List features of every project',
    deprecated: true,
    status: 200,
    handler: async ({ flagstaff, caller }) => ({
      version: 2,
      features: await flagstaff.features.list(caller),
    }),
  },
  {
    method: 'post',
    path: '/api/admin/features/validate',
    api: 'admin',
    tag: 'Features',
    summary: 'Validate a feature name',
    status: 200,
    empty: true,
    body: validateFeatureNameSchema,
    errors: [404, 409],
    handler: ({ flagstaff, body, caller }) => flagstaff.features.validateName(caller, body),
  },
  {
    method: 'get',
    path: `${P}/features`,
    api: 'admin',
    tag: 'Features',
    summary: 'List features of a project',
    status: 200,
    // Streamed as it is read, a page of features at a time: a large project is tens of megabytes.
    handler: async ({ flagstaff, params, caller }) =>
      streamJsonList(
        '{"version":2,"features":',
        await flagstaff.features.listPages(caller, params.projectId!),
        '}',
      ),
  },
  {
    method: 'post',
    path: `${P}/features`,
    api: 'admin',
    tag: 'Features',
    summary: 'Create a feature',
    status: 200,
    body: createFeatureSchema,
    errors: [409],
    handler: ({ flagstaff, caller, params, body }) =>
      flagstaff.features.create(caller, params.projectId!, body),
  },
  {
    method: 'get',
    path: F,
    api: 'admin',
    tag: 'Features',
    summary: 'Get a feature',
    status: 200,
    handler: ({ flagstaff, params, caller }) =>
      flagstaff.features.get(caller, params.projectId!, params.featureName!),
  },
  {
    method: 'put',
    path: F,
    api: 'admin',
    tag: 'Features',
    summary: 'Update a feature',
    status: 200,
    body: updateFeatureSchema,
    handler: ({ flagstaff, caller, params, body }) =>
      flagstaff.features.update(caller, params.projectId!, params.featureName!, body),
  },
  {
    method: 'patch',
    path: F,
    api: 'admin',
    tag: 'Features',
    summary: 'Patch a feature',
    status: 200,
    body: patchDocumentSchema,
    handler: ({ flagstaff, caller, params, body }) =>
      flagstaff.features.patch(caller, params.projectId!, params.featureName!, body),
  },
  {
    method: 'delete',
    path: F,
    api: 'admin',
    tag: 'Features',
    summary: 'Archive a feature',
    status: 202,
    empty: true,
    handler: ({ flagstaff, caller, params }) =>
      flagstaff.features.archive(caller, params.projectId!, [params.featureName!]),
  },
  {
    method: 'post',
    path: `${P}/archive`,
    api: 'admin',
    tag: 'Features',
    summary: 'Archive features',
    status: 202,
    empty: true,
    body: featureNamesBody,
    handler: ({ flagstaff, caller, params, body }) =>
      flagstaff.features.archive(caller, params.projectId!, names(body)),
  },
  {
    method: 'post',
    path: `${P}/archive/validate`,
    api: 'admin',
    tag: 'Features',
    summary: 'Validate archiving features',
    status: 200,
    body: featureNamesBody,
    response: z.object({
      parentsWithChildFeatures: z.array(z.string()),
      hasDeletedDependencies: z.boolean(),
    }),
    handler: ({ flagstaff, params, body, caller }) =>
      flagstaff.features.validateArchive(caller, params.projectId!, names(body)),
  },
  {
    method: 'get',
    path: '/api/admin/archive/features',
    api: 'admin',
    tag: 'Archive',
    summary: 'List archived features',
    status: 200,
    handler: async ({ flagstaff, caller }) => ({
      version: 2,
      features: await flagstaff.features.listArchived(caller),
    }),
  },
  {
    method: 'get',
    path: '/api/admin/archive/features/:projectId',
    api: 'admin',
    tag: 'Archive',
    summary: 'List archived features of a project',
    deprecated: true,
    status: 200,
    handler: async ({ flagstaff, params, caller }) => ({
      version: 2,
      features: await flagstaff.features.listArchived(caller, params.projectId!),
    }),
  },
  {
    method: 'post',
    path: '/api/admin/archive/revive/:featureName',
    api: 'admin',
    tag: 'Archive',
    summary: 'Revive an archived feature',
    status: 200,
    empty: true,
    handler: ({ flagstaff, caller, params }) =>
      flagstaff.features.revive(caller, null, [params.featureName!]),
  },
  {
    method: 'post',
    path: `${P}/revive`,
    api: 'admin',
    tag: 'Archive',
    summary: 'Revive archived features',
    status: 200,
    empty: true,
    body: featureNamesBody,
    handler: ({ flagstaff, caller, params, body }) =>
      flagstaff.features.revive(caller, params.projectId!, names(body)),
  },
  {
    method: 'delete',
    path: '/api/admin/archive/:featureName',
    api: 'admin',
    tag: 'Archive',
    summary: 'Delete an archived feature',
    status: 200,
    empty: true,
    errors: [409],
    handler: ({ flagstaff, caller, params }) =>
      flagstaff.features.deleteArchived(caller, null, [params.featureName!]),
  },
  {
    method: 'post',
    path: `${P}/delete`,
    api: 'admin',
    tag: 'Archive',
    summary: 'Delete archived features',
    status: 200,
    empty: true,
    body: featureNamesBody,
    errors: [409],
    handler: ({ flagstaff, caller, params, body }) =>
      flagstaff.features.deleteArchived(caller, params.projectId!, names(body)),
  },
  {
    method: 'post',
    path: `${P}/stale`,
    api: 'admin',
    tag: 'Features',
    summary: 'Mark features stale or not',
    status: 202,
    empty: true,
    body: staleBody,
    handler: ({ flagstaff, caller, params, body }) => {
      const { features, stale } = parseWith(staleBody, body);
      return flagstaff.features.setStale(caller, params.projectId!, features, stale);
    },
  },
  {
    method: 'post',
    path: `${F}/favorites`,
    api: 'admin',
    tag: 'Features',
    summary: 'Add a feature to favorites',
    status: 200,
    empty: true,
    handler: ({ flagstaff, caller, params }) =>
      flagstaff.features.setFavorite(caller, params.projectId!, params.featureName!, true),
  },
  {
    method: 'delete',
    path: `${F}/favorites`,
    api: 'admin',
    tag: 'Features',
    summary: 'Remove a feature from favorites',
    status: 200,
    empty: true,
    handler: ({ flagstaff, caller, params }) =>
      flagstaff.features.setFavorite(caller, params.projectId!, params.featureName!, false),
  },
]);
