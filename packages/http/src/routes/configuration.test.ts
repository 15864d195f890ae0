import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addStrategy, createFeature, createSegment } from '../testing/fixtures.js';
import { errorBody, startTestServer, type TestServer } from '../testing/harness.js';

/** Strategies, segments, context fields, tags and dependencies. */
let s: TestServer;
const P = '/api/admin/projects/default';
const S = `${P}/features/pay/environments/development/strategies`;
beforeAll(async () => {
  s = await startTestServer();
  await createFeature(s, 'pay');
  await createFeature(s, 'pay-parent');
});
afterAll(() => s.close());

describe('strategies', () => {
  it('add, get, list, update, reorder, delete', async () => {
    const first = await addStrategy(s, 'pay');
    const second = await addStrategy(s, 'pay', 'development', {
      name: 'userWithId',
      parameters: { userIds: 'a,b' },
    });
    expect(first).toMatchObject({
      name: 'flexibleRollout',
      featureName: 'pay',
      environment: 'development',
      disabled: false,
    });
    expect((await s.request('GET', `${S}/${first.id}`)).body.id).toBe(first.id);
    const updated = await s.request('PUT', `${S}/${first.id}`, {
      body: {
        name: 'flexibleRollout',
        parameters: { rollout: '10', stickiness: 'userId', groupId: 'pay' },
        title: 'ten',
      },
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject({ title: 'ten', parameters: { rollout: '10' } });
    const reorder = await s.request('POST', `${S}/set-sort-order`, {
      body: [
        { id: second.id, sortOrder: 0 },
        { id: first.id, sortOrder: 1 },
      ],
    });
    expect(reorder.status, reorder.text).toBe(200);
    expect((await s.request('GET', S)).body.map((st: { id: string }) => st.id)).toEqual([
      second.id,
      first.id,
    ]);
    expect(
      (await s.request('POST', `${S}/set-sort-order`, { body: [{ id: 'nope', sortOrder: 0 }] })).status,
    ).toBe(400);
    expect((await s.request('DELETE', `${S}/${second.id}`)).status).toBe(200);
    expect((await s.request('GET', `${S}/${second.id}`)).status).toBe(404);
    expect((await s.request('GET', `${P}/features/pay/environments/nowhere/strategies`)).status).toBe(404);
  });
  it('400 names nested properties', async () => {
    const res = await s.request('POST', S, {
      body: { name: 'default', variants: [{ name: 'v', weight: 'heavy' }] },
    });
    expect(res.status).toBe(400);
    expect(errorBody(res).message).toContain('variants[0].weight');
  });
});

describe('segments', () => {
  it('create (201), list, get, update (204), delete (204); 409 for a name that exists', async () => {
    const segment = await createSegment(s, 'internal');
    expect(segment).toMatchObject({
      name: 'internal',
      constraints: [{ contextName: 'userId', operator: 'IN' }],
    });
    expect((await s.request('POST', '/api/admin/segments', { body: { name: 'internal' } })).status).toBe(409);
    expect((await s.request('GET', '/api/admin/segments')).body.segments).toHaveLength(1);
    const update = await s.request('PUT', `/api/admin/segments/${segment.id}`, {
      body: { name: 'staff', constraints: [] },
    });
    expect(update.status, update.text).toBe(204);
    expect((await s.request('GET', `/api/admin/segments/${segment.id}`)).body.name).toBe('staff');
    expect((await s.request('DELETE', `/api/admin/segments/${segment.id}`)).status).toBe(204);
    expect((await s.request('GET', `/api/admin/segments/${segment.id}`)).status).toBe(404);
  });
});

describe('context fields', () => {
  it('create (201), list, get, update, delete; 409 for a name that exists', async () => {
    const res = await s.request('POST', '/api/admin/context', {
      body: { name: 'tenant', legalValues: [{ value: 'acme' }] },
    });
    expect(res.status, res.text).toBe(201);
    expect((await s.request('POST', '/api/admin/context', { body: { name: 'tenant' } })).status).toBe(409);
    expect(
      (await s.request('GET', '/api/admin/context')).body.map((f: { name: string }) => f.name),
    ).toContain('tenant');
    expect(
      (await s.request('PUT', '/api/admin/context/tenant', { body: { description: 'Who pays' } })).status,
    ).toBe(200);
    expect((await s.request('GET', '/api/admin/context/tenant')).body.description).toBe('Who pays');
    expect((await s.request('DELETE', '/api/admin/context/tenant')).status).toBe(200);
    expect((await s.request('GET', '/api/admin/context/tenant')).status).toBe(404);
  });
});

describe('tag types and feature tags', () => {
  it('tag types: create (201), list, get, update, delete', async () => {
    const res = await s.request('POST', '/api/admin/tag-types', {
      body: { name: 'team', description: 'Owner' },
    });
    expect(res.status, res.text).toBe(201);
    expect((await s.request('POST', '/api/admin/tag-types', { body: { name: 'team' } })).status).toBe(409);
    expect(
      (await s.request('GET', '/api/admin/tag-types')).body.tagTypes.map((t: { name: string }) => t.name),
    ).toContain('team');
    expect(
      (await s.request('PUT', '/api/admin/tag-types/team', { body: { description: 'Owning team' } })).status,
    ).toBe(200);
    expect((await s.request('GET', '/api/admin/tag-types/team')).body.tagType.description).toBe(
      'Owning team',
    );
    await s.request('POST', '/api/admin/tag-types', { body: { name: 'gone' } });
    expect((await s.request('DELETE', '/api/admin/tag-types/gone')).status).toBe(200);
    expect((await s.request('GET', '/api/admin/tag-types/gone')).status).toBe(404);
  });
  it('feature tags: add (201), list, update, remove; tags list by type', async () => {
    const add = await s.request('POST', '/api/admin/features/pay/tags', {
      body: { type: 'team', value: 'payments' },
    });
    expect(add.status, add.text).toBe(201);
    expect(add.body).toEqual({ type: 'team', value: 'payments' });
    expect(
      (await s.request('POST', '/api/admin/features/pay/tags', { body: { type: 'nope', value: 'x1' } }))
        .status,
    ).toBe(404);
    const put = await s.request('PUT', '/api/admin/features/pay/tags', {
      body: {
        addedTags: [{ type: 'simple', value: 'web' }],
        removedTags: [{ type: 'team', value: 'payments' }],
      },
    });
    expect(put.body.tags).toEqual([{ type: 'simple', value: 'web' }]);
    expect((await s.request('GET', '/api/admin/tags/simple')).body.tags).toEqual([
      { type: 'simple', value: 'web' },
    ]);
    expect((await s.request('GET', '/api/admin/tags')).body.tags.length).toBeGreaterThanOrEqual(2);
    expect((await s.request('DELETE', '/api/admin/features/pay/tags/simple/web')).status).toBe(200);
    expect((await s.request('GET', '/api/admin/features/pay/tags')).body).toEqual({ version: 1, tags: [] });
  });
});

describe('dependencies', () => {
  it('add, list, remove one, remove all; cycles are refused', async () => {
    const add = await s.request('POST', `${P}/features/pay/dependencies`, {
      body: { feature: 'pay-parent' },
    });
    expect(add.status, add.text).toBe(200);
    expect((await s.request('GET', `${P}/features/pay/parents`)).body).toEqual([
      { feature: 'pay-parent', enabled: true, variants: [] },
    ]);
    expect((await s.request('GET', `${P}/dependencies`)).body).toBe(true);
    expect((await s.request('GET', `${P}/features/pay`)).body.dependencies).toHaveLength(1);
    const cycle = await s.request('POST', `${P}/features/pay-parent/dependencies`, {
      body: { feature: 'pay' },
    });
    expect(cycle.status).toBe(400);
    expect((await s.request('DELETE', `${P}/features/pay/dependencies/pay-parent`)).status).toBe(200);
    await s.request('POST', `${P}/features/pay/dependencies`, {
      body: { feature: 'pay-parent', enabled: false },
    });
    expect((await s.request('DELETE', `${P}/features/pay/dependencies`)).status).toBe(200);
    expect((await s.request('GET', `${P}/dependencies`)).body).toBe(false);
  });
});
