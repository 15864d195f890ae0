import { environmentSortOrderSchema, eventSearchQuerySchema, strategySegmentsSchema } from '@flagstaff/core';
import { defineRoutes } from '../route.js';

/** Tags on their own, event creators and search, environment order, segments of a strategy. */
export const catalogExtraRoutes = defineRoutes([
  {
    method: 'get',
    path: '/api/admin/event-creators',
    api: 'admin',
    tag: 'Events',
    summary: 'Everyone who has written events',
    status: 200,
    handler: ({ flagstaff, caller }) => flagstaff.catalog.eventCreators(caller),
  },
  {
    method: 'get',
    path: '/api/admin/search/events',
    api: 'admin',
    tag: 'Events',
    summary: 'Search the event log: text, feature, project, type, creator, dates; offset paging with a total',
    status: 200,
    query: eventSearchQuerySchema,
    handler: ({ flagstaff, caller, query }) => flagstaff.catalog.searchEvents(caller, query),
  },
  {
    method: 'put',
    path: '/api/admin/environments/sort-order',
    api: 'admin',
    tag: 'Environments',
    summary: 'Set the sort order of environments ({ name: order })',
    status: 200,
    empty: true,
    body: environmentSortOrderSchema,
    errors: [400, 404],
    handler: ({ flagstaff, caller, body }) => flagstaff.catalog.setEnvironmentOrder(caller, body),
  },
  {
    method: 'get',
    path: '/api/admin/segments/strategies/:strategyId',
    api: 'admin',
    tag: 'Segments',
    summary: 'The segments a strategy uses',
    status: 200,
    errors: [404],
    handler: async ({ flagstaff, caller, params }) => ({
      segments: await flagstaff.catalog.segmentsOfStrategy(caller, params.strategyId!),
    }),
  },
  {
    method: 'post',
    path: '/api/admin/segments/strategies',
    api: 'admin',
    tag: 'Segments',
    summary: 'Replace the segments of a strategy',
    status: 201,
    empty: true,
    body: strategySegmentsSchema,
    errors: [400, 404],
    handler: ({ flagstaff, caller, body }) => flagstaff.catalog.setStrategySegments(caller, body),
  },
]);
