import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errorBody, startTestServer, type TestServer } from '../testing/harness.js';

/** Editing and deleting users, as the admin UI's Users page does: refusals name the property, change nothing. */
let s: TestServer;
beforeEach(async () => {
  s = await startTestServer();
});
afterEach(() => s.close());

describe('PUT /api/admin/user-admin/:id', () => {
  it('changes name, e-mail and root role', async () => {
    const id = await s.user('Viewer', 'vic@example.com');
    const res = await s.request('PUT', `/api/admin/user-admin/${id}`, {
      body: { name: 'Victoria', email: 'victoria@example.com', rootRole: 2 },
    });
    expect(res.status, res.text).toBe(200);
    const got = await s.request('GET', `/api/admin/user-admin/${id}`);
    expect(got.body).toMatchObject({ name: 'Victoria', email: 'victoria@example.com', rootRole: 2 });
  });

  it('an invalid e-mail is a 400 naming "email"; nothing is stored', async () => {
    const id = await s.user('Viewer', 'vic@example.com');
    const res = await s.request('PUT', `/api/admin/user-admin/${id}`, {
      body: { name: 'Changed', email: 'not-an-email' },
    });
    expect(res.status).toBe(400);
    // The admin UI shows a message starting with the property's name next to that field.
    expect(errorBody(res).message).toMatch(/^"email" /);
    const got = await s.request('GET', `/api/admin/user-admin/${id}`);
    expect(got.body).toMatchObject({ email: 'vic@example.com' });
    expect(got.body.name).not.toBe('Changed');
  });

  it('an e-mail another user has is a 409 naming it; nothing is stored', async () => {
    await s.user('Viewer', 'taken@example.com');
    const id = await s.user('Viewer', 'vic@example.com');
    const res = await s.request('PUT', `/api/admin/user-admin/${id}`, {
      body: { name: 'Changed', email: 'taken@example.com' },
    });
    expect(res.status, res.text).toBe(409);
    expect(errorBody(res).message).toMatch(/^"email".*taken@example\.com/);
    const got = await s.request('GET', `/api/admin/user-admin/${id}`);
    expect(got.body).toMatchObject({ email: 'vic@example.com' });
    expect(got.body.name).not.toBe('Changed');
  });

  it('a role that is not a root role is a 400 naming "rootRole"', async () => {
    const id = await s.user('Viewer', 'vic@example.com');
    const res = await s.request('PUT', `/api/admin/user-admin/${id}`, { body: { rootRole: 4 } });
    expect(res.status).toBe(400);
    expect(errorBody(res).message).toMatch(/^"rootRole" /);
    expect((await s.request('GET', `/api/admin/user-admin/${id}`)).body.rootRole).toBe(3);
  });

  it('an unknown user is a 404', async () => {
    const res = await s.request('PUT', '/api/admin/user-admin/9999', { body: { name: 'X' } });
    expect(res.status).toBe(404);
  });
});

describe('DELETE /api/admin/user-admin/:id', () => {
  it('deletes the user; an unknown one is a 404', async () => {
    const id = await s.user('Viewer', 'vic@example.com');
    expect((await s.request('DELETE', `/api/admin/user-admin/${id}`)).status).toBe(200);
    expect((await s.request('GET', `/api/admin/user-admin/${id}`)).status).toBe(404);
    expect((await s.request('DELETE', `/api/admin/user-admin/${id}`)).status).toBe(404);
  });
});

describe('POST /api/admin/user-admin/reset-password', () => {
  it('makes a link for a user by id; an unknown user is a 404', async () => {
    const id = await s.user('Viewer', 'vic@example.com');
    const res = await s.request('POST', '/api/admin/user-admin/reset-password', { body: { id } });
    expect(res.status, res.text).toBe(200);
    expect(res.body.resetPasswordUrl).toMatch(/reset-password\?token=/);
    const unknown = await s.request('POST', '/api/admin/user-admin/reset-password', { body: { id: 9999 } });
    expect(unknown.status).toBe(404);
  });
});

describe('the last Admin', () => {
  it('can be neither demoted nor deleted (409 saying why); with a second Admin both work', async () => {
    const id = await s.user('Admin', 'only-admin@example.com');
    const demoted = await s.request('PUT', `/api/admin/user-admin/${id}`, { body: { rootRole: 'Viewer' } });
    expect(demoted.status, demoted.text).toBe(409);
    expect(errorBody(demoted).message).toMatch(
      /^"rootRole" cannot change: .* is the last Admin; make another user an Admin first\.$/,
    );
    const deleted = await s.request('DELETE', `/api/admin/user-admin/${id}`);
    expect(deleted.status, deleted.text).toBe(409);
    expect(errorBody(deleted).message).toContain('is the last Admin and cannot be deleted');
    expect((await s.request('GET', `/api/admin/user-admin/${id}`)).body.rootRole).toBe(1);

    const renamed = await s.request('PUT', `/api/admin/user-admin/${id}`, { body: { name: 'Still Admin' } });
    expect(renamed.status, renamed.text).toBe(200);
    await s.user('Admin', 'second-admin@example.com');
    expect(
      (await s.request('PUT', `/api/admin/user-admin/${id}`, { body: { rootRole: 'Viewer' } })).status,
    ).toBe(200);
    const other = await s.user('Admin', 'third-admin@example.com');
    expect((await s.request('DELETE', `/api/admin/user-admin/${other}`)).status).toBe(200);
  });
});
