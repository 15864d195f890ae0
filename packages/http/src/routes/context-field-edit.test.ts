import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errorBody, startTestServer, type TestServer } from '../testing/harness.js';

let s: TestServer;
beforeEach(async () => {
  s = await startTestServer();
});
afterEach(() => s.close());

const asUser = (id: number) => ({ token: null, headers: { 'x-test-user': String(id) } });
const C = '/api/admin/context';

async function plan() {
  const res = await s.request('POST', C, {
    body: { name: 'plan', description: 'Billing plan', legalValues: [{ value: 'free' }] },
  });
  expect(res.status).toBe(201);
}

describe('editing a context field (PUT /api/admin/context/:contextField)', () => {
  it('replaces description, stickiness and the legal values with their descriptions', async () => {
    await plan();
    const res = await s.request('PUT', `${C}/plan`, {
      body: {
        name: 'plan',
        description: 'What the customer pays for',
        stickiness: true,
        legalValues: [
          { value: 'free', description: 'No cost' },
          { value: 'pro', description: 'Paying' },
        ],
      },
    });
    expect(res.status).toBe(200);
    const field = (await s.request('GET', `${C}/plan`)).body;
    expect(field).toMatchObject({
      name: 'plan',
      description: 'What the customer pays for',
      stickiness: true,
      legalValues: [
        { value: 'free', description: 'No cost' },
        { value: 'pro', description: 'Paying' },
      ],
    });
    // Removing values is saving the list without them.
    await s.request('PUT', `${C}/plan`, { body: { legalValues: [{ value: 'pro', description: 'Paying' }] } });
    expect((await s.request('GET', `${C}/plan`)).body.legalValues).toEqual([
      { value: 'pro', description: 'Paying' },
    ]);
  });

  it('refuses an empty or repeated legal value with a 400 naming it, and stores nothing', async () => {
    await plan();
    const before = (await s.request('GET', `${C}/plan`)).body;
    const empty = await s.request('PUT', `${C}/plan`, {
      body: { description: 'changed', legalValues: [{ value: '' }] },
    });
    expect(empty.status).toBe(400);
    expect(errorBody(empty).message).toMatch(/^"legalValues\[0\]\.value" must not be empty/);
    const twice = await s.request('PUT', `${C}/plan`, {
      body: {
        description: 'changed',
        legalValues: [{ value: 'pro' }, { value: 'pro', description: 'again' }],
      },
    });
    expect(twice.status).toBe(400);
    expect(errorBody(twice).message).toMatch(/^"legalValues\[1\]\.value" lists "pro" twice/);
    const long = await s.request('PUT', `${C}/plan`, {
      body: { legalValues: [{ value: 'x'.repeat(101) }] },
    });
    expect(long.status).toBe(400);
    expect(errorBody(long).message).toContain('"legalValues[0].value"');
    expect((await s.request('GET', `${C}/plan`)).body).toEqual(before);
  });

  it('refuses repeated legal values when creating, and creates nothing', async () => {
    const res = await s.request('POST', C, {
      body: { name: 'tier', legalValues: [{ value: 'a' }, { value: 'a' }] },
    });
    expect(res.status).toBe(400);
    expect(errorBody(res).message).toContain('"legalValues[1].value"');
    expect((await s.request('GET', `${C}/tier`)).status).toBe(404);
  });

  it('answers 403 to a viewer and 404 for an unknown field, changing nothing', async () => {
    await plan();
    const viewer = await s.user('Viewer');
    const denied = await s.request('PUT', `${C}/plan`, { ...asUser(viewer), body: { description: 'x' } });
    expect(denied.status).toBe(403);
    expect((await s.request('GET', `${C}/plan`)).body.description).toBe('Billing plan');
    expect((await s.request('PUT', `${C}/nope`, { body: { description: 'x' } })).status).toBe(404);
    expect((await s.request('GET', `${C}/nope`)).status).toBe(404);
  });
});
