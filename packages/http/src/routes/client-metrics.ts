import {
  bulkMetricsSchema,
  clientMetricsSchema,
  clientRegistrationSchema,
  type Principal,
} from '@flagstaff/core';
import { defineRoutes, type Route } from '../route.js';

/** The environment an SDK token reports for; `*` (all) for all-environment tokens and open access. */
const tokenEnvironment = (principal: Principal): string =>
  principal.kind === 'api-token' ? principal.environment : '*';

/**
 * Registration and metrics routes of one SDK-facing API. Both answer 202 at once: the service adds
 * the report up in memory and writes it with the next flush.
 */
const reportRoutes = (api: 'client' | 'frontend', prefix: string, tag: string): Route[] => [
  {
    method: 'post',
    path: `${prefix}/register`,
    api,
    permission: 'NONE',
    tag,
    summary: `Register ${api === 'client' ? 'an SDK' : 'a frontend SDK'} instance`,
    status: 202,
    empty: true,
    body: clientRegistrationSchema,
    handler: ({ flagstaff, principal, body }) =>
      flagstaff.metrics.register(body, tokenEnvironment(principal)),
  },
  {
    method: 'post',
    path: `${prefix}/metrics`,
    api,
    permission: 'NONE',
    tag,
    summary: `Send ${api === 'client' ? 'SDK' : 'frontend SDK'} usage metrics`,
    status: 202,
    empty: true,
    body: clientMetricsSchema,
    handler: ({ flagstaff, principal, body }) =>
      flagstaff.metrics.recordMetrics(tokenEnvironment(principal), body),
  },
];

/** SDK registrations and usage metrics: server-side SDKs, Unleash Edge (bulk) and frontend SDKs. */
export const clientMetricsRoutes = defineRoutes([
  ...reportRoutes('client', '/api/client', 'Client'),
  {
    method: 'post',
    path: '/api/client/metrics/bulk',
    api: 'client',
    permission: 'NONE',
    tag: 'Client',
    summary: 'Send registrations and usage metrics of many applications at once (Unleash Edge)',
    status: 202,
    empty: true,
    body: bulkMetricsSchema,
    handler: ({ flagstaff, principal, body }) =>
      flagstaff.metrics.recordBulk(tokenEnvironment(principal), body),
  },
  ...reportRoutes('frontend', '/api/frontend/client', 'Frontend'),
]);
