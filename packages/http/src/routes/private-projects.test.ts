import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type As, as, expectHidden } from '../testing/as-user.js';
import { createFeature } from '../testing/fixtures.js';
import { type HttpResult, startTestServer, type TestServer } from '../testing/harness.js';

/**
 * Private projects: only root Admins, admin tokens and members (a user or group role in the
 * project) see them; to anyone else they do not exist.
 */
let s: TestServer;
let editor: As;
let member: As;
let groupMember: As;
let admin: As;
let segmentId: number;

const ids = (res: HttpResult, key: string, field = 'id'): string[] =>
  (res.body[key] as Record<string, string>[]).map((item) => item[field]!);

beforeAll(async () => {
  s = await startTestServer();
  editor = as(await s.user('Editor'));
  admin = as(await s.user('Admin'));
  const memberId = await s.user('Viewer');
  member = as(memberId);
  const groupMemberId = await s.user('Viewer');
  groupMember = as(groupMemberId);
  for (const [id, mode] of [
    ['secret', 'private'],
    ['guarded', 'protected'],
  ] as const) {
    const res = await s.request('POST', '/api/admin/projects', { body: { id, name: id, mode } });
    expect(res.status, res.text).toBe(201);
  }
  const role = await s.request('PUT', `/api/admin/projects/secret/users/${memberId}/roles`, {
    body: { roles: [5] },
  });
  expect(role.status, role.text).toBe(200);
  const group = await s.request('POST', '/api/admin/groups', {
    body: { name: 'insiders', users: [{ user: { id: groupMemberId } }] },
  });
  expect(group.status, group.text).toBe(201);
  const access = await s.request('POST', '/api/admin/projects/secret/access', {
    body: { roles: [5], groups: [group.body.id] },
  });
  expect(access.status, access.text).toBe(200);

  await createFeature(s, 'hidden-f', 'secret');
  await createFeature(s, 'hidden-archived', 'secret');
  await createFeature(s, 'open-f');
  expect((await s.request('DELETE', '/api/admin/projects/secret/features/hidden-archived')).status).toBe(202);
  const segment = await s.request('POST', '/api/admin/segments', { body: { name: 'beta-users' } });
  segmentId = segment.body.id;
  for (const [project, feature] of [
    ['secret', 'hidden-f'],
    ['default', 'open-f'],
  ] as const) {
    const strategy = await s.request(
      'POST',
      `/api/admin/projects/${project}/features/${feature}/environments/development/strategies`,
      { body: { name: 'default', segments: [segmentId] } },
    );
    expect(strategy.status, strategy.text).toBe(200);
  }
});
afterAll(() => s.close());

describe('project lists', () => {
  it('leave private projects out for non-members; members (directly or by group), Admins and admin tokens see them', async () => {
    const listed = async (opts?: As) => ids(await s.request('GET', '/api/admin/projects', opts), 'projects');
    expect(await listed(editor)).toEqual(expect.arrayContaining(['default', 'guarded']));
    expect(await listed(editor)).not.toContain('secret');
    for (const who of [member, groupMember, admin, undefined])
      expect(await listed(who)).toEqual(expect.arrayContaining(['default', 'guarded', 'secret']));
  });

  it('feature lists, the archive and segment users leave out what lives in hidden projects', async () => {
    const features = (opts?: As) => s.request('GET', '/api/admin/features', opts);
    expect(ids(await features(editor), 'features', 'name')).toContain('open-f');
    expect(ids(await features(editor), 'features', 'name')).not.toContain('hidden-f');
    expect(ids(await features(member), 'features', 'name')).toContain('hidden-f');
    const archive = (opts?: As) => s.request('GET', '/api/admin/archive/features', opts);
    expect(ids(await archive(editor), 'features', 'name')).not.toContain('hidden-archived');
    expect(ids(await archive(groupMember), 'features', 'name')).toContain('hidden-archived');
    const users = (opts?: As) => s.request('GET', `/api/admin/segments/${segmentId}/strategies`, opts);
    expect(ids(await users(editor), 'strategies', 'featureName')).toEqual(['open-f']);
    expect(ids(await users(admin), 'strategies', 'featureName').sort()).toEqual(['hidden-f', 'open-f']);
  });
});

describe('direct reads and writes', () => {
  it('a hidden project answers exactly like a project that does not exist', async () => {
    expectHidden(await s.request('GET', '/api/admin/projects/secret', editor), 'project "secret"');
    expectHidden(await s.request('GET', '/api/admin/projects/nope', editor), 'project "nope"');
    for (const path of [
      '/api/admin/projects/secret/overview',
      '/api/admin/projects/secret/features',
      '/api/admin/projects/secret/features/hidden-f',
      '/api/admin/environments/project/secret',
      '/api/admin/archive/features/secret',
    ])
      expectHidden(await s.request('GET', path, editor), 'project "secret"');
    expect((await s.request('GET', '/api/admin/projects/secret', member)).body.mode).toBe('private');
    expect((await s.request('GET', '/api/admin/projects/secret/overview', groupMember)).status).toBe(200);
    expect((await s.request('GET', '/api/admin/projects/secret/features/hidden-f', admin)).status).toBe(200);
    expect((await s.request('GET', '/api/admin/projects/secret')).status).toBe(200);
  });

  it('writes into a hidden project are 404, not 403; members write as their role allows', async () => {
    expectHidden(
      await s.request('POST', '/api/admin/projects/secret/features', { body: { name: 'sneaky' }, ...editor }),
      'project "secret"',
    );
    expectHidden(
      await s.request('PUT', '/api/admin/projects/secret', { body: { name: 'renamed' }, ...editor }),
      'project "secret"',
    );
    const created = await s.request('POST', '/api/admin/projects/secret/features', {
      body: { name: 'by-member' },
      ...member,
    });
    expect(created.status, created.text).toBe(200);
    // A protected project is visible, so an Editor without a role is refused, not hidden.
    const guarded = await s.request('POST', '/api/admin/projects/guarded/features', {
      body: { name: 'nope' },
      ...editor,
    });
    expect(guarded.status).toBe(403);
  });

  it('feature routes without a project in the path hide the feature of a hidden project', async () => {
    expectHidden(await s.request('GET', '/api/admin/features/hidden-f/tags', editor), 'feature "hidden-f"');
    expectHidden(
      await s.request('POST', '/api/admin/features/hidden-f/tags', {
        body: { type: 'simple', value: 'peek' },
        ...editor,
      }),
      'feature "hidden-f"',
    );
    expectHidden(
      await s.request('POST', '/api/admin/archive/revive/hidden-archived', editor),
      'feature "hidden-archived"',
    );
    expectHidden(
      await s.request('DELETE', '/api/admin/archive/hidden-archived', editor),
      'feature "hidden-archived"',
    );
    expect((await s.request('GET', '/api/admin/features/hidden-f/tags', member)).status).toBe(200);
    expect((await s.request('GET', '/api/admin/features/open-f/tags', editor)).status).toBe(200);
  });

  it('a project that turns open is visible again, one that turns private hides', async () => {
    expect(
      (await s.request('PUT', '/api/admin/projects/guarded', { body: { mode: 'private' } })).status,
    ).toBe(200);
    expectHidden(await s.request('GET', '/api/admin/projects/guarded', editor), 'project "guarded"');
    expect((await s.request('PUT', '/api/admin/projects/guarded', { body: { mode: 'open' } })).status).toBe(
      200,
    );
    expect((await s.request('GET', '/api/admin/projects/guarded', editor)).status).toBe(200);
  });
});
