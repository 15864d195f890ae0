import { beforeEach, describe, expect, it } from 'vitest';
import { ROLES } from '../../domain/user.js';
import type { Flagstaff } from '../../flagstaff.js';
import { alice, createTestFlagstaff, eventTypesSince } from '../test-support.js';

let flagstaff: Flagstaff;
beforeEach(async () => {
  ({ flagstaff } = await createTestFlagstaff());
});

const newUser = (email: string, rootRole: number | 'Admin' | 'Editor' | 'Viewer' = 'Viewer') =>
  flagstaff.users.create(alice, { email, name: email.split('@')[0], rootRole });

describe('users', () => {
  it('creates users (user-created) and returns views without secrets', async () => {
    const bob = await newUser('bob@example.com', 'Editor');
    expect(bob).toMatchObject({
      email: 'bob@example.com',
      name: 'bob',
      rootRole: ROLES.Editor.id,
      isAPI: false,
      permissions: [],
      accountType: 'User',
      loginAttempts: 0,
      seenAt: null,
    });
    expect(bob.imageUrl).toMatch(/^https:\/\/gravatar\.com\/avatar\/[0-9a-f]{32}/);
    expect(bob).not.toHaveProperty('passwordHash');
    expect(bob).not.toHaveProperty('scimId');
    // The one-time set-password link is answered once, at creation; reads and events never carry it.
    expect(bob.inviteLink).toMatch(/^\/new-user\?token=\d+\.\d+\./);
    const byName = await flagstaff.users.create(alice, { username: 'svc' });
    expect(byName).toMatchObject({ email: '', username: 'svc', imageUrl: '', rootRole: ROLES.Viewer.id });
    expect(await flagstaff.users.get(alice, bob.id)).toEqual({ ...bob, inviteLink: '' });
    expect((await flagstaff.users.list(alice)).map((u) => u.id)).toEqual([bob.id, byName.id]);
    const events = await flagstaff.store.events.search({ ascending: true });
    expect(events.map((e) => e.type)).toEqual(['user-created', 'user-created']);
    expect(events[0]).toMatchObject({ createdBy: alice.actor.name, data: { email: 'bob@example.com' } });
    expect(JSON.stringify(events)).not.toContain('token=');
  });

  it('refuses duplicates, project roles as root roles, missing identity, and unknown ids', async () => {
    await newUser('bob@example.com');
    await expect(newUser('bob@example.com')).rejects.toMatchObject({ code: 'CONFLICT' });
    await expect(newUser('carol@example.com', ROLES.Owner.id)).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('"rootRole"'),
    });
    await expect(flagstaff.users.create(alice, { name: 'nobody' })).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('"email"'),
    });
    await expect(flagstaff.users.get(alice, 99)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('groups', () => {
  it('creates a group with initial users and adds more (group-created, group-user-added)', async () => {
    const bob = await newUser('bob@example.com');
    const carol = await newUser('carol@example.com');
    const group = await flagstaff.users.groups.create(alice, {
      name: 'devs',
      description: 'Developers',
      users: [{ user: { id: bob.id } }],
    });
    expect(group).toMatchObject({
      name: 'devs',
      description: 'Developers',
      createdBy: alice.actor.name,
      userCount: 1,
    });
    expect(group.users.map((u) => u.user.email)).toEqual(['bob@example.com']);
    const grown = await flagstaff.users.groups.addUsers(alice, group.id, [bob.id, carol.id]);
    expect(grown.users.map((u) => u.user.id)).toEqual([bob.id, carol.id]);
    expect((await flagstaff.users.groups.list(alice)).map((g) => g.userCount)).toEqual([2]);
    expect(await flagstaff.users.groups.get(alice, group.id)).toEqual(grown);
    const events = (await flagstaff.store.events.search({ ascending: true })).filter((e) =>
      e.type.startsWith('group-'),
    );
    expect(events.map((e) => [e.type, e.data])).toEqual([
      ['group-created', expect.objectContaining({ id: group.id, name: 'devs' })],
      ['group-user-added', { groupId: group.id, userIds: [bob.id] }],
      ['group-user-added', { groupId: group.id, userIds: [carol.id] }],
    ]);
  });

  it('refuses duplicate names, unknown users and unknown groups', async () => {
    await flagstaff.users.groups.create(alice, { name: 'devs' });
    await expect(flagstaff.users.groups.create(alice, { name: 'devs' })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    await expect(
      flagstaff.users.groups.create(alice, { name: 'ops', users: [{ user: { id: 42 } }] }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('"users[0]"') });
    expect((await flagstaff.users.groups.list(alice)).map((g) => g.name)).toEqual(['devs']);
    await expect(flagstaff.users.groups.addUsers(alice, 99, [])).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(flagstaff.users.groups.create(alice, { name: '' })).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('"name"'),
    });
  });
});

describe('roles', () => {
  it('lists the built-in roles and gets one by id', async () => {
    expect((await flagstaff.users.roles.list(alice)).map((r) => r.name)).toEqual([
      'Admin',
      'Editor',
      'Viewer',
      'Owner',
      'Member',
    ]);
    expect(await flagstaff.users.roles.get(alice, ROLES.Member.id)).toMatchObject({
      type: 'project',
      name: 'Member',
    });
    await expect(flagstaff.users.roles.get(alice, 77)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('project access', () => {
  it('sets a group role through the deprecated endpoint, checking project, group and role', async () => {
    const group = await flagstaff.users.groups.create(alice, { name: 'devs' });
    await flagstaff.users.setGroupProjectRole(alice, 'default', group.id, ROLES.Member.id);
    await flagstaff.users.setGroupProjectRole(alice, 'default', group.id, ROLES.Owner.id);
    const access = await flagstaff.users.listProjectAccess(alice, 'default');
    expect(access.groups.map((g) => [g.name, g.roles])).toEqual([['devs', [ROLES.Owner.id]]]);
    const events = (await flagstaff.store.events.search({ ascending: true })).filter(
      (e) => e.type === 'project-group-role-changed',
    );
    expect(events.map((e) => [e.project, e.data, e.preData])).toEqual([
      ['default', { groupId: group.id, roleId: ROLES.Member.id }, { groupId: group.id, roles: [] }],
      [
        'default',
        { groupId: group.id, roleId: ROLES.Owner.id },
        { groupId: group.id, roles: [ROLES.Member.id] },
      ],
    ]);
    await expect(flagstaff.users.setGroupProjectRole(alice, 'nope', group.id, 5)).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringContaining('"nope"'),
    });
    await expect(flagstaff.users.setGroupProjectRole(alice, 'default', 99, 5)).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringContaining('group'),
    });
    await expect(flagstaff.users.setGroupProjectRole(alice, 'default', group.id, 66)).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringContaining('role'),
    });
    await expect(
      flagstaff.users.setGroupProjectRole(alice, 'default', group.id, ROLES.Admin.id),
    ).rejects.toMatchObject({ code: 'VALIDATION', message: expect.stringContaining('"roleId"') });
  });

  it('replaces user roles (project-access-user-roles-updated) and adds access without dropping roles', async () => {
    const bob = await newUser('bob@example.com');
    const carol = await newUser('carol@example.com');
    const group = await flagstaff.users.groups.create(alice, { name: 'devs' });
    const before = await flagstaff.store.events.latestId();
    await flagstaff.users.setUserProjectRoles(alice, 'default', bob.id, [ROLES.Member.id]);
    await flagstaff.users.addAccess(alice, 'default', {
      roles: [ROLES.Owner.id],
      users: [bob.id, { id: carol.id }],
      groups: [group.id],
    });
    const access = await flagstaff.users.listProjectAccess(alice, 'default');
    expect(access.roles.map((r) => r.name)).toEqual(['Owner', 'Member']);
    expect(access.users.map((u) => [u.email, [...u.roles].sort()])).toEqual([
      ['bob@example.com', [ROLES.Owner.id, ROLES.Member.id].sort()],
      ['carol@example.com', [ROLES.Owner.id]],
    ]);
    expect(access.groups.map((g) => [g.id, g.roleId])).toEqual([[group.id, ROLES.Owner.id]]);
    expect(await eventTypesSince(flagstaff, before)).toEqual([
      'project-access-user-roles-updated',
      'project-access-added',
    ]);
    const [updated, added] = await flagstaff.store.events.search({ afterId: before, ascending: true });
    expect(updated).toMatchObject({ project: 'default', data: { userId: bob.id, roles: [ROLES.Member.id] } });
    expect(added?.data).toEqual({ roles: [ROLES.Owner.id], users: [bob.id, carol.id], groups: [group.id] });
    await flagstaff.users.setUserProjectRoles(alice, 'default', carol.id, []);
    expect((await flagstaff.users.listProjectAccess(alice, 'default')).users.map((u) => u.email)).toEqual([
      'bob@example.com',
    ]);
  });

  it('refuses bad access requests naming the property', async () => {
    const bob = await newUser('bob@example.com');
    await expect(
      flagstaff.users.setUserProjectRoles(alice, 'default', bob.id, [ROLES.Viewer.id]),
    ).rejects.toMatchObject({ code: 'VALIDATION', message: expect.stringContaining('"roles[0]"') });
    await expect(
      flagstaff.users.addAccess(alice, 'default', { roles: [], users: [bob.id] }),
    ).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('"roles"'),
    });
    await expect(
      flagstaff.users.addAccess(alice, 'default', { roles: [ROLES.Member.id] }),
    ).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('"users"'),
    });
    await expect(
      flagstaff.users.addAccess(alice, 'default', { roles: [ROLES.Member.id], users: [123] }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('"123"') });
    expect((await flagstaff.users.listProjectAccess(alice, 'default')).users).toEqual([]);
  });

  it('counts distinct members, direct or through groups', async () => {
    const bob = await newUser('bob@example.com');
    const carol = await newUser('carol@example.com');
    const dave = await newUser('dave@example.com');
    const group = await flagstaff.users.groups.create(alice, {
      name: 'devs',
      users: [{ user: { id: bob.id } }, { user: { id: carol.id } }],
    });
    expect(await flagstaff.users.countProjectMembers(alice, 'default')).toBe(0);
    await flagstaff.users.setUserProjectRoles(alice, 'default', bob.id, [ROLES.Owner.id, ROLES.Member.id]);
    await flagstaff.users.setUserProjectRoles(alice, 'default', dave.id, [ROLES.Member.id]);
    await flagstaff.users.setGroupProjectRole(alice, 'default', group.id, ROLES.Member.id);
    expect(await flagstaff.users.countProjectMembers(alice, 'default')).toBe(3);
  });
});

describe('updating and deleting users', () => {
  const PASSWORD = 'Very-Secret-42';

  async function signedInUser(f: Flagstaff) {
    const user = await f.users.create(alice, {
      username: 'ann',
      email: 'ann@example.com',
      rootRole: 'Editor',
    });
    await f.accounts.resetPassword(alice, user.id, { password: PASSWORD });
    const { sessionId } = await f.sessions.login({ username: 'ann', password: PASSWORD });
    return { user, sessionId };
  }

  it('changes only the given properties and writes user-updated; a new root role ends the sessions', async () => {
    const { flagstaff: f } = await createTestFlagstaff();
    const { user, sessionId } = await signedInUser(f);
    const renamed = await f.users.update(alice, user.id, { name: 'Ann' });
    expect(renamed).toMatchObject({ name: 'Ann', email: 'ann@example.com', rootRole: 2 });
    expect(await f.sessions.authenticate(sessionId)).not.toBeNull();
    const demoted = await f.users.update(alice, user.id, { rootRole: 'Viewer' });
    expect(demoted.rootRole).toBe(3);
    expect(await f.sessions.authenticate(sessionId)).toBeNull();
    const events = await f.store.events.search({ type: 'user-updated', ascending: true });
    expect(events.at(-1)).toMatchObject({ data: { rootRole: 3 }, preData: { rootRole: 2 } });
    expect(JSON.stringify(events)).not.toContain('scrypt');
  });

  it('refuses bad input naming the property, and unknown users; nothing changes', async () => {
    const { flagstaff: f } = await createTestFlagstaff();
    const { user } = await signedInUser(f);
    await f.users.create(alice, { email: 'bob@example.com' });
    await expect(f.users.update(alice, user.id, { email: 'nope' })).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('"email"'),
    });
    await expect(f.users.update(alice, user.id, { rootRole: 4 })).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('"rootRole"'),
    });
    await expect(f.users.update(alice, user.id, { email: 'BOB@example.com' })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    await expect(f.users.update(alice, 999, { name: 'x' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(await f.users.get(alice, user.id)).toMatchObject({ email: 'ann@example.com', rootRole: 2 });
  });

  it('deletes a user with their sessions and writes user-deleted', async () => {
    const { flagstaff: f } = await createTestFlagstaff();
    const { user, sessionId } = await signedInUser(f);
    await f.users.remove(alice, user.id);
    expect(await f.sessions.authenticate(sessionId)).toBeNull();
    await expect(f.users.get(alice, user.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const [deleted] = await f.store.events.search({ type: 'user-deleted' });
    expect(deleted).toMatchObject({ data: null, preData: { id: user.id, username: 'ann' } });
    await expect(f.users.remove(alice, user.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
