import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFeature } from './testing/fixtures.js';
import { errorBody, type HttpResult, startTestServer, type TestServer } from './testing/harness.js';

/** Transport and authentication: what every route shares. */
let s: TestServer;
let client: string;
let frontend: string;

beforeAll(async () => {
  s = await startTestServer();
  client = await s.token('client');
  frontend = await s.token('frontend');
  await createFeature(s, 'existing');
});
afterAll(() => s.close());

const expectError = (res: HttpResult, status: number, name: string) => {
  expect(res.status, res.text).toBe(status);
  const body = errorBody(res);
  expect(body.name).toBe(name);
  expect(body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  expect(res.headers.get('content-type')).toContain('application/json');
  return body;
};

describe('authentication', () => {
  it('401 without a header, with the reference wording and the login path', async () => {
    const body = expectError(
      await s.request('GET', '/api/admin/projects', { token: null }),
      401,
      'AuthenticationRequired',
    );
    expect(body.message).toBe(
      'You must log in to use this service. Your request had no authorization header, so we could not authorize you. Try logging in at /auth/simple/login',
    );
    expect(body.path).toBe('/auth/simple/login');
  });
  it('401 for an unknown or blank token, never echoing it', async () => {
    const body = expectError(
      await s.request('GET', '/api/admin/projects', { token: '*:*.not-a-real-secret' }),
      401,
      'AuthenticationRequired',
    );
    expect(body.message).toContain('/auth/simple/login');
    expect(body.message).not.toContain('not-a-real-secret');
    expectError(
      await s.request('GET', '/api/admin/projects', { token: '   ' }),
      401,
      'AuthenticationRequired',
    );
  });
  it('accepts the token as is and as a Bearer credential', async () => {
    expect((await s.request('GET', '/api/admin/projects')).status).toBe(200);
    expect((await s.request('GET', '/api/admin/projects', { token: `Bearer ${s.adminToken}` })).status).toBe(
      200,
    );
    expect(
      (await s.request('GET', '/api/admin/projects', { token: `bearer   ${s.adminToken}` })).status,
    ).toBe(200);
  });
  it('401 comes before the body is read: no 413 or 415 for anonymous callers', async () => {
    expectError(
      await s.request('POST', '/api/admin/projects', {
        raw: 'x'.repeat(200_000),
        contentType: 'text/plain',
        token: null,
      }),
      401,
      'AuthenticationRequired',
    );
  });
  it('expired tokens are refused', async () => {
    const res = await s.request('POST', '/api/admin/api-tokens', {
      body: {
        tokenName: 'old',
        type: 'client',
        environment: 'development',
        expiresAt: '2001-01-01T00:00:00Z',
      },
    });
    expect(res.status).toBe(201);
    expectError(
      await s.request('GET', '/api/client/features', { token: res.body.secret }),
      401,
      'AuthenticationRequired',
    );
  });
});

describe('token types reach only their API', () => {
  it('client and frontend tokens get 403 on the admin API', async () => {
    for (const token of [client, frontend]) {
      const body = expectError(
        await s.request('GET', '/api/admin/projects', { token }),
        403,
        'NoAccessError',
      );
      expect(body.message).toMatch(/admin token/);
    }
    expectError(
      await s.request('POST', '/api/admin/projects/default/features', { body: { name: 'x' }, token: client }),
      403,
      'NoAccessError',
    );
  });
  it('admin and frontend tokens get 403 on the client API, admin and client tokens on the frontend API', async () => {
    expectError(await s.request('GET', '/api/client/features'), 403, 'NoAccessError');
    expectError(await s.request('GET', '/api/client/features', { token: frontend }), 403, 'NoAccessError');
    expectError(await s.request('GET', '/api/frontend'), 403, 'NoAccessError');
    expectError(await s.request('GET', '/api/frontend', { token: client }), 403, 'NoAccessError');
    expect((await s.request('GET', '/api/client/features', { token: client })).status).toBe(200);
    expect((await s.request('GET', '/api/frontend', { token: frontend })).status).toBe(200);
  });
  it('users (host authentication) reach only the admin API', async () => {
    const admin = String(await s.user('Admin'));
    const opts = { token: null, headers: { 'x-test-user': admin } };
    expect((await s.request('GET', '/api/admin/projects', opts)).status).toBe(200);
    expectError(await s.request('GET', '/api/client/features', opts), 403, 'NoAccessError');
  });
});

describe('root and project roles', () => {
  it('Viewer reads but may not write; the message names the permission (and environment when relevant)', async () => {
    const viewer = { token: null, headers: { 'x-test-user': String(await s.user('Viewer')) } };
    expect((await s.request('GET', '/api/admin/projects/default/features', viewer)).status).toBe(200);
    const create = expectError(
      await s.request('POST', '/api/admin/projects/default/features', { body: { name: 'v' }, ...viewer }),
      403,
      'NoAccessError',
    );
    expect(create.message).toBe('You need the "CREATE_FEATURE" permission to perform this action.');
    const on = expectError(
      await s.request(
        'POST',
        '/api/admin/projects/default/features/existing/environments/production/on',
        viewer,
      ),
      403,
      'NoAccessError',
    );
    expect(on.message).toBe(
      'You need the "UPDATE_FEATURE_ENVIRONMENT" permission to perform this action in the "production" environment.',
    );
  });
  it('Editor works in open projects but is no admin', async () => {
    const editor = { token: null, headers: { 'x-test-user': String(await s.user('Editor')) } };
    expect(
      (
        await s.request('POST', '/api/admin/projects/default/features', {
          body: { name: 'by-editor' },
          ...editor,
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await s.request(
          'POST',
          '/api/admin/projects/default/features/by-editor/environments/production/on',
          editor,
        )
      ).status,
    ).toBe(200);
    const body = expectError(
      await s.request('POST', '/api/admin/environments', { body: { name: 'qa', type: 'test' }, ...editor }),
      403,
      'NoAccessError',
    );
    expect(body.message).toContain('"ADMIN"');
    expectError(
      await s.request('POST', '/api/admin/api-tokens', {
        body: { tokenName: 't', type: 'admin' },
        ...editor,
      }),
      403,
      'NoAccessError',
    );
    expect(
      (
        await s.request('POST', '/api/admin/api-tokens', {
          body: { tokenName: 't', type: 'client' },
          ...editor,
        })
      ).status,
    ).toBe(201);
  });
  it('a project Owner role lets a Viewer change that project only', async () => {
    const id = await s.user('Viewer');
    const viewer = { token: null, headers: { 'x-test-user': String(id) } };
    await s.request('POST', '/api/admin/projects', { body: { id: 'other', name: 'Other' } });
    const grant = await s.request('PUT', `/api/admin/projects/default/users/${id}/roles`, {
      body: { roles: [4] },
    });
    expect(grant.status, grant.text).toBe(200);
    expect(
      (
        await s.request('POST', '/api/admin/projects/default/features', {
          body: { name: 'by-owner' },
          ...viewer,
        })
      ).status,
    ).toBe(200);
    expectError(
      await s.request('POST', '/api/admin/projects/other/features', { body: { name: 'no' }, ...viewer }),
      403,
      'NoAccessError',
    );
  });
  it("feature-tag routes are authorized in the feature's project (a project Owner may tag there only)", async () => {
    const id = await s.user('Viewer');
    const viewer = { token: null, headers: { 'x-test-user': String(id) } };
    await s.request('POST', '/api/admin/projects', { body: { id: 'other2', name: 'Other' } });
    await s.request('POST', '/api/admin/projects/default/features', { body: { name: 'tag-here' } });
    await s.request('POST', '/api/admin/projects/other2/features', { body: { name: 'tag-there' } });
    await s.request('PUT', `/api/admin/projects/default/users/${id}/roles`, { body: { roles: [4] } });
    const tag = { type: 'simple', value: 'owned' };
    const tagged = await s.request('POST', '/api/admin/features/tag-here/tags', { body: tag, ...viewer });
    expect(tagged.status, tagged.text).toBe(201);
    expectError(
      await s.request('POST', '/api/admin/features/tag-there/tags', { body: tag, ...viewer }),
      403,
      'NoAccessError',
    );
  });
});

describe('bodies', () => {
  const path = '/api/admin/projects/default/features';
  it('malformed JSON is a 400 ValidationError, never a 500', async () => {
    const body = expectError(
      await s.request('POST', path, { raw: '{"name": "x",', contentType: 'application/json' }),
      400,
      'ValidationError',
    );
    expect(body.message).toMatch(/not valid JSON/);
    expectError(
      await s.request('POST', path, { raw: '"just a string"', contentType: 'application/json' }),
      400,
      'ValidationError',
    );
    expect(s.logged.filter((l) => l.level === 'error')).toEqual([]);
  });
  it('wrong types and missing fields name the property', async () => {
    const wrongType = expectError(
      await s.request('POST', path, { body: { name: 42 } }),
      400,
      'ValidationError',
    );
    expect(wrongType.message).toContain('"name"');
    const missing = expectError(await s.request('POST', path, { body: {} }), 400, 'ValidationError');
    expect(missing.message).toContain('"name"');
    const noBody = expectError(await s.request('POST', path), 400, 'ValidationError');
    expect(noBody.message).toContain('body');
    const nested = expectError(
      await s.request('POST', `${path}/existing/environments/development/strategies`, {
        body: { name: 'default', constraints: [{ contextName: 'userId', operator: 'LIKE', values: [] }] },
      }),
      400,
      'ValidationError',
    );
    expect(nested.message).toContain('constraints[0].operator');
  });
  it('extra fields are ignored, as the reference does', async () => {
    const res = await s.request('POST', path, { body: { name: 'with-extra', bogus: true } });
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('bogus');
  });
  it('415 names the received and the accepted content type; a body without a type is refused too', async () => {
    const body = expectError(
      await s.request('POST', path, { raw: 'name=x', contentType: 'text/plain' }),
      415,
      'ContentTypeerror',
    );
    expect(body.message).toContain('text/plain');
    expect(body.message).toContain('application/json');
    expectError(
      await s.request('POST', path, { raw: new TextEncoder().encode('{"name":"x"}') }),
      415,
      'ContentTypeerror',
    );
  });
  it('accepts application/json with a charset, and no body where none is needed', async () => {
    expect(
      (
        await s.request('POST', path, {
          body: { name: 'charset' },
          contentType: 'application/json; charset=utf-8',
        })
      ).status,
    ).toBe(200);
    expect((await s.request('POST', `${path}/charset/environments/development/on`)).status).toBe(200);
  });
  it('413 above 100 kB names the limit', async () => {
    const body = expectError(
      await s.request('POST', path, { body: { name: 'big', description: 'x'.repeat(110_000) } }),
      413,
      'ContentTooLarge',
    );
    expect(body.message).toContain('102400 bytes');
  });
});

describe('routing', () => {
  it('unknown routes and methods under the router are 404 NotFoundError', async () => {
    expectError(await s.request('GET', '/api/admin/nothing-here'), 404, 'NotFoundError');
    expectError(await s.request('GET', '/somewhere/else', { token: null }), 404, 'NotFoundError');
    expectError(await s.request('PATCH', '/api/admin/projects'), 404, 'NotFoundError');
  });
  it('matches trailing slashes, encoded names and HEAD as Express routes did', async () => {
    expect((await s.request('GET', '/api/admin/projects/')).status).toBe(200);
    const head = await s.request('HEAD', '/api/admin/projects/default/features/existing');
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    await createFeature(s, 'with.dot_and-dash');
    const res = await s.request('GET', '/api/admin/projects/default/features/with%2Edot_and-dash');
    expect(res.status, res.text).toBe(200);
    expect(res.body.name).toBe('with.dot_and-dash');
    expectError(
      await s.request('GET', '/api/admin/projects/default/features/%E0%A4%A'),
      404,
      'NotFoundError',
    );
  });
  it('OPTIONS on a route path lists its methods; elsewhere it is a 404', async () => {
    const res = await s.request('OPTIONS', '/api/admin/segments/1', { token: null });
    expect(res.status).toBe(204);
    expect(res.headers.get('allow')).toBe('DELETE, GET, HEAD, PUT');
    expectError(await s.request('OPTIONS', '/api/admin/nothing-here', { token: null }), 404, 'NotFoundError');
  });
  it('unknown ids are 404 NotFoundError naming the resource', async () => {
    const body = expectError(
      await s.request('GET', '/api/admin/projects/default/features/ghost'),
      404,
      'NotFoundError',
    );
    expect(body.message).toContain('ghost');
    expectError(await s.request('GET', '/api/admin/segments/12345'), 404, 'NotFoundError');
    expectError(await s.request('GET', '/api/admin/segments/abc'), 404, 'NotFoundError');
    expectError(await s.request('GET', '/api/admin/user-admin/-1'), 404, 'NotFoundError');
  });
  it('a name that exists is a 409', async () => {
    const body = expectError(
      await s.request('POST', '/api/admin/projects/default/features', { body: { name: 'existing' } }),
      409,
      'NameExistsError',
    );
    expect(body.message).toContain('existing');
  });
});
