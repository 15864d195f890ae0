import { eventSearchQuerySchema, listEventCreators, searchEventsPaged } from '@flagstaff/core';
import { operationRoute } from '../operation-route.js';

/** Who wrote events, and the paged event search (`core/src/services/events/event-search-operations.ts`). */
export const eventSearchRoutes = [
  operationRoute({
    method: 'get',
    path: '/api/admin/event-creators',
    operation: listEventCreators,
    input: () => ({}),
    api: 'admin',
    tag: 'Events',
    status: 200,
  }),
  operationRoute({
    method: 'get',
    path: '/api/admin/search/events',
    operation: searchEventsPaged,
    input: ({ query }) => query,
    api: 'admin',
    tag: 'Events',
    status: 200,
    query: eventSearchQuerySchema,
  }),
];
