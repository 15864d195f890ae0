import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type As, as, expectHidden } from '../testing/as-user.js';
import { errorBody, startTestServer, type TestServer } from '../testing/harness.js';

/** Who has which role in a project: the reference's project access routes. */
let s: TestServer;
let viewer: As;
let userId: number;
let groupId: number;
let groupUser: number;

beforeAll(async () => {
  s = await startTestServer();
  viewer = as(await s.user('Viewer'));
  userId = await s.user('Viewer', 'uma@example.com');
  groupUser = await s.user('Viewer', 'gus@example.com');
  const group = await s.request('POST', '/api/admin/groups', {
    body: { name: 'crew', users: [{ user: { id: groupUser } }] },
  });
  groupId = group.body.id;
  const project = await s.request('POST', '/api/admin/projects', {
    body: { id: 'hush', name: 'Hush', mode: 'private' },
  });
  expect(project.status, project.text).toBe(201);
});
afterAll(() => s.close());

const access = async () => (await s.request('GET', '/api/admin/projects/hush/access')).body;
const rolesOf = (list: { id: number; roles: number[] }[]) => list.map((x) => [x.id, x.roles]);
const visibleTo = async (id: number) =>
  ((await s.request('GET', '/api/admin/projects', as(id))).body.projects as { id: string }[]).some(
    (p) => p.id === 'hush',
  );

describe('project access', () => {
  it('POST role/:roleId/access gives one role to users and groups; they then see the private project', async () => {
    expect(await visibleTo(userId)).toBe(false);
    expect(await visibleTo(groupUser)).toBe(false);
    const res = await s.request('POST', '/api/admin/projects/hush/role/5/access', {
      body: { users: [{ id: userId }], groups: [{ id: groupId }] },
    });
    expect(res.status, res.text).toBe(200);
    const now = await access();
    expect(rolesOf(now.users)).toEqual([[userId, [5]]]);
    expect(rolesOf(now.groups)).toEqual([[groupId, [5]]]);
    expect(await visibleTo(userId)).toBe(true);
    expect(await visibleTo(groupUser)).toBe(true);
    expect((await s.request('GET', '/api/admin/projects/hush/overview')).body.members).toBe(2);
  });

  it('PUT groups/:groupId/roles replaces the group roles; DELETE removes user and group', async () => {
    const put = await s.request('PUT', `/api/admin/projects/hush/groups/${groupId}/roles`, {
      body: { roles: [4] },
    });
    expect(put.status, put.text).toBe(200);
    expect(rolesOf((await access()).groups)).toEqual([[groupId, [4]]]);

    const delUser = await s.request('DELETE', `/api/admin/projects/hush/users/${userId}/roles`);
    expect(delUser.status, delUser.text).toBe(200);
    expect((await access()).users).toEqual([]);
    expect(await visibleTo(userId)).toBe(false);
    const again = await s.request('DELETE', `/api/admin/projects/hush/users/${userId}/roles`);
    expect(again.status).toBe(404);
    expect(errorBody(again).message).toContain('has no role in project "hush"');

    const delGroup = await s.request('DELETE', `/api/admin/projects/hush/groups/${groupId}/roles`);
    expect(delGroup.status, delGroup.text).toBe(200);
    expect((await access()).groups).toEqual([]);
    expect(await visibleTo(groupUser)).toBe(false);
    const types = (
      (await s.request('GET', '/api/admin/events?project=hush')).body.events as { type: string }[]
    ).map((e) => e.type);
    for (const type of [
      'project-access-added',
      'project-access-group-roles-updated',
      'project-access-user-roles-deleted',
      'project-access-group-roles-deleted',
    ])
      expect(types).toContain(type);
  });

  it('400 naming the property, nothing stored', async () => {
    const before = await access();
    for (const [method, path, body, property] of [
      ['POST', '/api/admin/projects/hush/role/5/access', { users: ['x'] }, '"users[0]"'],
      ['POST', '/api/admin/projects/hush/role/1/access', { users: [userId] }, '"roles[0]"'],
      ['PUT', `/api/admin/projects/hush/groups/${groupId}/roles`, { roles: 'owner' }, '"roles"'],
      ['PUT', `/api/admin/projects/hush/groups/${groupId}/roles`, { roles: [2] }, '"roles[0]"'],
    ] as const) {
      const res = await s.request(method, path, { body });
      expect(res.status, `${path} ${res.text}`).toBe(400);
      expect(errorBody(res).message).toContain(property);
    }
    const nobody = await s.request('POST', '/api/admin/projects/hush/role/5/access', { body: {} });
    expect(nobody.status).toBe(400);
    expect(errorBody(nobody).message).toContain('"users"');
    expect(await access()).toEqual(before);
  });

  it('401, 403 for a Viewer, 404 for unknown projects, users, groups and roles; hidden from non-members', async () => {
    const open = await s.request('POST', '/api/admin/projects', { body: { id: 'plain', name: 'Plain' } });
    expect(open.status).toBe(201);
    const calls = [
      ['POST', '/api/admin/projects/plain/role/5/access', { users: [userId] }],
      ['PUT', `/api/admin/projects/plain/groups/${groupId}/roles`, { roles: [5] }],
      ['DELETE', `/api/admin/projects/plain/users/${userId}/roles`, undefined],
      ['DELETE', `/api/admin/projects/plain/groups/${groupId}/roles`, undefined],
    ] as const;
    for (const [method, path, body] of calls) {
      expect((await s.request(method, path, { token: null, body })).status).toBe(401);
      const forbidden = await s.request(method, path, { ...viewer, body });
      expect(forbidden.status, path).toBe(403);
      expect(errorBody(forbidden).message).toContain('UPDATE_PROJECT');
      // The private project does not exist for a Viewer who is no member of it.
      expectHidden(
        await s.request(method, path.replace('plain', 'hush'), { ...viewer, body }),
        'project "hush"',
      );
    }
    const missing = [
      ['POST', '/api/admin/projects/nope/role/5/access', { users: [userId] }],
      ['POST', '/api/admin/projects/plain/role/99/access', { users: [userId] }],
      ['POST', '/api/admin/projects/plain/role/5/access', { users: [9999] }],
      ['PUT', '/api/admin/projects/plain/groups/9999/roles', { roles: [5] }],
      ['DELETE', '/api/admin/projects/plain/users/9999/roles', undefined],
      ['DELETE', '/api/admin/projects/plain/groups/9999/roles', undefined],
    ] as const;
    for (const [method, path, body] of missing)
      expect((await s.request(method, path, { body })).status, path).toBe(404);
    expect((await s.request('GET', '/api/admin/projects/plain/access')).body.users).toEqual([]);
  });
});
