import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FUTURE } from '../testing/fixtures.js';
import { errorBody, startTestServer, type TestServer } from '../testing/harness.js';

/** Addons, API tokens, invite links, users, groups and project roles. */
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

describe('addons', () => {
  it('list with providers, create, update', async () => {
    const list = await s.request('GET', '/api/admin/addons');
    expect(list.body.addons).toEqual([]);
    expect(list.body.providers.map((p: { name: string }) => p.name)).toContain('webhook');
    const created = await s.request('POST', '/api/admin/addons', {
      body: { provider: 'webhook', parameters: { url: 'http://127.0.0.1:9/x' }, events: ['feature-created'] },
    });
    expect(created.status, created.text).toBe(200);
    const updated = await s.request('PUT', `/api/admin/addons/${created.body.id}`, {
      body: {
        provider: 'webhook',
        parameters: { url: 'http://127.0.0.1:9/y' },
        events: ['feature-archived'],
        enabled: false,
      },
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject({ enabled: false, events: ['feature-archived'] });
    const bad = await s.request('POST', '/api/admin/addons', {
      body: { provider: 'webhook', parameters: {}, events: ['nope'] },
    });
    expect(bad.status).toBe(400);
  });
});

describe('API tokens', () => {
  it('create client, frontend and admin tokens (201) with the reference secret formats; list; update expiry; delete', async () => {
    const clientToken = await s.request('POST', '/api/admin/api-tokens', {
      body: { tokenName: 'sdk', type: 'client', environment: 'production' },
    });
    expect(clientToken.status).toBe(201);
    expect(clientToken.body.secret).toMatch(/^\*:production\.[0-9a-f]{64}$/);
    const frontend = await s.request('POST', '/api/admin/api-tokens', {
      body: { tokenName: 'web', type: 'FRONTEND', environment: 'development', projects: ['default'] },
    });
    expect(frontend.body.secret).toMatch(/^default:development\./);
    const admin = await s.request('POST', '/api/admin/api-tokens', {
      body: { tokenName: 'ops', type: 'admin' },
    });
    expect(admin.body.secret).toMatch(/^\*:\*\./);
    expect((await s.request('GET', '/api/admin/projects', { token: admin.body.secret })).status).toBe(200);
    const list = await s.request('GET', '/api/admin/api-tokens');
    expect(list.body.tokens.map((t: { tokenName: string }) => t.tokenName).sort()).toEqual([
      'admin',
      'ops',
      'sdk',
      'web',
    ]);
    expect(JSON.stringify(list.body)).not.toContain(clientToken.body.secret);
    const update = await s.request(
      'PUT',
      `/api/admin/api-tokens/${encodeURIComponent(clientToken.body.secret)}`,
      { body: { expiresAt: FUTURE } },
    );
    expect(update.status, update.text).toBe(200);
    expect((await s.request('GET', '/api/admin/api-tokens/sdk')).body.tokens[0].expiresAt).toBe(FUTURE);
    expect(
      (await s.request('PUT', '/api/admin/api-tokens/unknown', { body: { expiresAt: FUTURE } })).status,
    ).toBe(404);
    const del = await s.request(
      'DELETE',
      `/api/admin/api-tokens/${encodeURIComponent(clientToken.body.secret)}`,
    );
    expect(del.status).toBe(200);
    expect((await s.request('GET', '/api/client/features', { token: clientToken.body.secret })).status).toBe(
      401,
    );
  });
  it('400 for a bad type, 404 for an unknown environment', async () => {
    expect(
      errorBody(await s.request('POST', '/api/admin/api-tokens', { body: { tokenName: 'x', type: 'root' } }))
        .message,
    ).toContain('type');
    expect(
      (
        await s.request('POST', '/api/admin/api-tokens', {
          body: { tokenName: 'x', type: 'client', environment: 'mars' },
        })
      ).status,
    ).toBe(404);
  });
});

describe('invite links and public signup', () => {
  it('get and update one; validate and sign up publicly as a Viewer', async () => {
    const created = await s.request('POST', '/api/admin/invite-link/tokens', {
      body: { name: 'link', expiresAt: FUTURE },
    });
    const secret = created.body.secret as string;
    expect((await s.request('GET', `/api/admin/invite-link/tokens/${secret}`)).body.name).toBe('link');
    expect((await s.request('GET', `/invite/${secret}/validate`, { token: null })).status).toBe(200);
    const signup = await s.request('POST', `/invite/${secret}/signup`, {
      token: null,
      body: { email: 'new@example.com', name: 'New' },
    });
    expect(signup.status, signup.text).toBe(200);
    expect(signup.body).toMatchObject({ email: 'new@example.com', rootRole: 3 });
    // F20: a taken address is a 400 that does not say the account exists (it was a 409 naming it).
    expect(
      (
        await s.request('POST', `/invite/${secret}/signup`, {
          token: null,
          body: { email: 'new@example.com' },
        })
      ).status,
    ).toBe(400);
    expect(
      (await s.request('POST', `/invite/${secret}/signup`, { token: null, body: { email: 'not-an-email' } }))
        .status,
    ).toBe(400);
    const disabled = await s.request('PUT', `/api/admin/invite-link/tokens/${secret}`, {
      body: { enabled: false },
    });
    expect(disabled.body.enabled).toBe(false);
    expect((await s.request('GET', `/invite/${secret}/validate`, { token: null })).status).toBe(400);
    expect((await s.request('GET', '/invite/unknown/validate', { token: null })).status).toBe(404);
    const tokens = await s.request('GET', '/api/admin/invite-link/tokens');
    expect(tokens.body.tokens[0].users.map((u: { email: string }) => u.email)).toEqual(['new@example.com']);
  });
});

describe('users, groups and project roles', () => {
  it('users: create, list, get', async () => {
    const created = await s.request('POST', '/api/admin/user-admin', {
      body: { email: 'ed@example.com', rootRole: 'Editor' },
    });
    expect(created.status, created.text).toBe(201);
    const list = await s.request('GET', '/api/admin/user-admin');
    expect(list.body.users.map((u: { email: string }) => u.email)).toContain('ed@example.com');
    expect((await s.request('GET', `/api/admin/user-admin/${created.body.id}`)).body.rootRole).toBe(2);
    expect((await s.request('GET', '/api/admin/user-admin/9999')).status).toBe(404);
  });
  it('groups: create with users, list, add users; roles; project access', async () => {
    const a = (await s.request('POST', '/api/admin/user-admin', { body: { email: 'a@example.com' } })).body
      .id;
    const b = (await s.request('POST', '/api/admin/user-admin', { body: { email: 'b@example.com' } })).body
      .id;
    const group = await s.request('POST', '/api/admin/groups', {
      body: { name: 'team', users: [{ user: { id: a } }] },
    });
    expect(group.status, group.text).toBe(201);
    expect((await s.request('POST', '/api/admin/groups', { body: { name: 'team' } })).status).toBe(409);
    const added = await s.request('POST', `/api/admin/groups/${group.body.id}/users`, {
      body: { users: [{ user: { id: b } }] },
    });
    expect(added.status, added.text).toBe(200);
    const listed = await s.request('GET', '/api/admin/groups');
    expect(listed.body.groups).toHaveLength(1);
    expect((await s.request('GET', `/api/admin/groups/${group.body.id}`)).status).toBe(200);
    expect((await s.request('POST', '/api/admin/groups/999/users', { body: { users: [] } })).status).toBe(
      404,
    );
    expect(
      (await s.request('GET', '/api/admin/roles')).body.roles.map((r: { name: string }) => r.name),
    ).toContain('Owner');
    expect((await s.request('GET', '/api/admin/roles/5')).body.name).toBe('Member');
    const access = await s.request('POST', '/api/admin/projects/default/access', {
      body: { roles: [5], users: [a], groups: [group.body.id] },
    });
    expect(access.status, access.text).toBe(200);
    const listAccess = await s.request('GET', '/api/admin/projects/default/access');
    expect(listAccess.body.users.map((u: { id: number }) => u.id)).toEqual([a]);
    const roles = await s.request('PUT', `/api/admin/projects/default/users/${a}/roles`, {
      body: { roles: [] },
    });
    expect(roles.status).toBe(200);
    expect(
      (await s.request('PUT', `/api/admin/projects/default/users/${a}/roles`, { body: { roles: ['x'] } }))
        .status,
    ).toBe(400);
  });
});
