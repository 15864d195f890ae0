import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FUTURE } from '../testing/fixtures.js';
import { errorBody, type HttpResult, startTestServer, type TestServer } from '../testing/harness.js';

/** Who may see, change and delete API tokens: the stored token's type decides, as in the reference. */
let s: TestServer;
type As = { token: null; headers: Record<string, string> };
let editor: As;
let viewer: As;
let admin: As;

const as = (id: number): As => ({ token: null, headers: { 'x-test-user': String(id) } });
const path = (secret: string) => `/api/admin/api-tokens/${encodeURIComponent(secret)}`;
const names = (res: HttpResult): string[] =>
  (res.body.tokens as { tokenName: string }[]).map((t) => t.tokenName).sort();

const expectNoAccess = (res: HttpResult, permission: string) => {
  expect(res.status, res.text).toBe(403);
  const body = errorBody(res);
  expect(body.name).toBe('NoAccessError');
  expect(body.message).toBe(`You need the "${permission}" permission to perform this action.`);
};

beforeAll(async () => {
  s = await startTestServer();
  editor = as(await s.user('Editor'));
  viewer = as(await s.user('Viewer'));
  admin = as(await s.user('Admin'));
});
afterAll(() => s.close());

describe('listing', () => {
  it('shows admin tokens only to root Admins and admin tokens', async () => {
    await s.token('client', { tokenName: 'sdk' });
    await s.token('frontend', { tokenName: 'web' });
    await s.token('admin', { tokenName: 'ops' });
    const all = ['admin', 'ops', 'sdk', 'web'];
    expect(names(await s.request('GET', '/api/admin/api-tokens'))).toEqual(all);
    expect(names(await s.request('GET', '/api/admin/api-tokens', admin))).toEqual(all);
    const seen = await s.request('GET', '/api/admin/api-tokens', editor);
    expect(names(seen)).toEqual(['sdk', 'web']);
    expect(seen.text).not.toContain('*:*.');
    expect(names(await s.request('GET', '/api/admin/api-tokens/ops', editor))).toEqual([]);
    expect(names(await s.request('GET', '/api/admin/api-tokens/ops', admin))).toEqual(['ops']);
    expect(names(await s.request('GET', '/api/admin/api-tokens/sdk', editor))).toEqual(['sdk']);
    expectNoAccess(await s.request('GET', '/api/admin/api-tokens', viewer), 'READ_CLIENT_API_TOKEN');
  });
});

describe('changing expiry and deleting', () => {
  it('Editors update and delete client and frontend tokens', async () => {
    const client = await s.token('client', { tokenName: 'editable-client' });
    const frontend = await s.token('frontend', { tokenName: 'editable-web' });
    for (const secret of [client, frontend]) {
      const updated = await s.request('PUT', path(secret), { body: { expiresAt: FUTURE }, ...editor });
      expect(updated.status, updated.text).toBe(200);
    }
    const listed = await s.request('GET', '/api/admin/api-tokens/editable-web', editor);
    expect(listed.body.tokens[0].expiresAt).toBe(FUTURE);
    expect((await s.request('DELETE', path(client), editor)).status).toBe(200);
    expect((await s.request('DELETE', path(frontend), editor)).status).toBe(200);
    expect((await s.request('GET', '/api/client/features', { token: client })).status).toBe(401);
    expect((await s.request('GET', '/api/frontend', { token: frontend })).status).toBe(401);
    expect(
      (await s.request('PUT', path('*:development.unknown'), { body: { expiresAt: FUTURE }, ...editor }))
        .status,
    ).toBe(404);
  });

  it('admin tokens need ADMIN: an Editor is refused by name and the token stays as it was', async () => {
    const ops = await s.token('admin', { tokenName: 'guarded-admin' });
    expectNoAccess(await s.request('PUT', path(ops), { body: { expiresAt: FUTURE }, ...editor }), 'ADMIN');
    expectNoAccess(await s.request('DELETE', path(ops), editor), 'ADMIN');
    expect((await s.request('GET', '/api/admin/projects', { token: ops })).status).toBe(200);
    const stored = await s.request('GET', '/api/admin/api-tokens/guarded-admin');
    expect(stored.body.tokens[0].expiresAt).toBeNull();
    expect((await s.request('PUT', path(ops), { body: { expiresAt: FUTURE }, ...admin })).status).toBe(200);
    expect((await s.request('DELETE', path(ops), admin)).status).toBe(200);
    expect((await s.request('GET', '/api/admin/projects', { token: ops })).status).toBe(401);
  });

  it('Viewers may change no token: refused before the lookup, naming the client permission', async () => {
    const client = await s.token('client', { tokenName: 'viewer-target' });
    expectNoAccess(
      await s.request('PUT', path(client), { body: { expiresAt: FUTURE }, ...viewer }),
      'UPDATE_CLIENT_API_TOKEN',
    );
    expectNoAccess(await s.request('DELETE', path(client), viewer), 'DELETE_CLIENT_API_TOKEN');
    expectNoAccess(
      await s.request('DELETE', path('*:development.unknown'), viewer),
      'DELETE_CLIENT_API_TOKEN',
    );
    expect((await s.request('GET', '/api/client/features', { token: client })).status).toBe(200);
  });
});
