import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errorBody, startTestServer, type TestServer } from '../testing/harness.js';

let s: TestServer;
beforeEach(async () => {
  s = await startTestServer();
});
afterEach(() => s.close());

const asUser = (id: number) => ({ token: null, headers: { 'x-test-user': String(id) } });

describe('personal access tokens', () => {
  const inAMonth = () => new Date(Date.now() + 30 * 86_400_000).toISOString();

  it('are made by a user, answered once, listed without secrets, and act as that user', async () => {
    const viewer = await s.user('Viewer', 'v@example.com');
    const created = await s.request('POST', '/api/admin/user/tokens', {
      ...asUser(viewer),
      body: { description: 'terraform', expiresAt: inAMonth() },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ description: 'terraform', userId: viewer, seenAt: null });
    const secret: string = created.body.secret;
    expect(secret).toMatch(/^user:[0-9a-f]{56}$/);
    const listed = await s.request('GET', '/api/admin/user/tokens', asUser(viewer));
    expect(listed.body.pats).toEqual(
      [{ ...created.body, secret: undefined }].map(({ secret: _, ...t }) => t),
    );
    // The token is the Viewer: it reads, and may not change anything.
    expect((await s.request('GET', '/api/admin/projects', { token: secret })).status).toBe(200);
    const write = await s.request('POST', '/api/admin/projects/default/features', {
      token: secret,
      body: { name: 'nope' },
    });
    expect(write.status).toBe(403);
    expect((await s.request('GET', '/api/admin/user', { token: secret })).body.user.email).toBe(
      'v@example.com',
    );

    const deleted = await s.request('DELETE', `/api/admin/user/tokens/${created.body.id}`, asUser(viewer));
    expect(deleted.status).toBe(200);
    expect((await s.request('GET', '/api/admin/projects', { token: secret })).status).toBe(401);
    expect(
      (await s.request('DELETE', `/api/admin/user/tokens/${created.body.id}`, asUser(viewer))).status,
    ).toBe(404);
    const events = await s.request('GET', '/api/admin/events?type=pat-created');
    expect(events.text).not.toContain(secret);
  });

  it("cannot delete someone else's token, refuse API tokens, and name bad input", async () => {
    const a = await s.user('Admin');
    const b = await s.user('Editor');
    const mine = await s.request('POST', '/api/admin/user/tokens', {
      ...asUser(a),
      body: { description: 'ci', expiresAt: inAMonth() },
    });
    expect((await s.request('DELETE', `/api/admin/user/tokens/${mine.body.id}`, asUser(b))).status).toBe(404);
    expect((await s.request('GET', '/api/admin/user/tokens', asUser(a))).body.pats).toHaveLength(1);
    // An admin API token is not a user.
    expect((await s.request('GET', '/api/admin/user/tokens')).status).toBe(403);
    const past = await s.request('POST', '/api/admin/user/tokens', {
      ...asUser(a),
      body: { description: 'old', expiresAt: '2020-01-01T00:00:00Z' },
    });
    expect(past.status).toBe(400);
    expect(errorBody(past).message).toContain('expiresAt');
    const empty = await s.request('POST', '/api/admin/user/tokens', {
      ...asUser(a),
      body: { description: '', expiresAt: inAMonth() },
    });
    expect(empty.status).toBe(400);
    expect(errorBody(empty).message).toContain('description');
    expect((await s.request('GET', '/api/admin/user/tokens', asUser(a))).body.pats).toHaveLength(1);
  });

  it('are deleted with their user', async () => {
    const user = await s.user('Editor');
    const created = await s.request('POST', '/api/admin/user/tokens', {
      ...asUser(user),
      body: { description: 'tmp', expiresAt: inAMonth() },
    });
    expect((await s.request('DELETE', `/api/admin/user-admin/${user}`)).status).toBe(200);
    expect((await s.request('GET', '/api/admin/projects', { token: created.body.secret })).status).toBe(401);
  });
});
