import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addStrategy, createFeature } from '../testing/fixtures.js';
import { errorBody, startTestServer, type TestServer } from '../testing/harness.js';

/** Import bodies have a limit of their own: an export of a real project is far past 100 kB. */
const FEATURES = 300;
const names = Array.from({ length: FEATURES }, (_, i) => `sized-feature-${String(i).padStart(3, '0')}`);

let source: TestServer;
let target: TestServer;
let exported: { features: { name: string }[]; featureStrategies: { featureName: string }[] };

const exportFrom = async (s: TestServer) => {
  const res = await s.request('POST', '/api/admin/features-batch/export', {
    body: { environment: 'development', project: 'default' },
  });
  expect(res.status, res.text).toBe(200);
  return res.body;
};

beforeAll(async () => {
  source = await startTestServer();
  target = await startTestServer();
  for (const [i, name] of names.entries()) {
    await createFeature(source, name, 'default', { description: `Feature number ${i} of a large project` });
    await addStrategy(source, name, 'development', {
      name: 'flexibleRollout',
      parameters: { rollout: String(i % 100), stickiness: 'default', groupId: name },
      constraints: [{ contextName: 'userId', operator: 'IN', values: [`${i}`, `${i + 1}`, `${i + 2}`] }],
    });
  }
  exported = await exportFrom(source);
});
afterAll(async () => {
  await source.close();
  await target.close();
});

describe('import body limit', () => {
  it('an export past 100 kB validates and imports into a fresh instance', async () => {
    const body = { project: 'default', environment: 'development', data: exported };
    expect(JSON.stringify(body).length).toBeGreaterThan(100 * 1024);
    const validation = await target.request('POST', '/api/admin/features-batch/validate', { body });
    expect(validation.status, validation.text).toBe(200);
    expect(validation.body.errors).toEqual([]);
    const imported = await target.request('POST', '/api/admin/features-batch/import', { body });
    expect(imported.status, imported.text).toBe(200);

    const arrived = await exportFrom(target);
    expect(arrived.features.map((f: { name: string }) => f.name).sort()).toEqual(names);
    expect(arrived.featureStrategies).toHaveLength(FEATURES);
    const strategy = arrived.featureStrategies.find(
      (s: { featureName: string }) => s.featureName === 'sized-feature-042',
    );
    expect(strategy).toMatchObject({
      name: 'flexibleRollout',
      parameters: { rollout: '42', groupId: 'sized-feature-042' },
      constraints: [{ contextName: 'userId', operator: 'IN', values: ['42', '43', '44'] }],
    });
  });

  it('every other route keeps the 100 kB limit', async () => {
    const res = await target.request('POST', '/api/admin/projects/default/features', {
      body: { name: 'too-big', description: 'x'.repeat(110 * 1024) },
    });
    expect(res.status).toBe(413);
    expect(errorBody(res).message).toContain(`${100 * 1024} bytes`);
  });

  it('SDK tokens keep the 100 kB limit there: they cannot import, nor make us read megabytes', async () => {
    const token = await target.request('POST', '/api/admin/api-tokens', {
      body: { tokenName: 'sdk', type: 'client', environment: 'development' },
    });
    expect(token.status, token.text).toBe(201);
    const body = { project: 'default', environment: 'development', data: exported };
    const big = await target.request('POST', '/api/admin/features-batch/import', {
      body,
      token: token.body.secret,
    });
    expect(big.status).toBe(413);
    expect(errorBody(big).message).toContain(`${100 * 1024} bytes`);
    const small = await target.request('POST', '/api/admin/features-batch/import', {
      body: { ...body, data: { features: [{ name: 'from-an-sdk' }] } },
      token: token.body.secret,
    });
    expect(small.status).toBe(403);
  });

  it('past a configured import limit: 413 naming it, on validate and import alike', async () => {
    const small = await startTestServer({ router: { importBodyLimit: '50kb' } });
    try {
      const body = { project: 'default', environment: 'development', data: exported };
      for (const path of ['/api/admin/features-batch/validate', '/api/admin/features-batch/import']) {
        const res = await small.request('POST', path, { body });
        expect(res.status, path).toBe(413);
        expect(errorBody(res).name).toBe('ContentTooLarge');
        expect(errorBody(res).message).toContain(`${50 * 1024} bytes`);
      }
      const res = await small.request('POST', '/api/admin/features-batch/import', {
        body: { project: 'default', environment: 'development', data: { features: [{ name: 'small-one' }] } },
      });
      expect(res.status, res.text).toBe(200);
    } finally {
      await small.close();
    }
  });
});
