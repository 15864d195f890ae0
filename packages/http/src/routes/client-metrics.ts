import { bulkMetricsSchema, clientMetricsSchema, clientRegistrationSchema } from '@flagstaff/core';
import { defineRoutes, type Route } from '../route.js';

/**
 * Registration and metrics routes of one SDK-facing API. Both answer 202 at once: the service adds
 * the report up in memory and writes it with the next flush.
 */
const reportRoutes = (api: 'client' | 'frontend', prefix: string, tag: string): Route[] => [
  {
    method: 'post',
    path: `${prefix}/register`,
    api,
    tag,
    summary: `Register ${api === 'client' ? 'an SDK' : 'a frontend SDK'} instance`,
    status: 202,
    empty: true,
    body: clientRegistrationSchema,
    handler: ({ flagstaff, caller, body }) => flagstaff.metrics.register(caller, body, api),
  },
  {
    method: 'post',
    path: `${prefix}/metrics`,
    api,
    tag,
    summary: `Send ${api === 'client' ? 'SDK' : 'frontend SDK'} usage metrics`,
    status: 202,
    empty: true,
    body: clientMetricsSchema,
    handler: ({ flagstaff, caller, body }) => flagstaff.metrics.recordMetrics(caller, body, api),
  },
];

/** SDK registrations and usage metrics: server-side SDKs, Unleash Edge (bulk) and frontend SDKs. */
export const clientMetricsRoutes = defineRoutes([
  ...reportRoutes('client', '/api/client', 'Client'),
  {
    method: 'post',
    path: '/api/client/metrics/bulk',
    api: 'client',
    tag: 'Client',
    summary: 'Send registrations and usage metrics of many applications at once (Unleash Edge)',
    status: 202,
    empty: true,
    body: bulkMetricsSchema,
    handler: ({ flagstaff, caller, body }) => flagstaff.metrics.recordBulk(caller, body),
  },
  ...reportRoutes('frontend', '/api/frontend/client', 'Frontend'),
]);
