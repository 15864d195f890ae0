import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errorBody, startTestServer, type TestServer } from '../testing/harness.js';

let s: TestServer;
beforeEach(async () => {
  s = await startTestServer();
});
afterEach(() => s.close());

const F = '/api/admin/projects/default/features';
const asUser = (id: number) => ({ token: null, headers: { 'x-test-user': String(id) } });

describe('tags on their own', () => {
  it('are created, read and deleted (also off the features that carry them)', async () => {
    const created = await s.request('POST', '/api/admin/tags', { body: { type: 'simple', value: 'team-a' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ tag: { type: 'simple', value: 'team-a' } });
    expect(
      (await s.request('POST', '/api/admin/tags', { body: { type: 'simple', value: 'team-a' } })).status,
    ).toBe(409);
    const noType = await s.request('POST', '/api/admin/tags', { body: { type: 'nope', value: 'xy' } });
    expect(noType.status).toBe(400);
    expect(errorBody(noType).message).toContain('type');
    expect((await s.request('GET', '/api/admin/tags/simple/team-a')).body.tag.value).toBe('team-a');
    await s.request('POST', F, { body: { name: 'tagged' } });
    await s.request('POST', '/api/admin/features/tagged/tags', { body: { type: 'simple', value: 'team-a' } });
    const viewer = await s.user('Viewer');
    expect((await s.request('DELETE', '/api/admin/tags/simple/team-a', asUser(viewer))).status).toBe(403);
    expect((await s.request('DELETE', '/api/admin/tags/simple/team-a')).status).toBe(200);
    expect((await s.request('GET', '/api/admin/tags/simple/team-a')).status).toBe(404);
    expect((await s.request('GET', '/api/admin/features/tagged/tags')).body.tags).toEqual([]);
    expect((await s.request('DELETE', '/api/admin/tags/simple/team-a')).status).toBe(404);
  });
});

describe('the event log', () => {
  it('lists its creators and searches with offset paging and a total', async () => {
    const editor = await s.user('Editor', 'ed@example.com');
    for (const name of ['e1', 'e2', 'e3']) await s.request('POST', F, { body: { name } });
    await s.request('POST', F, { ...asUser(editor), body: { name: 'by-editor' } });
    const creators = await s.request('GET', '/api/admin/event-creators');
    expect(creators.body.map((c: { name: string }) => c.name)).toEqual(
      expect.arrayContaining(['ed@example.com']),
    );
    const page = await s.request('GET', '/api/admin/search/events?type=feature-created&limit=2&offset=1');
    expect(page.body.total).toBe(4);
    expect(page.body.events.map((e: { featureName: string }) => e.featureName)).toEqual(['e3', 'e2']);
    const mine = await s.request('GET', '/api/admin/search/events?createdBy=ed@example.com');
    expect(mine.body.events.map((e: { featureName: string }) => e.featureName)).toEqual(['by-editor']);
    const today = new Date().toISOString().slice(0, 10);
    expect(
      (await s.request('GET', `/api/admin/search/events?from=${today}&to=${today}`)).body.total,
    ).toBeGreaterThan(0);
    expect(
      (await s.request('GET', '/api/admin/search/events?from=2000-01-01&to=2000-01-02')).body.total,
    ).toBe(0);
    const bad = await s.request('GET', '/api/admin/search/events?limit=5000');
    expect(bad.status).toBe(400);
    expect(errorBody(bad).message).toContain('limit');
  });
});

describe('environment order and strategy segments', () => {
  it('sets the sort order of environments, naming an unknown one', async () => {
    expect(
      (
        await s.request('PUT', '/api/admin/environments/sort-order', {
          body: { production: 1, development: 2 },
        })
      ).status,
    ).toBe(200);
    const names = (await s.request('GET', '/api/admin/environments')).body.environments
      .sort((a: { sortOrder: number }, b: { sortOrder: number }) => a.sortOrder - b.sortOrder)
      .map((e: { name: string }) => e.name);
    expect(names.slice(0, 2)).toEqual(['production', 'development']);
    const unknown = await s.request('PUT', '/api/admin/environments/sort-order', { body: { nowhere: 1 } });
    expect(unknown.status).toBe(404);
    const bad = await s.request('PUT', '/api/admin/environments/sort-order', {
      body: { production: 'first' },
    });
    expect(bad.status).toBe(400);
  });

  it('reads and replaces the segments of a strategy', async () => {
    const seg = await s.request('POST', '/api/admin/segments', {
      body: { name: 'beta', constraints: [{ contextName: 'userId', operator: 'IN', values: ['1'] }] },
    });
    await s.request('POST', F, { body: { name: 'seg' } });
    const strategy = await s.request('POST', `${F}/seg/environments/development/strategies`, {
      body: { name: 'default' },
    });
    const id = strategy.body.id;
    expect((await s.request('GET', `/api/admin/segments/strategies/${id}`)).body.segments).toEqual([]);
    const set = await s.request('POST', '/api/admin/segments/strategies', {
      body: { projectId: 'default', strategyId: id, environmentId: 'development', segmentIds: [seg.body.id] },
    });
    expect(set.status).toBe(201);
    const after = await s.request('GET', `/api/admin/segments/strategies/${id}`);
    expect(after.body.segments.map((x: { name: string }) => x.name)).toEqual(['beta']);
    expect((await s.request('GET', '/api/admin/segments/strategies/unknown')).status).toBe(404);
    const wrongEnv = await s.request('POST', '/api/admin/segments/strategies', {
      body: { projectId: 'default', strategyId: id, environmentId: 'production', segmentIds: [] },
    });
    expect(wrongEnv.status).toBe(404);
  });
});

describe('context field legal values', () => {
  it('are added, re-described and removed one at a time', async () => {
    await s.request('POST', '/api/admin/context', {
      body: { name: 'plan', legalValues: [{ value: 'free' }] },
    });
    const add = await s.request('POST', '/api/admin/context/plan/legal-values', {
      body: { value: 'pro', description: 'Paying' },
    });
    expect(add.status).toBe(200);
    await s.request('POST', '/api/admin/context/plan/legal-values', {
      body: { value: 'free', description: 'No cost' },
    });
    const field = await s.request('GET', '/api/admin/context/plan');
    expect(field.body.legalValues).toEqual([
      { value: 'free', description: 'No cost' },
      { value: 'pro', description: 'Paying' },
    ]);
    expect((await s.request('DELETE', '/api/admin/context/plan/legal-values/free')).status).toBe(200);
    expect(
      (await s.request('GET', '/api/admin/context/plan')).body.legalValues.map(
        (v: { value: string }) => v.value,
      ),
    ).toEqual(['pro']);
    expect((await s.request('DELETE', '/api/admin/context/plan/legal-values/free')).status).toBe(404);
    expect(
      (await s.request('POST', '/api/admin/context/nope/legal-values', { body: { value: 'x' } })).status,
    ).toBe(404);
    const empty = await s.request('POST', '/api/admin/context/plan/legal-values', { body: { value: '' } });
    expect(empty.status).toBe(400);
    expect(errorBody(empty).message).toContain('value');
    const viewer = await s.user('Viewer');
    expect(
      (
        await s.request('POST', '/api/admin/context/plan/legal-values', {
          ...asUser(viewer),
          body: { value: 'x' },
        })
      ).status,
    ).toBe(403);
  });
});

describe('project context fields', () => {
  it('belong to their project: created, read, changed, given legal values, used by strategies, deleted', async () => {
    const C = '/api/admin/projects/default/context';
    const made = await s.request('POST', C, { body: { name: 'tenant', legalValues: [{ value: 'a' }] } });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ name: 'tenant', project: 'default' });
    expect((await s.request('GET', C)).body.map((f: { name: string }) => f.name)).toEqual(['tenant']);
    // The instance-wide list leaves project fields out.
    expect(
      (await s.request('GET', '/api/admin/context')).body.map((f: { name: string }) => f.name),
    ).not.toContain('tenant');
    expect((await s.request('POST', `${C}/validate`, { body: { name: 'tenant' } })).status).toBe(409);
    expect((await s.request('PUT', `${C}/tenant`, { body: { description: 'Customer' } })).status).toBe(200);
    await s.request('POST', `${C}/tenant/legal-values`, { body: { value: 'b' } });
    await s.request('DELETE', `${C}/tenant/legal-values/a`);
    expect((await s.request('GET', `${C}/tenant`)).body).toMatchObject({
      description: 'Customer',
      legalValues: [{ value: 'b' }],
    });
    await s.request('POST', F, { body: { name: 'per-tenant' } });
    await s.request('POST', `${F}/per-tenant/environments/development/strategies`, {
      body: { name: 'default', constraints: [{ contextName: 'tenant', operator: 'IN', values: ['b'] }] },
    });
    const used = await s.request('GET', `${C}/tenant/strategies`);
    expect(used.body.strategies).toEqual([expect.objectContaining({ featureName: 'per-tenant' })]);
    await s.request('POST', '/api/admin/projects', { body: { id: 'other', name: 'Other' } });
    expect((await s.request('GET', '/api/admin/projects/other/context/tenant')).status).toBe(404);
    const viewer = await s.user('Viewer');
    expect((await s.request('POST', C, { ...asUser(viewer), body: { name: 'nope' } })).status).toBe(403);
    expect((await s.request('DELETE', `${C}/tenant`)).status).toBe(200);
    expect((await s.request('GET', `${C}/tenant`)).status).toBe(404);
  });
});
