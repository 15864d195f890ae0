import { beforeEach, describe, expect, it } from 'vitest';
import type { Flagstaff } from '../../flagstaff.js';
import { alice, createTestFlagstaff, userCaller } from '../test-support.js';
import { searchGroups } from './group-operations.js';

let flagstaff: Flagstaff;
let ids: number[];
beforeEach(async () => {
  ({ flagstaff } = await createTestFlagstaff());
  // alice acts as user 1: make her that user, so whoever comes next is not mistaken for her.
  await flagstaff.users.create(alice, { email: 'alice@example.com' });
  ids = [];
  for (const email of ['ann@example.com', 'bob@example.com', 'cy@example.com'])
    ids.push((await flagstaff.users.create(alice, { email })).id);
});

const members = (users: readonly number[]) => users.map((id) => ({ user: { id } }));
const groupEvents = async () =>
  (await flagstaff.store.events.search({ ascending: true }))
    .filter((e) => e.type.startsWith('group-'))
    .map((e) => [e.type, e.data ?? e.preData]);

describe('groups', () => {
  it('an update writes group-updated and only the membership difference', async () => {
    const [ann, bob, cy] = ids as [number, number, number];
    const group = await flagstaff.users.groups.create(alice, { name: 'ops', users: members([ann, bob]) });
    const updated = await flagstaff.users.groups.update(alice, group.id, {
      name: 'operations',
      users: members([bob, cy]),
    });
    expect(updated).toMatchObject({ name: 'operations', description: null, userCount: 2 });
    expect(updated.users.map((u) => u.user.id)).toEqual([bob, cy]);
    expect(await groupEvents()).toEqual([
      ['group-created', expect.objectContaining({ name: 'ops' })],
      ['group-user-added', { groupId: group.id, userIds: [ann, bob] }],
      ['group-updated', expect.objectContaining({ name: 'operations' })],
      ['group-user-removed', { groupId: group.id, userIds: [ann] }],
      ['group-user-added', { groupId: group.id, userIds: [cy] }],
    ]);
    // The same values again change nothing and write nothing.
    await flagstaff.users.groups.update(alice, group.id, { name: 'operations', users: members([cy, bob]) });
    expect(await groupEvents()).toHaveLength(5);
  });

  it('a refused update leaves the group as it was, whatever it was asked to change first', async () => {
    const [ann] = ids as [number];
    const group = await flagstaff.users.groups.create(alice, { name: 'ops', users: members([ann]) });
    await expect(
      flagstaff.users.groups.update(alice, group.id, { name: 'renamed', users: members([ann, 9999]) }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('users[1]') });
    expect(await flagstaff.users.groups.get(alice, group.id)).toMatchObject({ name: 'ops', userCount: 1 });
  });

  it('removing a user or the group takes the project roles the group gave', async () => {
    const [ann, bob] = ids as [number, number];
    await flagstaff.projects.create(alice, { id: 'vault', name: 'Vault', mode: 'private' });
    const group = await flagstaff.users.groups.create(alice, { name: 'crew', users: members([ann, bob]) });
    await flagstaff.users.addRoleAccess(alice, 'vault', 5, { groups: [group.id] });
    const sees = async (id: number) =>
      (await flagstaff.projects.list(userCaller(id, 'Viewer'))).some((p) => p.id === 'vault');
    expect([await sees(ann), await sees(bob)]).toEqual([true, true]);
    expect((await flagstaff.users.groups.get(alice, group.id)).projects).toEqual(['vault']);

    await flagstaff.users.groups.removeUser(alice, group.id, ann);
    expect([await sees(ann), await sees(bob)]).toEqual([false, true]);
    await expect(flagstaff.users.groups.removeUser(alice, group.id, ann)).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });

    await flagstaff.users.groups.remove(alice, group.id);
    expect(await sees(bob)).toBe(false);
    expect((await flagstaff.users.listProjectAccess(alice, 'vault')).groups).toEqual([]);
    const deleted = (await flagstaff.store.events.search({ ascending: true })).find(
      (e) => e.type === 'group-deleted',
    );
    expect(deleted?.preData).toMatchObject({ name: 'crew', userIds: [bob] });
  });

  it('only Admins change groups', async () => {
    const editor = userCaller(ids[0] as number, 'Editor');
    const group = await flagstaff.users.groups.create(alice, { name: 'ops' });
    await expect(flagstaff.users.groups.create(editor, { name: 'x' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await expect(flagstaff.users.groups.update(editor, group.id, { name: 'x' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    await expect(flagstaff.users.groups.remove(editor, group.id)).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    expect((await flagstaff.users.groups.list(editor)).map((g) => g.name)).toEqual(['ops']);
  });

  it('searches groups by name or description, any case, by name, with their user counts', async () => {
    const [ann, bob] = ids as [number, number];
    await flagstaff.users.groups.create(alice, {
      name: 'ops',
      description: 'On call',
      users: members([ann, bob]),
    });
    await flagstaff.users.groups.create(alice, { name: 'Backend', description: 'Services' });
    await flagstaff.users.groups.create(alice, { name: 'design' });
    const search = (q?: string) =>
      flagstaff.run.unknown(searchGroups, userCaller(ann, 'Viewer'), q === undefined ? {} : { q });
    expect((await search()).map((g) => g.name)).toEqual(['Backend', 'design', 'ops']);
    expect(await search('CALL')).toEqual([{ id: expect.any(Number), name: 'ops', userCount: 2 }]);
    expect((await search('  back ')).map((g) => g.name)).toEqual(['Backend']);
    expect(await search('nothing like it')).toEqual([]);
    await expect(search('x'.repeat(101))).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('"q"'),
    });
  });
});
