import { applicationMetaSchema, rawMetricsQuerySchema } from '@flagstaff/core';
import { defineRoutes } from '../route.js';

const A = '/api/admin/metrics/applications';

/** Applications SDKs registered, feature usage from their metrics, and unknown flags. */
export const applicationRoutes = defineRoutes([
  {
    method: 'get',
    path: A,
    api: 'admin',
    tag: 'Metrics',
    summary: 'Applications SDKs registered, with the environments they were seen in',
    status: 200,
    handler: ({ flagstaff, caller }) => flagstaff.applications.list(caller),
  },
  {
    method: 'get',
    path: `${A}/:appName`,
    api: 'admin',
    tag: 'Metrics',
    summary: 'One application: its instances, strategies and the features it reported',
    status: 200,
    errors: [404],
    handler: ({ flagstaff, caller, params }) => flagstaff.applications.get(caller, params.appName!),
  },
  {
    method: 'post',
    path: `${A}/:appName`,
    api: 'admin',
    tag: 'Metrics',
    summary: "Set an application's description, URL, color and icon",
    status: 202,
    empty: true,
    body: applicationMetaSchema,
    handler: ({ flagstaff, caller, params, body }) =>
      flagstaff.applications.upsert(caller, params.appName!, body),
  },
  {
    method: 'delete',
    path: `${A}/:appName`,
    api: 'admin',
    tag: 'Metrics',
    summary: 'Forget an application and its registrations',
    status: 200,
    empty: true,
    errors: [404],
    handler: ({ flagstaff, caller, params }) => flagstaff.applications.delete(caller, params.appName!),
  },
  {
    method: 'get',
    path: `${A}/:appName/overview`,
    api: 'admin',
    tag: 'Metrics',
    summary: 'An application per environment: instances, SDKs, features it reported that do not exist',
    status: 200,
    errors: [404],
    handler: ({ flagstaff, caller, params }) => flagstaff.applications.overview(caller, params.appName!),
  },
  {
    method: 'get',
    path: '/api/admin/metrics/instances/:appName/environment/:environment',
    api: 'admin',
    tag: 'Metrics',
    summary: 'The instances of an application in one environment',
    status: 200,
    errors: [404],
    handler: ({ flagstaff, caller, params }) =>
      flagstaff.applications.instances(caller, params.appName!, params.environment!),
  },
  {
    method: 'get',
    path: '/api/admin/client-metrics/features/:name',
    api: 'admin',
    tag: 'Metrics',
    summary: "A feature's use in the last hour per environment, and the applications using it",
    status: 200,
    errors: [404],
    handler: ({ flagstaff, caller, params }) => flagstaff.applications.featureUsage(caller, params.name!),
  },
  {
    method: 'get',
    path: '/api/admin/client-metrics/features/:name/raw',
    api: 'admin',
    tag: 'Metrics',
    summary: "A feature's hourly metrics buckets (hoursBack, at most 48)",
    status: 200,
    query: rawMetricsQuerySchema,
    errors: [404],
    handler: ({ flagstaff, caller, params, query }) =>
      flagstaff.applications.featureRaw(caller, params.name!, query),
  },
  {
    method: 'get',
    path: '/api/admin/metrics/unknown-flags',
    api: 'admin',
    tag: 'Metrics',
    summary: 'Flag names SDKs report that no feature has',
    status: 200,
    handler: ({ flagstaff, caller }) => flagstaff.applications.unknownFlags(caller),
  },
]);
