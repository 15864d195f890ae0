import { beforeEach, describe, expect, it } from 'vitest';
import { callerOf } from '../../auth/caller.js';
import type { Principal } from '../../auth/principal.js';
import { ROLES } from '../../domain/user.js';
import type { Flagstaff } from '../../flagstaff.js';
import { alice, createTestFlagstaff } from '../test-support.js';

let flagstaff: Flagstaff;
let editor: Principal;
let member: Principal;
let groupMember: Principal;
let admin: Principal;

const principalOf = async (email: string, rootRole: 'Admin' | 'Editor' | 'Viewer') => {
  const user = await flagstaff.users.create(alice, { email, rootRole });
  return { id: user.id, principal: (await flagstaff.access.userPrincipal(user.id))! };
};

beforeEach(async () => {
  ({ flagstaff } = await createTestFlagstaff());
  await flagstaff.projects.create(alice, { id: 'secret', name: 'Secret', mode: 'private' });
  await flagstaff.projects.create(alice, { id: 'guarded', name: 'Guarded', mode: 'protected' });
  await flagstaff.features.create(alice, 'secret', { name: 'hidden-f' });
  editor = (await principalOf('editor@example.com', 'Editor')).principal;
  admin = (await principalOf('admin@example.com', 'Admin')).principal;
  const m = await principalOf('member@example.com', 'Viewer');
  member = m.principal;
  await flagstaff.users.setUserProjectRoles(alice, 'secret', m.id, [ROLES.Member.id]);
  const g = await principalOf('group@example.com', 'Viewer');
  groupMember = g.principal;
  const group = await flagstaff.users.groups.create(alice, {
    name: 'insiders',
    users: [{ user: { id: g.id } }],
  });
  await flagstaff.users.addAccess(alice, 'secret', { roles: [ROLES.Owner.id], groups: [group.id] });
});

describe('visibleProjects', () => {
  it('hides private projects from non-members; members (direct or by group), Admins and admin tokens see all', async () => {
    const visible = async (p: Principal) => {
      const v = await flagstaff.access.visibleProjects(p);
      return v.all ? 'all' : [...v.projects].sort();
    };
    expect(await visible(editor)).toEqual(['default', 'guarded']);
    expect(await visible(member)).toEqual(['default', 'guarded', 'secret']);
    expect(await visible(groupMember)).toEqual(['default', 'guarded', 'secret']);
    expect(await visible(admin)).toBe('all');
    const token = await flagstaff.apiTokens.create(alice, { tokenName: 'ops', type: 'admin' });
    expect(await visible((await flagstaff.access.authenticateToken(token.secret))!)).toBe('all');
  });

  it('removing the last role hides the project again', async () => {
    const id = member.kind === 'user' ? member.userId : -1;
    await flagstaff.users.setUserProjectRoles(alice, 'secret', id, []);
    expect(await flagstaff.access.visibleProjects(member)).toEqual({
      all: false,
      projects: new Set(['default', 'guarded']),
    });
  });
});

describe('the policy in a private project', () => {
  it('is NOT_FOUND for a non-member, whatever the permission, naming the project or the feature', async () => {
    for (const permission of ['NONE', 'CREATE_FEATURE', 'UPDATE_PROJECT'] as const)
      await expect(
        flagstaff.policy.require(callerOf(editor), permission, { project: 'secret' }),
      ).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'Could not find project "secret".' });
    await expect(
      flagstaff.policy.require(callerOf(editor), 'UPDATE_FEATURE', { feature: 'hidden-f' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'Could not find feature "hidden-f".' });
  });

  it('lets members act as their role allows and refuses the rest with FORBIDDEN', async () => {
    await flagstaff.policy.require(callerOf(member), 'NONE', { project: 'secret' });
    await flagstaff.policy.require(callerOf(member), 'CREATE_FEATURE', { project: 'secret' });
    await expect(
      flagstaff.policy.require(callerOf(member), 'UPDATE_PROJECT', { project: 'secret' }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    await flagstaff.policy.require(callerOf(groupMember), 'UPDATE_PROJECT', { project: 'secret' });
    await flagstaff.policy.require(callerOf(admin), 'DELETE_PROJECT', { project: 'secret' });
  });

  it('leaves protected projects visible: an Editor without a role is FORBIDDEN there, not hidden', async () => {
    await flagstaff.policy.require(callerOf(editor), 'NONE', { project: 'guarded' });
    await expect(
      flagstaff.policy.require(callerOf(editor), 'CREATE_FEATURE', { project: 'guarded' }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('"CREATE_FEATURE"') });
  });
});

describe('user activity stamps', () => {
  it('a signed-in request writes seenAt at most once a minute (it wrote on every request)', async () => {
    const { flagstaff: f, clock } = await createTestFlagstaff();
    const user = await f.users.create(alice, { email: 'busy@example.com', rootRole: 'Editor' });
    const seenAt = async () => {
      await new Promise((r) => setImmediate(r));
      return (await f.store.users.get(user.id))?.seenAt;
    };
    await f.access.userPrincipal(user.id);
    const first = await seenAt();
    expect(first).toBe(clock.now().toISOString());
    clock.advance(30_000);
    await f.access.userPrincipal(user.id);
    expect(await seenAt()).toBe(first);
    clock.advance(31_000);
    await f.access.userPrincipal(user.id);
    expect(await seenAt()).toBe(clock.now().toISOString());
  });
});
