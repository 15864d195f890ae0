import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type As, as } from '../testing/as-user.js';
import { createFeature } from '../testing/fixtures.js';
import { errorBody, startTestServer, type TestServer } from '../testing/harness.js';

/** GET/PUT /projects/:p/settings, deleting a project, and the creator's Owner role. */
let s: TestServer;
let viewer: As;
let editorId: number;

beforeAll(async () => {
  s = await startTestServer();
  viewer = as(await s.user('Viewer'));
  editorId = await s.user('Editor');
  const res = await s.request('POST', '/api/admin/projects', { body: { id: 'alpha', name: 'Alpha' } });
  expect(res.status, res.text).toBe(201);
});
afterAll(() => s.close());

const settings = () => s.request('GET', '/api/admin/projects/alpha/settings');

describe('project settings', () => {
  it('reads and changes mode, stickiness, limit and naming; what is omitted stays', async () => {
    expect((await settings()).body).toEqual({
      mode: 'open',
      defaultStickiness: 'default',
      featureLimit: null,
      featureNaming: { pattern: null, example: null, description: null },
    });
    const put = await s.request('PUT', '/api/admin/projects/alpha/settings', {
      body: {
        mode: 'protected',
        defaultStickiness: 'userId',
        featureLimit: 20,
        featureNaming: { pattern: 'alpha-[a-z]+', example: 'alpha-login', description: 'alpha- and a word' },
      },
    });
    expect(put.status, put.text).toBe(200);
    expect(put.body.mode).toBe('protected');
    const partial = await s.request('PUT', '/api/admin/projects/alpha/settings', {
      body: { featureLimit: null },
    });
    expect(partial.status, partial.text).toBe(200);
    expect((await settings()).body).toEqual({
      mode: 'protected',
      defaultStickiness: 'userId',
      featureLimit: null,
      featureNaming: { pattern: 'alpha-[a-z]+', example: 'alpha-login', description: 'alpha- and a word' },
    });
    const project = await s.request('GET', '/api/admin/projects/alpha');
    expect(project.body).toMatchObject({ name: 'Alpha', mode: 'protected', defaultStickiness: 'userId' });
    const events = await s.request('GET', '/api/admin/events?project=alpha');
    expect(
      events.body.events.filter((e: { type: string }) => e.type === 'project-updated').length,
    ).toBeGreaterThanOrEqual(2);
  });

  it('400 names the property and stores nothing; 401, 403, 404', async () => {
    const before = (await settings()).body;
    for (const [body, property] of [
      [{ mode: 'secret' }, '"mode"'],
      [{ featureLimit: 0 }, '"featureLimit"'],
      [{ featureNaming: { pattern: '[a-' } }, '"featureNaming.pattern"'],
      [{ featureNaming: { pattern: 'x-[0-9]+', example: 'y-1' } }, '"featureNaming.example"'],
      [{ defaultStickiness: '' }, '"defaultStickiness"'],
    ] as const) {
      const res = await s.request('PUT', '/api/admin/projects/alpha/settings', { body });
      expect(res.status, res.text).toBe(400);
      expect(errorBody(res).message).toContain(property);
    }
    expect((await settings()).body).toEqual(before);
    const anonymous = await s.request('PUT', '/api/admin/projects/alpha/settings', {
      token: null,
      body: { mode: 'open' },
    });
    expect(anonymous.status).toBe(401);
    const forbidden = await s.request('PUT', '/api/admin/projects/alpha/settings', {
      ...viewer,
      body: { mode: 'open' },
    });
    expect(forbidden.status).toBe(403);
    expect(errorBody(forbidden).message).toContain('UPDATE_PROJECT');
    expect((await s.request('GET', '/api/admin/projects/nope/settings')).status).toBe(404);
    expect(
      (await s.request('PUT', '/api/admin/projects/nope/settings', { body: { mode: 'open' } })).status,
    ).toBe(404);
    expect((await settings()).body).toEqual(before);
  });
});

describe('creating and deleting a project', () => {
  it('whoever creates a project is its Owner, so the overview counts one member', async () => {
    const created = await s.request('POST', '/api/admin/projects', {
      ...as(editorId),
      body: { id: 'mine', name: 'Mine', mode: 'private' },
    });
    expect(created.status, created.text).toBe(201);
    const access = await s.request('GET', '/api/admin/projects/mine/access');
    expect(access.body.users.map((u: { id: number; roles: number[] }) => [u.id, u.roles])).toEqual([
      [editorId, [4]],
    ]);
    expect((await s.request('GET', '/api/admin/projects/mine/overview')).body.members).toBe(1);
    const events = await s.request('GET', '/api/admin/events?project=mine');
    expect(events.body.events.map((e: { type: string }) => e.type).sort()).toEqual([
      'project-access-added',
      'project-created',
    ]);
    // Private, yet its creator still sees it.
    const list = await s.request('GET', '/api/admin/projects', as(editorId));
    expect(list.body.projects.map((p: { id: string }) => p.id)).toContain('mine');
    // A project made with an admin token has no user to own it.
    expect((await s.request('GET', '/api/admin/projects/alpha/overview')).body.members).toBe(0);
  });

  it('refuses to delete a project with features, saying how many; deletes it once they are archived', async () => {
    await createFeature(s, 'alpha-one', 'alpha');
    await createFeature(s, 'alpha-two', 'alpha');
    const refused = await s.request('DELETE', '/api/admin/projects/alpha');
    expect(refused.status).toBe(409);
    expect(errorBody(refused).message).toBe(
      'Project "alpha" still has 2 feature flags; archive them before deleting the project.',
    );
    expect((await s.request('GET', '/api/admin/projects/alpha')).status).toBe(200);
    const forbidden = await s.request('DELETE', '/api/admin/projects/alpha', viewer);
    expect(forbidden.status).toBe(403);
    const archived = await s.request('POST', '/api/admin/projects/alpha/archive', {
      body: { features: ['alpha-one', 'alpha-two'] },
    });
    expect(archived.status, archived.text).toBe(202);
    expect((await s.request('DELETE', '/api/admin/projects/alpha')).status).toBe(200);
    expect((await s.request('GET', '/api/admin/projects/alpha')).status).toBe(404);
    expect((await s.request('DELETE', '/api/admin/projects/alpha')).status).toBe(404);
  });
});
