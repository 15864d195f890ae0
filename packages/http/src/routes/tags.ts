import { bulkTagSchema, tagSchema, tagTypeSchema, updateTagTypeSchema } from '@flagstaff/core';
import { z } from 'zod';
import { defineRoutes } from '../route.js';

const T = '/api/admin/tag-types';
const FT = '/api/admin/features/:featureName/tags';

/** Tag types, tags, and the tags on features. */
export const tagRoutes = defineRoutes([
  {
    method: 'get',
    path: T,
    api: 'admin',
    tag: 'Tags',
    summary: 'List tag types',
    status: 200,
    handler: async ({ flagstaff, caller }) => ({
      version: 1,
      tagTypes: await flagstaff.tags.listTypes(caller),
    }),
  },
  {
    method: 'post',
    path: T,
    api: 'admin',
    tag: 'Tags',
    summary: 'Create a tag type',
    status: 201,
    body: tagTypeSchema,
    errors: [409],
    handler: ({ flagstaff, caller, body }) => flagstaff.tags.createType(caller, body),
  },
  {
    method: 'post',
    path: `${T}/validate`,
    api: 'admin',
    tag: 'Tags',
    summary: 'Validate a tag type',
    status: 200,
    body: tagTypeSchema,
    response: z.object({ valid: z.boolean(), tagType: tagTypeSchema }),
    errors: [409],
    handler: ({ flagstaff, body, caller }) => flagstaff.tags.validateType(caller, body),
  },
  {
    method: 'get',
    path: `${T}/:name`,
    api: 'admin',
    tag: 'Tags',
    summary: 'Get a tag type',
    status: 200,
    handler: async ({ flagstaff, params, caller }) => ({
      version: 1,
      tagType: await flagstaff.tags.getType(caller, params.name!),
    }),
  },
  {
    method: 'put',
    path: `${T}/:name`,
    api: 'admin',
    tag: 'Tags',
    summary: 'Update a tag type',
    status: 200,
    empty: true,
    body: updateTagTypeSchema,
    handler: ({ flagstaff, caller, params, body }) => flagstaff.tags.updateType(caller, params.name!, body),
  },
  {
    method: 'delete',
    path: `${T}/:name`,
    api: 'admin',
    tag: 'Tags',
    summary: 'Delete a tag type',
    status: 200,
    empty: true,
    handler: ({ flagstaff, caller, params }) => flagstaff.tags.deleteType(caller, params.name!),
  },
  {
    method: 'get',
    path: '/api/admin/tags',
    api: 'admin',
    tag: 'Tags',
    summary: 'List tags',
    status: 200,
    handler: async ({ flagstaff, caller }) => ({ version: 1, tags: await flagstaff.tags.listTags(caller) }),
  },
  {
    method: 'get',
    path: '/api/admin/tags/:type',
    api: 'admin',
    tag: 'Tags',
    summary: 'List tags of a type',
    status: 200,
    handler: async ({ flagstaff, params, caller }) => ({
      version: 1,
      tags: await flagstaff.tags.listTags(caller, params.type!),
    }),
  },
  {
    method: 'get',
    path: FT,
    api: 'admin',
    // A feature of a private project the caller may not see is not found.
    tag: 'Tags',
    summary: 'List the tags of a feature',
    status: 200,
    handler: async ({ flagstaff, params, caller }) => ({
      version: 1,
      tags: await flagstaff.tags.featureTags(caller, params.featureName!),
    }),
  },
  {
    method: 'post',
    path: FT,
    api: 'admin',
    tag: 'Tags',
    summary: 'Tag a feature',
    status: 201,
    body: tagSchema,
    handler: ({ flagstaff, caller, params, body }) =>
      flagstaff.tags.addFeatureTag(caller, params.featureName!, body),
  },
  {
    method: 'put',
    path: FT,
    api: 'admin',
    tag: 'Tags',
    summary: 'Add and remove tags of a feature',
    status: 200,
    body: bulkTagSchema.shape.tags,
    handler: async ({ flagstaff, caller, params, body }) => ({
      version: 1,
      tags: await flagstaff.tags.updateFeatureTags(caller, params.featureName!, body),
    }),
  },
  {
    method: 'delete',
    path: `${FT}/:type/:value`,
    api: 'admin',
    tag: 'Tags',
    summary: 'Remove a tag from a feature',
    status: 200,
    empty: true,
    handler: ({ flagstaff, caller, params }) =>
      flagstaff.tags.removeFeatureTag(caller, params.featureName!, {
        type: params.type!,
        value: params.value!,
      }),
  },
  {
    method: 'put',
    path: '/api/admin/projects/:projectId/tags',
    api: 'admin',
    tag: 'Tags',
    summary: 'Tag features of a project in bulk',
    status: 200,
    empty: true,
    body: bulkTagSchema,
    handler: ({ flagstaff, caller, params, body }) => flagstaff.tags.bulkTag(caller, params.projectId!, body),
  },
]);
