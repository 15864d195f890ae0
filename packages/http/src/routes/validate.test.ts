import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../openapi.js';
import { createFeature } from '../testing/fixtures.js';
import { errorBody, type HttpResult, startTestServer, type TestServer } from '../testing/harness.js';
import { allRoutes } from './index.js';

/** The reference's validate routes, which the Unleash UI and scripts call before creating things. */
let s: TestServer;
let viewer: { token: null; headers: Record<string, string> };

const post = (path: string, body?: unknown, opts = {}) => s.request('POST', path, { body, ...opts });
const expectError = (res: HttpResult, status: number, name: string): string => {
  expect(res.status, res.text).toBe(status);
  const body = errorBody(res);
  expect(body.name).toBe(name);
  return body.message;
};
const expectEmpty = (res: HttpResult, status: number) => {
  expect(res.status, res.text).toBe(status);
  expect(res.text).toBe('');
};

beforeAll(async () => {
  s = await startTestServer();
  viewer = { token: null, headers: { 'x-test-user': String(await s.user('Viewer')) } };
  await createFeature(s, 'taken');
  await createFeature(s, 'gone');
  expect((await s.request('DELETE', '/api/admin/projects/default/features/gone')).status).toBe(202);
  const named = await post('/api/admin/projects', {
    id: 'named',
    name: 'Named',
    featureNaming: { pattern: 'web-[a-z]+', example: 'web-login' },
  });
  expect(named.status, named.text).toBe(201);
});
afterAll(() => s.close());

describe('POST /api/admin/features/validate', () => {
  const V = '/api/admin/features/validate';
  it('200 with no body for a free, valid name, for any signed-in caller', async () => {
    expectEmpty(await post(V, { name: 'free-name' }), 200);
    expectEmpty(await post(V, { name: 'free-name' }, viewer), 200);
    expect((await s.request('GET', '/api/admin/projects/default/features/free-name')).status).toBe(404);
  });
  it('409 NameExistsError when a live or archived feature has the name', async () => {
    expect(expectError(await post(V, { name: 'taken' }), 409, 'NameExistsError')).toContain('"taken"');
    expect(expectError(await post(V, { name: 'gone' }), 409, 'NameExistsError')).toContain('archive');
  });
  it('400 ValidationError naming "name" for a name create would refuse, or no name', async () => {
    expect(expectError(await post(V, { name: 'has space' }), 400, 'ValidationError')).toContain('"name"');
    expect(expectError(await post(V, {}), 400, 'ValidationError')).toContain('"name"');
    expectError(await post(V), 400, 'ValidationError');
  });
  it("checks a named project's feature naming pattern; an unknown project is 404", async () => {
    const refused = expectError(await post(V, { name: 'login', projectId: 'named' }), 400, 'ValidationError');
    expect(refused).toContain('web-[a-z]+');
    expect(refused).toContain('web-login');
    expectEmpty(await post(V, { name: 'web-login', projectId: 'named' }), 200);
    expectEmpty(await post(V, { name: 'login', projectId: null }), 200);
    expectError(await post(V, { name: 'login', projectId: 'nope' }), 404, 'NotFoundError');
  });
});

describe('POST /api/admin/projects/validate', () => {
  const V = '/api/admin/projects/validate';
  it('200 for a free id, 409 for a taken one, 400 for an id create would refuse; nothing is created', async () => {
    expectEmpty(await post(V, { id: 'fresh' }), 200);
    expect((await s.request('GET', '/api/admin/projects/fresh')).status).toBe(404);
    expectError(await post(V, { id: 'named' }), 409, 'NameExistsError');
    expect(expectError(await post(V, { id: 'has space' }), 400, 'ValidationError')).toContain('"id"');
  });
});

describe('POST /api/admin/context/validate', () => {
  const V = '/api/admin/context/validate';
  it('200 for a free name, 409 for a taken one (built-ins too), 400 for a bad one', async () => {
    expectEmpty(await post(V, { name: 'region' }), 200);
    expectError(await post(V, { name: 'userId' }), 409, 'NameExistsError');
    expect((await post('/api/admin/context', { name: 'region' })).status).toBe(201);
    expectError(await post(V, { name: 'region' }), 409, 'NameExistsError');
    expect(expectError(await post(V, { name: 'has space' }), 400, 'ValidationError')).toContain('"name"');
  });
  it('needs UPDATE_CONTEXT_FIELD, as in the reference', async () => {
    const message = expectError(await post(V, { name: 'tier' }, viewer), 403, 'NoAccessError');
    expect(message).toContain('"UPDATE_CONTEXT_FIELD"');
  });
});

describe('POST /api/admin/segments/validate', () => {
  const V = '/api/admin/segments/validate';
  it('204 for a free name (as the reference answers), 409 for a taken one, 400 for an empty one', async () => {
    expectEmpty(await post(V, { name: 'beta' }), 204);
    expectEmpty(await post(V, { name: 'beta' }, viewer), 204);
    expect((await post('/api/admin/segments', { name: 'beta' })).status).toBe(201);
    expectError(await post(V, { name: 'beta' }), 409, 'NameExistsError');
    expect(expectError(await post(V, { name: '' }), 400, 'ValidationError')).toContain('"name"');
  });
});

describe('POST /api/admin/tag-types/validate', () => {
  const V = '/api/admin/tag-types/validate';
  it('200 with { valid, tagType } for a new type, 409 for a taken name, 400 for a bad body', async () => {
    const ok = await post(V, { name: 'team', description: 'Owning team' });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toEqual({
      valid: true,
      tagType: { name: 'team', description: 'Owning team', icon: null },
    });
    expect((await s.request('GET', '/api/admin/tag-types/team')).status).toBe(404);
    expectError(await post(V, { name: 'simple' }), 409, 'NameExistsError');
    expect(expectError(await post(V, { name: 'x' }), 400, 'ValidationError')).toContain('"name"');
  });
});

describe('POST /api/admin/environments/validate', () => {
  const V = '/api/admin/environments/validate';
  it('200 with no body for a free name, 409 for a taken one, 400 naming "name" for a bad one; nothing is created', async () => {
    expectEmpty(await post(V, { name: 'qa' }), 200);
    expect((await s.request('GET', '/api/admin/environments/qa')).status).toBe(404);
    expect(expectError(await post(V, { name: 'production' }), 409, 'NameExistsError')).toContain(
      '"production"',
    );
    expect((await post('/api/admin/environments', { name: 'qa', type: 'test' })).status).toBe(201);
    expectError(await post(V, { name: 'qa' }), 409, 'NameExistsError');
    expect(expectError(await post(V, { name: 'has space' }), 400, 'ValidationError')).toContain('"name"');
    expect(expectError(await post(V, {}), 400, 'ValidationError')).toContain('"name"');
    expectError(await post(V), 400, 'ValidationError');
  });
  it('needs ADMIN, like creating an environment', async () => {
    const editor = { token: null, headers: { 'x-test-user': String(await s.user('Editor')) } };
    expect(expectError(await post(V, { name: 'staging' }, editor), 403, 'NoAccessError')).toContain(
      '"ADMIN"',
    );
    expectError(await post(V, { name: 'staging' }, viewer), 403, 'NoAccessError');
  });
});

describe('the OpenAPI document', () => {
  it('lists each validate route with its success status, body schema and 409', () => {
    const doc = buildOpenApiDocument(allRoutes()) as {
      // biome-ignore lint/suspicious/noExplicitAny: the test walks the generated document freely
      paths: Record<string, Record<string, any>>;
    };
    for (const [path, status, required] of [
      ['/api/admin/features/validate', '200', 'name'],
      ['/api/admin/projects/validate', '200', 'id'],
      ['/api/admin/context/validate', '200', 'name'],
      ['/api/admin/segments/validate', '204', 'name'],
      ['/api/admin/tag-types/validate', '200', 'name'],
      ['/api/admin/environments/validate', '200', 'name'],
    ] as const) {
      const op = doc.paths[path]?.post;
      expect(op, path).toBeDefined();
      expect(Object.keys(op.responses), path).toEqual(expect.arrayContaining([status, '400', '409']));
      expect(op.requestBody.content['application/json'].schema.required, path).toContain(required);
    }
  });
});
