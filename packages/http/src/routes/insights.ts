import {
  advancedPlaygroundRequestSchema,
  evaluateAdvancedPlayground,
  evaluatePlayground,
  eventSearchSchema,
  exportFeatures,
  exportQuerySchema,
  instanceInsights,
  listEvents,
  listFeatureEvents,
  playgroundRequestSchema,
  projectDora,
  projectEnvironments,
  projectOverview,
  searchEvents,
} from '@flagstaff/core';
import { z } from 'zod';
import { bodyFields, operationRoute } from '../operation-route.js';
import { defineRoutes, reply, streamJson } from '../route.js';

/** Read-only views: the event log, project overview and DORA, instance insights, export, playground. */
export const insightRoutes = [
  {
    ...operationRoute({
      method: 'get',
      path: '/api/admin/events',
      operation: listEvents,
      input: ({ query }) =>
        typeof query.project === 'string' && query.project !== '' ? { project: query.project } : {},
      api: 'admin',
      tag: 'Events',
      status: 200,
    }),
    query: z.object({ project: z.string().optional() }),
  },
  {
    ...operationRoute({
      method: 'post',
      path: '/api/admin/events/search',
      operation: searchEvents,
      input: ({ body }) => body ?? {},
      api: 'admin',
      tag: 'Events',
      status: 200,
      body: eventSearchSchema,
    }),
    bodyRequired: false,
  },
  operationRoute({
    method: 'get',
    path: '/api/admin/events/:featureName',
    operation: listFeatureEvents,
    input: ({ params }) => ({ featureName: params.featureName }),
    api: 'admin',
    tag: 'Events',
    status: 200,
  }),
  operationRoute({
    method: 'get',
    path: '/api/admin/projects/:projectId/overview',
    operation: projectOverview,
    input: ({ params }) => ({ project: params.projectId }),
    api: 'admin',
    tag: 'Projects',
    status: 200,
  }),
  operationRoute({
    method: 'get',
    path: '/api/admin/projects/:projectId/dora',
    operation: projectDora,
    input: ({ params }) => ({ project: params.projectId }),
    api: 'admin',
    tag: 'Projects',
    status: 200,
  }),
  operationRoute({
    method: 'get',
    path: '/api/admin/environments/project/:projectId',
    operation: projectEnvironments,
    input: ({ params }) => ({ project: params.projectId }),
    api: 'admin',
    tag: 'Environments',
    status: 200,
  }),
  operationRoute({
    method: 'get',
    path: '/api/admin/insights',
    operation: instanceInsights,
    input: () => ({}),
    api: 'admin',
    tag: 'Insights',
    status: 200,
  }),
  operationRoute({
    method: 'get',
    path: '/api/admin/dashboard/executive',
    operation: instanceInsights,
    input: () => ({}),
    api: 'admin',
    tag: 'Insights',
    summary: 'Get instance information',
    deprecated: true,
    status: 200,
  }),
  operationRoute({
    method: 'post',
    path: '/api/admin/features-batch/export',
    operation: exportFeatures,
    api: 'admin',
    tag: 'Import/Export',
    status: 200,
    body: exportQuerySchema,
    answer: (document, { body }) =>
      bodyFields(body).downloadFile === true
        ? reply(200, document, { 'content-disposition': 'attachment; filename="export.json"' })
        : document,
  }),
  ...defineRoutes([
    {
      method: 'post',
      path: '/api/admin/playground',
      api: 'admin',
      tag: 'Playground',
      summary: 'Evaluate a context against features',
      deprecated: true,
      status: 200,
      operationId: evaluatePlayground.id,
      body: playgroundRequestSchema,
      response: evaluatePlayground.output,
      // The answer of the `playground.evaluate` operation, streamed a few hundred features at a time
      // (explained and serialized chunk by chunk: the answer for 50,000 features is tens of megabytes,
      // never one document in memory). Refusals come before the first byte.
      handler: async ({ flagstaff, body, caller }) =>
        streamJson(await flagstaff.playground.evaluateJsonChunks(caller, body)),
    },
  ]),
  operationRoute({
    method: 'post',
    path: '/api/admin/playground/advanced',
    operation: evaluateAdvancedPlayground,
    input: ({ body }) => body,
    api: 'admin',
    tag: 'Playground',
    status: 200,
    body: advancedPlaygroundRequestSchema,
    errors: [400],
  }),
];
