import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addStrategy, createFeature } from '../testing/fixtures.js';
import { errorBody, startTestServer, type TestServer } from '../testing/harness.js';

/** The security review's request: a Viewer asking for 1000 contexts × 11 flags × 3 environments. */
const ADVANCED = '/api/admin/playground/advanced';
const ENVIRONMENTS = ['development', 'production', 'staging'];
const thousandContexts = {
  appName: 'web',
  userId: Array.from({ length: 100 }, (_, i) => `user-${i}`).join(','),
  sessionId: Array.from({ length: 10 }, (_, i) => `session-${i}`).join(','),
};

/** 11 features, each on with a constrained rollout and variants in every environment. */
async function seed(s: TestServer): Promise<void> {
  await s.request('POST', '/api/admin/environments', { body: { name: 'staging', type: 'test' } });
  await s.request('POST', '/api/admin/projects/default/environments', { body: { environment: 'staging' } });
  for (let i = 0; i < 11; i++) {
    const name = `flag-${i}`;
    await createFeature(s, name);
    for (const environment of ENVIRONMENTS) {
      await addStrategy(s, name, environment, {
        constraints: [{ contextName: 'userId', operator: 'NOT_IN', values: ['user-1', 'user-2', 'user-3'] }],
        variants: [
          { name: 'a', weight: 500, weightType: 'variable', stickiness: 'default' },
          { name: 'b', weight: 500, weightType: 'variable', stickiness: 'default' },
        ],
      });
      await s.request('POST', `/api/admin/projects/default/features/${name}/environments/${environment}/on`);
    }
  }
}

describe('advanced playground limits', () => {
  let s: TestServer;
  let viewer: string;
  beforeAll(async () => {
    s = await startTestServer();
    await seed(s);
    viewer = String(await s.user('Viewer'));
  });
  afterAll(() => s.close());

  it('F7: 1000 contexts × 11 features × 3 environments is refused before evaluating, naming the limit and the count', async () => {
    const res = await s.request('POST', ADVANCED, {
      token: null,
      headers: { 'x-test-user': viewer },
      body: { environments: ENVIRONMENTS, context: thousandContexts },
    });
    expect(res.status, res.text).toBe(400);
    expect(errorBody(res).name).toBe('ExceedsLimitError');
    expect(errorBody(res).message).toContain('33000 evaluations');
    expect(errorBody(res).message).toContain(
      '1000 contexts × 33 feature-environments: 11 features in 3 environments',
    );
    expect(errorBody(res).message).toContain('at most 10000');
  });

  it('F7: a request within the limit is evaluated in full', async () => {
    const res = await s.request('POST', ADVANCED, {
      token: null,
      headers: { 'x-test-user': viewer },
      body: { environments: ENVIRONMENTS, context: { ...thousandContexts, sessionId: 'one' } },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.features).toHaveLength(11);
    expect(res.body.features[0].environments.staging).toHaveLength(100);
  });
});

describe('advanced playground limits, configured', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({
      flagstaff: { playgroundLimits: { maxEvaluations: 50_000, maxAnswerBytes: 1_000_000 } },
    });
    await seed(s);
  });
  afterAll(() => s.close());

  it('F7: the evaluation limit is configurable, and an answer over the size limit is refused', async () => {
    const small = await s.request('POST', ADVANCED, {
      body: { environments: ENVIRONMENTS, context: { appName: 'web', userId: '1,2' } },
    });
    expect(small.status, small.text).toBe(200);
    const large = await s.request('POST', ADVANCED, {
      body: { environments: ENVIRONMENTS, context: thousandContexts },
    });
    expect(large.status, large.text).toBe(400);
    expect(errorBody(large).name).toBe('ExceedsLimitError');
    expect(errorBody(large).message).toMatch(
      /answer of about \d+ bytes; the playground answers at most 1000000/,
    );
  });
});
