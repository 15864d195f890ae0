import { describe, expect, test } from 'vitest';
import { BUILT_IN_ROLES, ROLES } from '../domain/user.js';
import { at, expectFailure, project, type StoreFactory, sortedBy, user, useStore } from './fixtures.js';

/** Roles, users, groups and project role assignments. */
export function describeAccessContract(open: StoreFactory): void {
  describe('roles', () => {
    const store = useStore(open);

    test('a new store holds exactly the built-in roles, by id', async () => {
      expect(await store().roles.list()).toEqual([...BUILT_IN_ROLES].sort((a, b) => a.id - b.id));
      expect(await store().roles.get(ROLES.Admin.id)).toEqual(ROLES.Admin);
      expect(await store().roles.get(ROLES.Member.id)).toEqual(ROLES.Member);
      expect(await store().roles.get(999)).toBeNull();
    });
  });

  describe('users', () => {
    const store = useStore(open);

    test('insert assigns increasing ids and keeps every field', async () => {
      const bare = user({ username: 'bot', accountType: 'Service Account' });
      const full = user({
        name: 'Ann Example',
        email: 'ann@example.com',
        username: 'ann',
        imageUrl: 'https://gravatar.example/ann.png',
        rootRole: 1,
        loginAttempts: 2,
        emailSent: true,
        seenAt: at(4),
        createdAt: at(2),
        scimId: 'scim-1',
        passwordHash: '$2b$10$abcdefghijklmnopqrstuv',
      });
      const first = await store().users.insert(bare);
      const second = await store().users.insert(full);
      expect(first).toEqual({ ...bare, id: first.id });
      expect(second).toEqual({ ...full, id: second.id });
      expect(second.id).toBeGreaterThan(first.id);
      expect(await store().users.get(second.id)).toEqual(second);
      expect(await store().users.get(second.id + 1000)).toBeNull();
      expect(await store().users.list()).toEqual([first, second]);
      await store().transaction((tx) => tx.users.markSeen(first.id, '2026-01-02T03:04:05.000Z'));
      expect(await store().users.get(first.id)).toEqual({ ...first, seenAt: '2026-01-02T03:04:05.000Z' });
      expect(await store().users.get(second.id)).toEqual(second);
    });

    test('getByEmail ignores case', async () => {
      const ann = await store().users.insert(user({ email: 'Ann@Example.com' }));
      expect(await store().users.getByEmail('ann@example.COM')).toEqual(ann);
      expect(await store().users.getByEmail('bob@example.com')).toBeNull();
    });

    test('refuses a taken e-mail (in any case) or username; many users may have neither', async () => {
      await store().users.insert(user({ email: 'ann@example.com', username: 'ann' }));
      await expectFailure(
        store().users.insert(user({ email: 'ANN@example.com' })),
        'CONFLICT',
        'ANN@example.com',
      );
      await expectFailure(
        store().users.insert(user({ username: 'ann', email: 'other@example.com' })),
        'CONFLICT',
        'ann',
      );
      await store().users.insert(user({ username: 'bot-1' }));
      await store().users.insert(user({ username: 'bot-2' }));
      await store().users.insert(user({ email: 'x@example.com' }));
      await store().users.insert(user({ email: 'y@example.com' }));
      expect(await store().users.list()).toHaveLength(5);
    });

    test('update replaces; delete removes; unknown ids are false', async () => {
      const ann = await store().users.insert(user({ email: 'ann@example.com' }));
      const changed = { ...ann, name: 'Ann', loginAttempts: 3, seenAt: at(10), passwordHash: 'hash' };
      expect(await store().users.update(changed)).toBe(true);
      expect(await store().users.get(ann.id)).toEqual(changed);
      expect(await store().users.update({ ...changed, id: ann.id + 1000 })).toBe(false);
      expect(await store().users.delete(ann.id)).toBe(true);
      expect(await store().users.get(ann.id)).toBeNull();
      expect(await store().users.getByEmail('ann@example.com')).toBeNull();
      expect(await store().users.delete(ann.id)).toBe(false);
    });
  });

  describe('groups', () => {
    const store = useStore(open);

    test('insert assigns increasing ids and keeps every field; names are unique', async () => {
      const first = await store().groups.insert({
        name: 'ops',
        description: null,
        rootRole: null,
        createdAt: at(0),
        createdBy: null,
      });
      const input = {
        name: 'devs',
        description: 'Developers',
        rootRole: 2,
        createdAt: at(1),
        createdBy: 'admin',
      };
      const second = await store().groups.insert(input);
      expect(second).toEqual({ ...input, id: second.id });
      expect(second.id).toBeGreaterThan(first.id);
      expect(await store().groups.get(second.id)).toEqual(second);
      expect(await store().groups.get(second.id + 1000)).toBeNull();
      expect(await store().groups.list()).toEqual([first, second]);
      await expectFailure(store().groups.insert({ ...input, description: 'copy' }), 'CONFLICT', 'devs');
    });

    test('addUsers adds only new members and returns them; listings are ascending', async () => {
      const ids: number[] = [];
      for (const name of ['a', 'b', 'c']) ids.push((await store().users.insert(user({ username: name }))).id);
      const [a, b, c] = ids as [number, number, number];
      const ops = await store().groups.insert({
        name: 'ops',
        description: null,
        rootRole: null,
        createdAt: at(0),
        createdBy: null,
      });
      const devs = await store().groups.insert({
        name: 'devs',
        description: null,
        rootRole: null,
        createdAt: at(0),
        createdBy: null,
      });

      expect(await store().groups.addUsers(ops.id, [c, a], at(1))).toEqual([c, a]);
      expect(await store().groups.addUsers(ops.id, [a, b], at(2))).toEqual([b]);
      expect(await store().groups.addUsers(ops.id, [], at(3))).toEqual([]);
      expect(await store().groups.addUsers(devs.id, [c], at(3))).toEqual([c]);

      expect(await store().groups.listUsers(ops.id)).toEqual([a, b, c]);
      expect(await store().groups.listUsers(devs.id)).toEqual([c]);
      expect(await store().groups.groupsOf(c)).toEqual([ops.id, devs.id]);
      expect(await store().groups.groupsOf(a)).toEqual([ops.id]);
      expect(await store().groups.groupsOf(c + 1000)).toEqual([]);
    });

    test('update replaces name, description and root role; names stay unique', async () => {
      const g = (name: string) =>
        store().groups.insert({ name, description: null, rootRole: null, createdAt: at(0), createdBy: 'x' });
      const ops = await g('ops');
      const devs = await g('devs');
      const changed = { ...ops, name: 'operations', description: 'On call', rootRole: ROLES.Viewer.id };
      expect(await store().groups.update(changed)).toBe(true);
      expect(await store().groups.get(ops.id)).toEqual(changed);
      await expectFailure(store().groups.update({ ...devs, name: 'operations' }), 'CONFLICT', 'operations');
      expect(await store().groups.get(devs.id)).toEqual(devs);
      expect(await store().groups.update({ ...devs, id: devs.id + 1000 })).toBe(false);
    });

    test("removeUsers and delete take memberships and the group's project roles with them", async () => {
      await store().projects.insert(project('alpha'));
      const ids: number[] = [];
      for (const name of ['a', 'b', 'c']) ids.push((await store().users.insert(user({ username: name }))).id);
      const [a, b, c] = ids as [number, number, number];
      const group = (name: string) =>
        store().groups.insert({ name, description: null, rootRole: null, createdAt: at(0), createdBy: null });
      const ops = await group('ops');
      const devs = await group('devs');
      await store().groups.addUsers(ops.id, [a, b, c], at(1));
      await store().groups.addUsers(devs.id, [a], at(1));

      expect(await store().groups.removeUsers(ops.id, [c, a, a + 1000])).toEqual([c, a]);
      expect(await store().groups.removeUsers(ops.id, [a])).toEqual([]);
      expect(await store().groups.listUsers(ops.id)).toEqual([b]);
      expect(await store().groups.groupsOf(a)).toEqual([devs.id]);

      await store().projectAccess.setRoles('alpha', { groupId: ops.id }, [ROLES.Member.id], at(2));
      await store().projectAccess.setRoles('alpha', { groupId: devs.id }, [ROLES.Owner.id], at(2));
      await store().projectAccess.setRoles('alpha', { userId: b }, [ROLES.Member.id], at(2));
      expect(await store().groups.delete(ops.id)).toBe(true);
      expect(await store().groups.get(ops.id)).toBeNull();
      expect(await store().groups.list()).toEqual([devs]);
      expect(await store().groups.listUsers(ops.id)).toEqual([]);
      expect(await store().groups.groupsOf(b)).toEqual([]);
      expect((await store().projectAccess.list('alpha')).map((x) => [x.userId, x.groupId, x.roleId])).toEqual(
        [
          // Same createdAt: the group's row (user id null, ordered as 0) comes first.
          [null, devs.id, ROLES.Owner.id],
          [b, null, ROLES.Member.id],
        ],
      );
      expect(await store().groups.delete(ops.id)).toBe(false);
    });
  });

  describe('project access', () => {
    const store = useStore(open);

    test('setRoles replaces what one subject has in one project; list orders by createdAt', async () => {
      await store().projects.insert(project('alpha'));
      await store().projects.insert(project('beta'));
      const ann = (await store().users.insert(user({ username: 'ann' }))).id;
      const bob = (await store().users.insert(user({ username: 'bob' }))).id;
      const ops = (
        await store().groups.insert({
          name: 'ops',
          description: null,
          rootRole: null,
          createdAt: at(0),
          createdBy: null,
        })
      ).id;

      await store().projectAccess.setRoles('alpha', { userId: ann }, [ROLES.Owner.id], at(3));
      await store().projectAccess.setRoles('alpha', { groupId: ops }, [ROLES.Member.id], at(1));
      await store().projectAccess.setRoles('alpha', { userId: bob }, [ROLES.Member.id], at(2));
      await store().projectAccess.setRoles('beta', { userId: ann }, [ROLES.Member.id], at(4));

      expect(await store().projectAccess.list('alpha')).toEqual([
        { projectId: 'alpha', roleId: ROLES.Member.id, userId: null, groupId: ops, createdAt: at(1) },
        { projectId: 'alpha', roleId: ROLES.Member.id, userId: bob, groupId: null, createdAt: at(2) },
        { projectId: 'alpha', roleId: ROLES.Owner.id, userId: ann, groupId: null, createdAt: at(3) },
      ]);
      expect((await store().projectAccess.list()).map((a) => `${a.projectId}:${a.createdAt}`)).toEqual([
        `alpha:${at(1)}`,
        `alpha:${at(2)}`,
        `alpha:${at(3)}`,
        `beta:${at(4)}`,
      ]);

      // Replacing ann's roles in alpha touches nothing else, and the new rows carry the new time.
      await store().projectAccess.setRoles(
        'alpha',
        { userId: ann },
        [ROLES.Member.id, ROLES.Owner.id],
        at(5),
      );
      const anns = (await store().projectAccess.list('alpha')).filter((a) => a.userId === ann);
      expect(sortedBy(anns, (a) => a.roleId)).toEqual([
        { projectId: 'alpha', roleId: ROLES.Owner.id, userId: ann, groupId: null, createdAt: at(5) },
        { projectId: 'alpha', roleId: ROLES.Member.id, userId: ann, groupId: null, createdAt: at(5) },
      ]);
      expect(await store().projectAccess.list('alpha')).toHaveLength(4);
      expect(await store().projectAccess.list('beta')).toHaveLength(1);

      await store().projectAccess.setRoles('alpha', { userId: ann }, [], at(6));
      await store().projectAccess.setRoles('alpha', { groupId: ops }, [], at(6));
      expect(await store().projectAccess.list('alpha')).toEqual([
        { projectId: 'alpha', roleId: ROLES.Member.id, userId: bob, groupId: null, createdAt: at(2) },
      ]);
    });

    test('forUser finds direct and group assignments across projects, nothing else', async () => {
      await store().projects.insert(project('alpha'));
      await store().projects.insert(project('beta'));
      const ann = (await store().users.insert(user({ username: 'ann' }))).id;
      const bob = (await store().users.insert(user({ username: 'bob' }))).id;
      const ops = (
        await store().groups.insert({
          name: 'ops',
          description: null,
          rootRole: null,
          createdAt: at(0),
          createdBy: null,
        })
      ).id;
      const devs = (
        await store().groups.insert({
          name: 'devs',
          description: null,
          rootRole: null,
          createdAt: at(0),
          createdBy: null,
        })
      ).id;
      await store().projectAccess.setRoles('alpha', { userId: ann }, [ROLES.Owner.id], at(1));
      await store().projectAccess.setRoles('beta', { groupId: ops }, [ROLES.Member.id], at(2));
      await store().projectAccess.setRoles('beta', { groupId: devs }, [ROLES.Owner.id], at(3));
      await store().projectAccess.setRoles('beta', { userId: bob }, [ROLES.Owner.id], at(4));

      const found = await store().projectAccess.forUser(ann, [ops]);
      expect(sortedBy(found, (a) => a.createdAt)).toEqual([
        { projectId: 'alpha', roleId: ROLES.Owner.id, userId: ann, groupId: null, createdAt: at(1) },
        { projectId: 'beta', roleId: ROLES.Member.id, userId: null, groupId: ops, createdAt: at(2) },
      ]);
      expect(await store().projectAccess.forUser(ann, [])).toHaveLength(1);
      expect(await store().projectAccess.forUser(ann + 1000, [])).toEqual([]);
    });
  });
}
