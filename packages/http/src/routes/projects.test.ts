import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorBody, startTestServer, type TestServer } from '../testing/harness.js';

/** Projects and environments, at Unleash's paths with Unleash's bodies. */
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

describe('projects', () => {
  it('create (201), list, get, update (200 empty), delete (200 empty)', async () => {
    const created = await s.request('POST', '/api/admin/projects', {
      body: { id: 'web', name: 'Web', description: 'Site' },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ id: 'web', name: 'Web', mode: 'open', featureLimit: null });
    const list = await s.request('GET', '/api/admin/projects');
    expect(list.body.version).toBe(1);
    expect(list.body.projects.map((p: { id: string }) => p.id).sort()).toEqual(['default', 'web']);
    const updated = await s.request('PUT', '/api/admin/projects/web', {
      body: { name: 'Website', featureLimit: 1 },
    });
    expect(updated.status).toBe(200);
    expect(updated.text).toBe('');
    expect((await s.request('GET', '/api/admin/projects/web')).body).toMatchObject({
      name: 'Website',
      featureLimit: 1,
    });
    expect((await s.request('DELETE', '/api/admin/projects/web')).status).toBe(200);
    expect(errorBody(await s.request('GET', '/api/admin/projects/web')).name).toBe('NotFoundError');
  });
  it('409 for an existing id, 400 for a bad one', async () => {
    expect(
      (await s.request('POST', '/api/admin/projects', { body: { id: 'default', name: 'Again' } })).status,
    ).toBe(409);
    const bad = await s.request('POST', '/api/admin/projects', { body: { id: 'has space', name: 'x' } });
    expect(bad.status).toBe(400);
    expect(errorBody(bad).message).toContain('"id"');
  });
  it('featureNaming and featureLimit are enforced on feature creation', async () => {
    await s.request('POST', '/api/admin/projects', {
      body: {
        id: 'strict',
        name: 'Strict',
        featureLimit: 1,
        featureNaming: { pattern: 'web-.+', example: 'web-login' },
      },
    });
    const misnamed = await s.request('POST', '/api/admin/projects/strict/features', {
      body: { name: 'login' },
    });
    expect(misnamed.status).toBe(400);
    expect(errorBody(misnamed).message).toContain('web-.+');
    expect(
      (await s.request('POST', '/api/admin/projects/strict/features', { body: { name: 'web-login' } }))
        .status,
    ).toBe(200);
    const over = await s.request('POST', '/api/admin/projects/strict/features', {
      body: { name: 'web-logout' },
    });
    expect(over.status).toBe(400);
    expect(errorBody(over)).toMatchObject({ name: 'ExceedsLimitError' });
    expect(errorBody(over).message).toContain('limit');
  });
  it('a project with features cannot be deleted (409)', async () => {
    expect((await s.request('DELETE', '/api/admin/projects/strict')).status).toBe(409);
  });
  it('enable and disable an environment in a project; set its default strategy', async () => {
    await s.request('POST', '/api/admin/environments', { body: { name: 'staging', type: 'test' } });
    const add = await s.request('POST', '/api/admin/projects/default/environments', {
      body: { environment: 'staging' },
    });
    expect(add.status, add.text).toBe(200);
    expect(add.text).toBe('');
    expect(
      (
        await s.request('POST', '/api/admin/projects/default/environments', {
          body: { environment: 'staging' },
        })
      ).status,
    ).toBe(409);
    const bad = await s.request('POST', '/api/admin/projects/default/environments', {
      body: { environment: 7 },
    });
    expect(errorBody(bad).message).toContain('"environment"');
    const strategy = await s.request(
      'POST',
      '/api/admin/projects/default/environments/staging/default-strategy',
      {
        // A number parameter is taken and answered as the string it is stored as (the document says strings).
        body: { name: 'flexibleRollout', parameters: { rollout: 25, stickiness: 'default' } },
      },
    );
    expect(strategy.status, strategy.text).toBe(200);
    expect(strategy.body.parameters).toEqual({ rollout: '25', stickiness: 'default' });
    const answer = (await s.request('GET', '/docs/openapi.json')).body.paths[
      '/api/admin/environments/project/{projectId}'
    ].get.responses['200'].content['application/json'].schema;
    expect(
      answer.properties.environments.items.properties.defaultStrategy.properties.parameters
        .additionalProperties,
    ).toEqual({ type: 'string' });
    const envs = await s.request('GET', '/api/admin/environments/project/default');
    expect(
      envs.body.environments.find((e: { name: string }) => e.name === 'staging').defaultStrategy.parameters
        .rollout,
    ).toBe('25');
    expect((await s.request('DELETE', '/api/admin/projects/default/environments/staging')).status).toBe(200);
    expect((await s.request('DELETE', '/api/admin/projects/default/environments/staging')).status).toBe(404);
  });
});

describe('environments', () => {
  it('list, create (201), get, update, on/off (204), delete', async () => {
    const list = await s.request('GET', '/api/admin/environments');
    expect(list.body.version).toBe(1);
    expect(list.body.environments.map((e: { name: string }) => e.name)).toContain('production');
    const created = await s.request('POST', '/api/admin/environments', {
      body: { name: 'qa', type: 'test' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'qa', type: 'test', enabled: true });
    expect(
      (await s.request('POST', '/api/admin/environments', { body: { name: 'qa', type: 'test' } })).status,
    ).toBe(409);
    const updated = await s.request('PUT', '/api/admin/environments/update/qa', {
      body: { type: 'preproduction', sortOrder: 9 },
    });
    expect(updated.body).toMatchObject({ type: 'preproduction', sortOrder: 9 });
    const off = await s.request('POST', '/api/admin/environments/qa/off');
    expect(off.status).toBe(204);
    expect((await s.request('GET', '/api/admin/environments/qa')).body.enabled).toBe(false);
    expect((await s.request('POST', '/api/admin/environments/qa/on')).status).toBe(204);
    expect((await s.request('DELETE', '/api/admin/environments/qa')).status).toBe(200);
    expect((await s.request('GET', '/api/admin/environments/qa')).status).toBe(404);
    expect((await s.request('POST', '/api/admin/environments/qa/on')).status).toBe(404);
  });
});
