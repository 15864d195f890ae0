import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errorBody, startTestServer, type TestServer } from '../testing/harness.js';

let s: TestServer;
beforeEach(async () => {
  s = await startTestServer();
});
afterEach(() => s.close());

const F = '/api/admin/projects/default/features';
const asUser = (id: number) => ({ token: null, headers: { 'x-test-user': String(id) } });

async function seedSource(): Promise<void> {
  await s.request('POST', F, { body: { name: 'source', type: 'experiment', description: 'the original' } });
  await s.request('POST', `${F}/source/environments/development/strategies`, {
    body: {
      name: 'flexibleRollout',
      parameters: { rollout: '25', stickiness: 'default', groupId: 'source' },
      constraints: [{ contextName: 'userId', operator: 'IN', values: ['1'] }],
      variants: [{ name: 'blue', weight: 1000, weightType: 'variable', stickiness: 'default' }],
    },
  });
  await s.request('PUT', `${F}/source/environments/development/variants`, {
    body: [{ name: 'green', weight: 1000, weightType: 'variable', stickiness: 'default' }],
  });
  await s.request('POST', `${F}/source/environments/development/on`);
  await s.request('POST', '/api/admin/features/source/tags', { body: { type: 'simple', value: 'team-a' } });
}

describe('feature operations of the reference', () => {
  it('reads one environment of a feature, with 404s naming what is missing', async () => {
    await seedSource();
    const env = await s.request('GET', `${F}/source/environments/development`);
    expect(env.status).toBe(200);
    expect(env.body).toMatchObject({ name: 'development', featureName: 'source', enabled: true });
    expect(env.body.strategies).toHaveLength(1);
    expect((await s.request('GET', `${F}/source/environments/nowhere`)).status).toBe(404);
    expect((await s.request('GET', `${F}/missing/environments/development`)).status).toBe(404);
  });

  it('clones a feature with strategies (grouped by the new name), variants, switches and tags', async () => {
    await seedSource();
    const res = await s.request('POST', `${F}/source/clone`, { body: { name: 'copy' } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'copy', type: 'experiment', description: 'the original' });
    const dev = res.body.environments.find((e: { name: string }) => e.name === 'development');
    expect(dev.enabled).toBe(true);
    expect(dev.strategies[0].parameters).toMatchObject({ rollout: '25', groupId: 'copy' });
    expect(dev.strategies[0].constraints[0]).toMatchObject({ contextName: 'userId', values: ['1'] });
    expect(dev.variants.map((v: { name: string }) => v.name)).toEqual(['green']);
    expect(res.body.tags).toEqual([{ type: 'simple', value: 'team-a' }]);
    const kept = await s.request('POST', `${F}/source/clone`, {
      body: { name: 'same-group', replaceGroupId: false },
    });
    expect(
      kept.body.environments.find((e: { name: string }) => e.name === 'development').strategies[0].parameters
        .groupId,
    ).toBe('source');
    const taken = await s.request('POST', `${F}/source/clone`, { body: { name: 'copy' } });
    expect(taken.status).toBe(409);
    const noName = await s.request('POST', `${F}/source/clone`, { body: {} });
    expect(noName.status).toBe(400);
    expect(errorBody(noName).message).toContain('name');
    const viewer = await s.user('Viewer');
    expect(
      (await s.request('POST', `${F}/source/clone`, { ...asUser(viewer), body: { name: 'v' } })).status,
    ).toBe(403);
    // Nothing of the refused clones was written.
    const names = (await s.request('GET', F)).body.features.map((f: { name: string }) => f.name);
    expect(names.sort()).toEqual(['copy', 'same-group', 'source']);
  });

  it('lists the variants a child may depend on', async () => {
    await seedSource();
    expect((await s.request('GET', `${F}/source/parent-variants`)).body).toEqual(['blue', 'green']);
  });

  it('completes and uncompletes a feature, and counts features per stage', async () => {
    await seedSource();
    await s.request('POST', F, { body: { name: 'fresh' } });
    const done = await s.request('POST', `${F}/source/lifecycle/complete`, {
      body: { status: 'kept', statusValue: 'blue' },
    });
    expect(done.status).toBe(202);
    const stages = await s.request('GET', `${F}/source/lifecycle`);
    expect(stages.body.map((x: { stage: string }) => x.stage)).toEqual(['initial', 'completed']);
    expect((await s.request('GET', '/api/admin/lifecycle/count')).body).toEqual({
      initial: 1,
      preLive: 0,
      live: 0,
      completed: 1,
      archived: 0,
    });
    expect((await s.request('POST', `${F}/source/lifecycle/uncomplete`)).status).toBe(200);
    expect((await s.request('GET', `${F}/source/lifecycle`)).body.at(-1).stage).toBe('live');
    const events = await s.request('GET', '/api/admin/events?feature=source');
    const types = events.body.events.map((e: { type: string }) => e.type);
    expect(types).toEqual(expect.arrayContaining(['feature-completed', 'feature-uncompleted']));
    const bad = await s.request('POST', `${F}/source/lifecycle/complete`, { body: { status: 'maybe' } });
    expect(bad.status).toBe(400);
    expect(errorBody(bad).message).toContain('status');
  });

  it('advances the lifecycle from SDK metrics: pre-live outside production, live in production', async () => {
    await s.request('POST', F, { body: { name: 'used' } });
    const report = async (token: string) => {
      const now = new Date().toISOString();
      const res = await s.request('POST', '/api/client/metrics', {
        token,
        body: {
          appName: 'web',
          instanceId: 'i1',
          bucket: { start: now, stop: now, toggles: { used: { yes: 1, no: 0 } } },
        },
      });
      expect(res.status).toBe(202);
      await s.flagstaff.metrics.flush();
      return (await s.request('GET', `${F}/used/lifecycle`)).body.at(-1).stage;
    };
    expect(await report(await s.token('client'))).toBe('pre-live');
    expect(await report(await s.token('client', { tokenName: 'prod', environment: 'production' }))).toBe(
      'live',
    );
  });

  it('validates a constraint on its own, naming what is wrong', async () => {
    const ok = (body: unknown) => s.request('POST', '/api/admin/constraints/validate', { body });
    expect((await ok({ contextName: 'userId', operator: 'IN', values: ['1'] })).status).toBe(204);
    expect((await ok({ contextName: 'v', operator: 'SEMVER_GT', value: '1.2.3-beta.1' })).status).toBe(204);
    const cases: [unknown, string][] = [
      [{ contextName: 'userId', operator: 'IN', values: [] }, 'values'],
      [{ contextName: 'n', operator: 'NUM_GT', value: 'ten' }, 'value'],
      [{ contextName: 'd', operator: 'DATE_AFTER', value: 'tomorrow' }, 'value'],
      [{ contextName: 'v', operator: 'SEMVER_EQ', value: '1.2' }, 'value'],
      [{ contextName: 'r', operator: 'REGEX', value: '(' }, 'value'],
      [{ contextName: 'x', operator: 'LIKE' }, 'operator'],
    ];
    for (const [body, property] of cases) {
      const res = await ok(body);
      expect(res.status).toBe(400);
      expect(errorBody(res).message).toContain(property);
    }
  });
});

describe('feature links', () => {
  it('are added, changed and removed with events, shown on the feature, and gone with it', async () => {
    await s.request('POST', F, { body: { name: 'linked' } });
    const added = await s.request('POST', `${F}/linked/link`, {
      body: { url: 'https://tickets.example/FS-1', title: 'Ticket' },
    });
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ url: 'https://tickets.example/FS-1', title: 'Ticket' });
    const id = added.body.id;
    expect((await s.request('GET', `${F}/linked`)).body.links).toEqual([
      { id, url: 'https://tickets.example/FS-1', title: 'Ticket' },
    ]);
    const changed = await s.request('PUT', `${F}/linked/link/${id}`, {
      body: { url: 'https://tickets.example/FS-2' },
    });
    expect(changed.body).toEqual({ id, url: 'https://tickets.example/FS-2', title: null });
    const bad = await s.request('POST', `${F}/linked/link`, { body: { url: 'javascript:alert(1)' } });
    expect(bad.status).toBe(400);
    expect(errorBody(bad).message).toContain('url');
    const viewer = await s.user('Viewer');
    expect(
      (await s.request('POST', `${F}/linked/link`, { ...asUser(viewer), body: { url: 'https://x.example' } }))
        .status,
    ).toBe(403);
    expect((await s.request('DELETE', `${F}/linked/link/${id}`)).status).toBe(200);
    expect((await s.request('DELETE', `${F}/linked/link/${id}`)).status).toBe(404);
    expect((await s.request('GET', `${F}/linked`)).body.links).toEqual([]);
    const events = await s.request('GET', '/api/admin/events?feature=linked');
    expect(events.body.events.map((e: { type: string }) => e.type)).toEqual(
      expect.arrayContaining(['feature-link-added', 'feature-link-updated', 'feature-link-removed']),
    );
    await s.request('POST', `${F}/linked/link`, { body: { url: 'https://kept.example' } });
    await s.request('DELETE', `${F}/linked`);
    await s.request('DELETE', '/api/admin/archive/linked');
    await s.request('POST', F, { body: { name: 'linked' } });
    expect((await s.request('GET', `${F}/linked`)).body.links).toEqual([]);
  });
});
