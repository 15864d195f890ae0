import type { TestServer } from './harness.js';

const expectStatus = async (what: string, promise: ReturnType<TestServer['request']>, status: number) => {
  const res = await promise;
  if (res.status !== status) throw new Error(`${what}: expected ${status}, got ${res.status} ${res.text}`);
  return res.body;
};

/** Creates a feature through the API. */
export const createFeature = (
  s: TestServer,
  name: string,
  project = 'default',
  extra: Record<string, unknown> = {},
) =>
  expectStatus(
    `create feature ${name}`,
    s.request('POST', `/api/admin/projects/${project}/features`, { body: { name, ...extra } }),
    200,
  );

/** Adds a strategy to a feature environment through the API and returns it. */
export const addStrategy = (
  s: TestServer,
  feature: string,
  environment = 'development',
  body: Record<string, unknown> = {},
) =>
  expectStatus(
    `add strategy to ${feature}`,
    s.request(
      'POST',
      `/api/admin/projects/default/features/${feature}/environments/${environment}/strategies`,
      {
        body: {
          name: 'flexibleRollout',
          parameters: { rollout: '100', stickiness: 'default', groupId: feature },
          ...body,
        },
      },
    ),
    200,
  );

/** Creates a segment through the API and returns it. */
export const createSegment = (s: TestServer, name: string) =>
  expectStatus(
    `create segment ${name}`,
    s.request('POST', '/api/admin/segments', {
      body: { name, constraints: [{ contextName: 'userId', operator: 'IN', values: ['a'] }] },
    }),
    201,
  );

/** A far-future RFC 3339 date-time. */
export const FUTURE = '2099-01-01T00:00:00.000Z';
