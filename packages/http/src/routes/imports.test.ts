import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addStrategy, createFeature, createSegment } from '../testing/fixtures.js';
import { errorBody, startTestServer, type TestServer } from '../testing/harness.js';

/** Export → import into an empty instance → export: the same document, and everything in between. */
const P = '/api/admin/projects/default';
let source: TestServer;
let target: TestServer;

const exportFrom = async (s: TestServer) => {
  const res = await s.request('POST', '/api/admin/features-batch/export', {
    body: { environment: 'development', project: 'default' },
  });
  expect(res.status, res.text).toBe(200);
  return res.body;
};

/** Ids are each instance's own: strategies and segments compare by content and by segment name. */
function comparable(doc: {
  featureStrategies: { id?: string; segments: number[] }[];
  segments: { id: number; name: string }[];
}) {
  const names = new Map(doc.segments.map((s) => [s.id, s.name]));
  return {
    ...doc,
    featureStrategies: doc.featureStrategies.map(({ id: _id, segments, ...rest }) => ({
      ...rest,
      segments: segments.map((id) => names.get(id)),
    })),
    segments: doc.segments.map((s) => s.name),
  };
}

beforeAll(async () => {
  source = await startTestServer();
  target = await startTestServer();
  const segment = await createSegment(source, 'beta-users');
  await createSegment(target, 'beta-users');
  await source.request('POST', '/api/admin/context', {
    body: { name: 'plan', legalValues: [{ value: 'free' }, { value: 'pro' }] },
  });
  await source.request('POST', '/api/admin/tag-types', { body: { name: 'team' } });
  await createFeature(source, 'checkout', 'default', { description: 'New checkout', impressionData: true });
  await createFeature(source, 'checkout-button', 'default', { type: 'experiment' });
  await createFeature(source, 'parked');
  await addStrategy(source, 'checkout', 'development', {
    constraints: [{ contextName: 'plan', operator: 'IN', values: ['pro'] }],
    segments: [segment.id],
  });
  await addStrategy(source, 'checkout', 'development', {
    name: 'userWithId',
    parameters: { userIds: 'ada,bob' },
    title: 'staff',
  });
  await addStrategy(source, 'checkout-button', 'development', {
    variants: [
      { name: 'blue', weight: 500, weightType: 'variable', stickiness: 'default' },
      { name: 'green', weight: 500, weightType: 'variable', stickiness: 'default' },
    ],
  });
  await source.request('POST', `${P}/features/checkout/environments/development/on`);
  await source.request('PUT', `${P}/features/checkout-button/environments/development/variants`, {
    body: [{ name: 'red', weight: 1000, weightType: 'variable', stickiness: 'default' }],
  });
  await source.request('POST', `${P}/features/checkout-button/dependencies`, {
    body: { feature: 'checkout', enabled: true },
  });
  await source.request('POST', '/api/admin/features/checkout/tags', {
    body: { type: 'team', value: 'payments' },
  });
  await source.request('POST', `${P}/stale`, { body: { features: ['parked'], stale: true } });
});
afterAll(async () => {
  await source.close();
  await target.close();
});

describe('features-batch import', () => {
  it('round-trips: export, import into an empty instance, export again gives the same document', async () => {
    const exported = await exportFrom(source);
    expect(exported.features).toHaveLength(3);
    const validation = await target.request('POST', '/api/admin/features-batch/validate', {
      body: { project: 'default', environment: 'development', data: exported },
    });
    expect(validation.status, validation.text).toBe(200);
    expect(validation.body.errors).toEqual([]);
    expect(validation.body.permissions).toEqual([]);
    expect(validation.body.warnings.map((w: { message: string }) => w.message).join(' ')).toMatch(
      /context fields will be created.*tag types will be created/,
    );

    const imported = await target.request('POST', '/api/admin/features-batch/import', {
      body: { project: 'default', environment: 'development', data: exported },
    });
    expect(imported.status, imported.text).toBe(200);
    expect(comparable(await exportFrom(target))).toEqual(comparable(exported));

    const events = await target.request('GET', '/api/admin/events?project=default');
    const types = events.body.events.map((e: { type: string }) => e.type);
    expect(types).toEqual(
      expect.arrayContaining([
        'features-imported',
        'feature-created',
        'feature-strategy-add',
        'feature-tagged',
      ]),
    );
  });

  it('importing the same document again changes nothing it describes', async () => {
    const once = await exportFrom(target);
    const again = await target.request('POST', '/api/admin/features-batch/import', {
      body: { project: 'default', environment: 'development', data: once },
    });
    expect(again.status, again.text).toBe(200);
    expect(comparable(await exportFrom(target))).toEqual(comparable(once));
  });

  it('lists every problem together and writes nothing when the import is refused', async () => {
    await target.request('PUT', '/api/admin/projects/default', {
      body: { name: 'Default', featureNaming: { pattern: '[a-z]+-[a-z]+' } },
    });
    const before = (await target.request('GET', '/api/admin/events')).body.events[0].id;
    const data = {
      features: [{ name: 'brandnew' }, { name: 'dup-x' }, { name: 'dup-x' }],
      featureStrategies: [{ featureName: 'brandnew', name: 'default', segments: [7] }],
      segments: [{ id: 7, name: 'no-such-segment' }],
      dependencies: [{ feature: 'brandnew', dependencies: [{ feature: 'nowhere' }] }],
    };
    const validation = await target.request('POST', '/api/admin/features-batch/validate', {
      body: { project: 'default', environment: 'development', data },
    });
    const messages = validation.body.errors.map((e: { message: string; affectedItems: string[] }) => [
      e.message,
      e.affectedItems,
    ]);
    expect(messages).toEqual(
      expect.arrayContaining([
        [expect.stringContaining('duplicate'), ['dup-x']],
        [expect.stringContaining('naming pattern'), ['brandnew']],
        [expect.stringContaining('segments'), ['no-such-segment']],
        [expect.stringContaining('parent'), ['brandnew → nowhere']],
      ]),
    );
    const refused = await target.request('POST', '/api/admin/features-batch/import', {
      body: { project: 'default', environment: 'development', data },
    });
    expect(refused.status).toBe(400);
    expect(errorBody(refused).message).toContain('no-such-segment');
    expect((await target.request('GET', '/api/admin/events')).body.events[0].id).toBe(before);
    await target.request('PUT', '/api/admin/projects/default', {
      body: { name: 'Default', featureNaming: {} },
    });
  });

  it('names the missing permissions of a Viewer, and refuses its import with 403', async () => {
    const viewer = await target.user('Viewer');
    const body = {
      project: 'default',
      environment: 'development',
      data: { features: [{ name: 'view-only' }] },
    };
    const validation = await target.request('POST', '/api/admin/features-batch/validate', {
      body,
      headers: { 'x-test-user': String(viewer) },
    });
    expect(validation.status, validation.text).toBe(200);
    expect(validation.body.permissions[0].affectedItems).toEqual(
      expect.arrayContaining(['CREATE_FEATURE', 'UPDATE_FEATURE_ENVIRONMENT']),
    );
    const refused = await target.request('POST', '/api/admin/features-batch/import', {
      body,
      headers: { 'x-test-user': String(viewer) },
    });
    expect(refused.status).toBe(403);
  });

  it('400 naming the property for a malformed body; an unknown environment is listed', async () => {
    const bad = await target.request('POST', '/api/admin/features-batch/import', {
      body: { project: 'default', data: {} },
    });
    expect(bad.status).toBe(400);
    expect(errorBody(bad).message).toContain('environment');
    const unknown = await target.request('POST', '/api/admin/features-batch/validate', {
      body: { project: 'default', environment: 'nowhere', data: {} },
    });
    expect(unknown.body.errors[0]).toMatchObject({ affectedItems: ['nowhere'] });
  });
});
