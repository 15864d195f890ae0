import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type As, as } from '../testing/as-user.js';
import { errorBody, type HttpResult, startTestServer, type TestServer } from '../testing/harness.js';

/**
 * Routes served by operations (API tokens, signals): the runner asks the policy before it reports a
 * bad body, a failed write leaves nothing behind, and every answer matched its output schema (the
 * harness checks them).
 */
let s: TestServer;
let viewer: As;
let owner: As;

const expectStatus = (res: HttpResult, status: number, name: string) => {
  expect(res.status, res.text).toBe(status);
  expect(errorBody(res).name).toBe(name);
};
const eventCount = async (type: string) =>
  (await s.request('GET', `/api/admin/events?type=${type}`)).body.events.length as number;

beforeAll(async () => {
  s = await startTestServer();
  viewer = as(await s.user('Viewer'));
  const ownerId = await s.user('Viewer');
  owner = as(ownerId);
  const res = await s.request('PUT', `/api/admin/projects/default/users/${ownerId}/roles`, {
    body: { roles: [4] },
  });
  expect(res.status, res.text).toBe(200);
});
afterAll(() => s.close());

describe('permission before the body', () => {
  it('refuses a Viewer with 403 on a write whose body is bad, and names the property for those allowed', async () => {
    const bad = { type: 'client', environment: 'development' }; // no tokenName
    expectStatus(
      await s.request('POST', '/api/admin/api-tokens', { ...viewer, body: bad }),
      403,
      'NoAccessError',
    );
    const named = await s.request('POST', '/api/admin/api-tokens', { body: bad });
    expectStatus(named, 400, 'ValidationError');
    expect(errorBody(named).message).toContain('"tokenName"');

    const project = '/api/admin/projects/default/api-tokens';
    expectStatus(await s.request('POST', project, { ...viewer, body: { type: 7 } }), 403, 'NoAccessError');
    // A project Owner may issue project tokens: the same bad body is a 400 for them.
    const forOwner = await s.request('POST', project, { ...owner, body: { type: 7, tokenName: 'x' } });
    expectStatus(forOwner, 400, 'ValidationError');
    expect(errorBody(forOwner).message).toContain('"type"');

    const endpoints = '/api/admin/signal-endpoints';
    expectStatus(
      await s.request('POST', endpoints, { ...viewer, body: { name: 'Not OK' } }),
      403,
      'NoAccessError',
    );
    expectStatus(await s.request('POST', endpoints, { body: { name: 'Not OK' } }), 400, 'ValidationError');
  });
});

describe('writes in one transaction', () => {
  it('stores nothing, not even an event, when a write fails part way', async () => {
    const endpoint = await s.request('POST', '/api/admin/signal-endpoints', { body: { name: 'deploys' } });
    expect(endpoint.status, endpoint.text).toBe(201);
    const before = await eventCount('actions-created');
    // The second action reaches into another project: refused after the first was checked.
    const res = await s.request('POST', '/api/admin/projects/default/actions', {
      body: {
        name: 'mixed',
        match: { source: 'signal-endpoint', sourceId: endpoint.body.id },
        actions: [
          { action: 'TOGGLE_FEATURE_ON', executionParams: { featureName: 'a', environment: 'development' } },
          {
            action: 'TOGGLE_FEATURE_ON',
            executionParams: { project: 'other', featureName: 'a', environment: 'development' },
          },
        ],
      },
    });
    expectStatus(res, 400, 'ValidationError');
    expect(errorBody(res).message).toContain('"actions[1].executionParams.project"');
    expect((await s.request('GET', '/api/admin/projects/default/actions')).body.actions).toEqual([]);
    expect(await eventCount('actions-created')).toBe(before);
  });
});

describe('answers', () => {
  it('match the output schemas the OpenAPI document declares, secrets and hashes left out', async () => {
    const checked = s.responsesChecked;
    const endpoint = await s.request('POST', '/api/admin/signal-endpoints', { body: { name: 'builds' } });
    const token = await s.request('POST', `/api/admin/signal-endpoints/${endpoint.body.id}/tokens`, {
      body: { name: 'ci' },
    });
    expect(token.status, token.text).toBe(201);
    expect(token.body.token).toMatch(/^[0-9a-f]{64}$/);
    const listed = await s.request('GET', `/api/admin/signal-endpoints/${endpoint.body.id}`);
    expect(listed.body.tokens).toEqual([expect.not.objectContaining({ token: expect.anything() })]);
    expect(listed.body.tokens[0]).not.toHaveProperty('tokenHash');
    const sent = await s.request('POST', '/api/signal-endpoint/builds', {
      token: `Bearer ${token.body.token}`,
      body: { status: 'green' },
    });
    expect(sent.status, sent.text).toBe(202);
    const signals = await s.request('GET', `/api/admin/signal-endpoints/${endpoint.body.id}/signals`);
    expect(signals.body.signals[0].payload).toEqual({ status: 'green' });
    expect(s.responsesChecked - checked).toBe(5);
  });
});
