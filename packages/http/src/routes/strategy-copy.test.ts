import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { as } from '../testing/as-user.js';
import { errorBody, startTestServer, type TestServer } from '../testing/harness.js';

/** POST …/environments/:environment/strategies/copy: several targets in one transaction. */
let s: TestServer;
const feature = '/api/admin/projects/default/features/copied';
const copyFrom = (environment: string) => `${feature}/environments/${environment}/strategies/copy`;
const titles = async (environment: string) =>
  (
    (await s.request('GET', `${feature}/environments/${environment}/strategies`)).body as { title: string }[]
  ).map((x) => x.title);
const eventCount = async () => (await s.request('GET', '/api/admin/events')).body.totalEvents as number;

beforeAll(async () => {
  s = await startTestServer();
  const env = await s.request('POST', '/api/admin/environments', { body: { name: 'staging', type: 'test' } });
  expect(env.status, env.text).toBeLessThan(300);
  const linked = await s.request('POST', '/api/admin/projects/default/environments', {
    body: { environment: 'staging' },
  });
  expect(linked.status, linked.text).toBeLessThan(300);
  const created = await s.request('POST', '/api/admin/projects/default/features', {
    body: { name: 'copied' },
  });
  expect(created.status, created.text).toBeLessThan(300);
  for (const title of ['one', 'two'])
    expect(
      (
        await s.request('POST', `${feature}/environments/development/strategies`, {
          body: { name: 'default', title },
        })
      ).status,
    ).toBe(200);
});
afterAll(() => s.close());

describe('copying strategies', () => {
  it('copies every strategy to each target and answers the copies (201)', async () => {
    const res = await s.request('POST', copyFrom('development'), {
      body: { environments: ['production', 'staging'] },
    });
    expect(res.status, res.text).toBe(201);
    expect(
      res.body.strategies.map((x: { environment: string; title: string }) => `${x.environment}:${x.title}`),
    ).toEqual(['production:one', 'production:two', 'staging:one', 'staging:two']);
    expect(await titles('production')).toEqual(['one', 'two']);
    expect(await titles('staging')).toEqual(['one', 'two']);
  });

  it('copies listed strategies only', async () => {
    const [, two] = (await s.request('GET', `${feature}/environments/development/strategies`)).body;
    const res = await s.request('POST', copyFrom('development'), {
      body: { environments: ['staging'], strategyIds: [two.id] },
    });
    expect(res.status, res.text).toBe(201);
    expect(await titles('staging')).toEqual(['one', 'two', 'two']);
  });

  it('answers 400 naming the property, 404 for a missing feature or environment; nothing changes', async () => {
    const before = [await titles('production'), await titles('staging'), await eventCount()];
    const bad: [unknown, string][] = [
      [{}, 'environments'],
      [{ environments: [] }, 'environments'],
      [{ environments: ['staging', 'staging'] }, 'environments[1]'],
      [{ environments: ['development'] }, 'environments[0]'],
      [{ environments: ['staging'], strategyIds: ['nope'] }, 'strategyIds[0]'],
      [{ environments: [7] }, 'environments[0]'],
    ];
    for (const [body, property] of bad) {
      const res = await s.request('POST', copyFrom('development'), { body });
      expect(res.status, res.text).toBe(400);
      expect(errorBody(res).message).toContain(`"${property}"`);
    }
    // The second target is missing: the first gets nothing either.
    const missingEnv = await s.request('POST', copyFrom('development'), {
      body: { environments: ['staging', 'nope'] },
    });
    expect(missingEnv.status, missingEnv.text).toBe(404);
    const missingFeature = await s.request(
      'POST',
      '/api/admin/projects/default/features/nope/environments/development/strategies/copy',
      { body: { environments: ['staging'] } },
    );
    expect(missingFeature.status).toBe(404);
    expect([await titles('production'), await titles('staging'), await eventCount()]).toEqual(before);
  });

  it('answers 401 without credentials and 403 to a Viewer', async () => {
    const body = { environments: ['staging'] };
    expect((await s.request('POST', copyFrom('development'), { token: null, body })).status).toBe(401);
    const viewer = as(await s.user('Viewer'));
    const res = await s.request('POST', copyFrom('development'), { ...viewer, body });
    expect(res.status, res.text).toBe(403);
  });
});
