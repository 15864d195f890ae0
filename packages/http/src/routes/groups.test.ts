import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type As, as } from '../testing/as-user.js';
import { errorBody, startTestServer, type TestServer } from '../testing/harness.js';

/** Groups: create, edit, membership, delete; Admins only change them. */
let s: TestServer;
let editor: As;
let ann: number;
let bob: number;
let cid: number;

beforeAll(async () => {
  s = await startTestServer();
  editor = as(await s.user('Editor'));
  ann = await s.user('Viewer', 'ann@example.com');
  bob = await s.user('Viewer', 'bob@example.com');
  cid = await s.user('Viewer', 'cid@example.com');
});
afterAll(() => s.close());

const members = (res: { body: { users: { user: { id: number } }[] } }) =>
  res.body.users.map((u) => u.user.id);
const eventTypes = async () =>
  ((await s.request('GET', '/api/admin/events')).body.events as { type: string }[]).map((e) => e.type);

async function createGroup(name: string, users: number[]): Promise<number> {
  const res = await s.request('POST', '/api/admin/groups', {
    body: { name, users: users.map((id) => ({ user: { id } })) },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

describe('editing a group', () => {
  it('PUT changes name and description; `users` replaces the members', async () => {
    const id = await createGroup('ops', [ann, bob]);
    const res = await s.request('PUT', `/api/admin/groups/${id}`, {
      body: {
        name: 'operations',
        description: 'On call',
        users: [{ user: { id: bob } }, { user: { id: cid } }],
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ id, name: 'operations', description: 'On call', userCount: 2 });
    const got = await s.request('GET', `/api/admin/groups/${id}`);
    expect(got.body).toMatchObject({ name: 'operations', description: 'On call' });
    expect(members(got)).toEqual([bob, cid]);
    // Without `users` the members stay.
    const renamed = await s.request('PUT', `/api/admin/groups/${id}`, { body: { description: null } });
    expect(renamed.status, renamed.text).toBe(200);
    expect(members(renamed)).toEqual([bob, cid]);
    expect(renamed.body.description).toBeNull();
    const types = await eventTypes();
    for (const type of ['group-updated', 'group-user-removed', 'group-user-added'])
      expect(types).toContain(type);
  });

  it('refuses a taken or empty name, an unknown user, a project role as root role; nothing changes', async () => {
    const id = await createGroup('devs', [ann]);
    await createGroup('qa', []);
    const before = (await s.request('GET', `/api/admin/groups/${id}`)).body;
    const taken = await s.request('PUT', `/api/admin/groups/${id}`, { body: { name: 'qa' } });
    expect(taken.status).toBe(409);
    expect(errorBody(taken).message).toContain('"qa"');
    const empty = await s.request('PUT', `/api/admin/groups/${id}`, { body: { name: ' ' } });
    expect(empty.status).toBe(400);
    expect(errorBody(empty).message).toContain('"name"');
    const wrongType = await s.request('PUT', `/api/admin/groups/${id}`, { body: { users: 'ann' } });
    expect(wrongType.status).toBe(400);
    expect(errorBody(wrongType).message).toContain('"users"');
    const unknownUser = await s.request('PUT', `/api/admin/groups/${id}`, {
      body: { name: 'devs2', users: [{ user: { id: ann } }, { user: { id: 9999 } }] },
    });
    expect(unknownUser.status).toBe(404);
    expect(errorBody(unknownUser).message).toContain('users[1]');
    const projectRole = await s.request('PUT', `/api/admin/groups/${id}`, { body: { rootRole: 4 } });
    expect(projectRole.status).toBe(400);
    expect(errorBody(projectRole).message).toContain('"rootRole"');
    expect((await s.request('GET', `/api/admin/groups/${id}`)).body).toEqual(before);
  });

  it('401 without credentials, 403 for an Editor, 404 for an unknown group', async () => {
    const id = await createGroup('guarded', [ann]);
    for (const [method, path, body] of [
      ['PUT', `/api/admin/groups/${id}`, { name: 'x' }],
      ['DELETE', `/api/admin/groups/${id}`, undefined],
      ['DELETE', `/api/admin/groups/${id}/users/${ann}`, undefined],
    ] as const) {
      expect((await s.request(method, path, { token: null, body })).status).toBe(401);
      const forbidden = await s.request(method, path, { ...editor, body });
      expect(forbidden.status).toBe(403);
      expect(errorBody(forbidden).message).toContain('ADMIN');
    }
    expect(members(await s.request('GET', `/api/admin/groups/${id}`))).toEqual([ann]);
    expect((await s.request('PUT', '/api/admin/groups/9999', { body: { name: 'x' } })).status).toBe(404);
    expect((await s.request('DELETE', '/api/admin/groups/9999')).status).toBe(404);
    expect((await s.request('DELETE', '/api/admin/groups/abc')).status).toBe(404);
    expect((await s.request('DELETE', `/api/admin/groups/9999/users/${ann}`)).status).toBe(404);
  });
});

describe('membership and deletion', () => {
  it('removes one user; a user who is not a member is a 404', async () => {
    const id = await createGroup('support', [ann, bob]);
    const res = await s.request('DELETE', `/api/admin/groups/${id}/users/${ann}`);
    expect(res.status, res.text).toBe(200);
    expect(members(res)).toEqual([bob]);
    const again = await s.request('DELETE', `/api/admin/groups/${id}/users/${ann}`);
    expect(again.status).toBe(404);
    expect(errorBody(again).message).toContain('not a member');
    expect(members(await s.request('GET', `/api/admin/groups/${id}`))).toEqual([bob]);
  });

  it('deleting a group takes away the private project it let its members see', async () => {
    const created = await s.request('POST', '/api/admin/projects', {
      body: { id: 'vault', name: 'Vault', mode: 'private' },
    });
    expect(created.status, created.text).toBe(201);
    const id = await createGroup('vault-team', [cid]);
    const access = await s.request('POST', `/api/admin/projects/vault/role/5/access`, {
      body: { groups: [{ id }] },
    });
    expect(access.status, access.text).toBe(200);
    const sees = async () =>
      ((await s.request('GET', '/api/admin/projects', as(cid))).body.projects as { id: string }[]).map(
        (p) => p.id,
      );
    expect(await sees()).toContain('vault');
    // The group lists the projects it has a role in, but not to whoever may not see them.
    expect((await s.request('GET', `/api/admin/groups/${id}`)).body.projects).toEqual(['vault']);
    const listed = await s.request('GET', '/api/admin/groups');
    expect(listed.body.groups.find((g: { id: number }) => g.id === id).projects).toEqual(['vault']);
    expect((await s.request('GET', `/api/admin/groups/${id}`, editor)).body.projects).toEqual([]);
    expect((await s.request('GET', `/api/admin/groups/${id}`, as(cid))).body.projects).toEqual(['vault']);
    expect((await s.request('DELETE', `/api/admin/groups/${id}`)).status).toBe(200);
    expect((await s.request('GET', `/api/admin/groups/${id}`)).status).toBe(404);
    expect(await sees()).not.toContain('vault');
    expect((await s.request('GET', '/api/admin/projects/vault/access')).body.groups).toEqual([]);
    expect(await eventTypes()).toContain('group-deleted');
  });

  it('GET /api/admin/groups/search finds groups by name or description for anyone signed in', async () => {
    const id = await createGroup('search-crew', [ann, bob]);
    await s.request('PUT', `/api/admin/groups/${id}`, { body: { description: 'Findable Folks' } });
    const found = await s.request('GET', '/api/admin/groups/search?q=findable', editor);
    expect(found.status, found.text).toBe(200);
    expect(found.body).toEqual([{ id, name: 'search-crew', userCount: 2 }]);
    expect((await s.request('GET', '/api/admin/groups/search?q=SEARCH-C')).body).toHaveLength(1);
    expect((await s.request('GET', '/api/admin/groups/search?q=zzz-none')).body).toEqual([]);
    const long = await s.request('GET', `/api/admin/groups/search?q=${'x'.repeat(101)}`);
    expect(long.status).toBe(400);
    expect(errorBody(long).message).toContain('"q"');
    expect((await s.request('GET', '/api/admin/groups/search?q=a', { token: null })).status).toBe(401);
  });
});
