import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFeature } from './testing/fixtures.js';
import { startTestServer, type TestServer } from './testing/harness.js';

/** Error bodies name the property at fault in `details[].path`, so a form can show each by its field. */
let s: TestServer;
const P = '/api/admin/projects/default';

beforeAll(async () => {
  s = await startTestServer();
  await createFeature(s, 'taken');
});
afterAll(() => s.close());

describe('error details', () => {
  it('list each validation problem with its property path', async () => {
    const res = await s.request('POST', '/api/admin/projects', {
      body: { id: 'p1', name: '', featureNaming: { pattern: '^x-.+', example: 'nope' } },
    });
    expect(res.status).toBe(400);
    expect(res.body.details.map((d: { path: string }) => d.path)).toEqual(['name', 'featureNaming.example']);
    expect(res.body.details[1].message).toBe('"featureNaming.example" must match the pattern');
    expect(res.body.message).toMatch(/^"name" .*\(and 1 more problem\)\.$/);
  });

  it('name the variant field at fault, and refuse a json payload that is not JSON', async () => {
    const res = await s.request('PUT', `${P}/features/taken/environments/development/variants`, {
      body: [
        { name: 'a', weight: 500, weightType: 'variable', stickiness: 'default' },
        { name: 'b', weight: 500, stickiness: 'default', payload: { type: 'json', value: '{oops' } },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.details).toEqual([
      { path: '[1].payload.value', message: '"[1].payload.value" must be valid JSON' },
    ]);
    const number = await s.request('PUT', `${P}/features/taken/environments/development/variants`, {
      body: [{ name: 'a', weight: 1000, stickiness: 'default', payload: { type: 'number', value: 'ten' } }],
    });
    expect(number.body.details[0].path).toBe('[0].payload.value');
    const stored = await s.request('GET', `${P}/features/taken`);
    const dev = stored.body.environments.find((e: { name: string }) => e.name === 'development');
    expect(dev.variants).toEqual([]);
  });

  it('name the clashing property of a 409', async () => {
    const feature = await s.request('POST', `${P}/features`, { body: { name: 'taken' } });
    expect(feature.status).toBe(409);
    expect(feature.body.details).toEqual([{ path: 'name', message: feature.body.message }]);
    const project = await s.request('POST', '/api/admin/projects', {
      body: { id: 'default', name: 'Again' },
    });
    expect(project.status).toBe(409);
    expect(project.body.details[0].path).toBe('id');
  });

  it('leave details off a 404', async () => {
    const res = await s.request('GET', `${P}/features/ghost`);
    expect(res.status).toBe(404);
    expect(res.body.details).toBeUndefined();
  });
});
