import { beforeEach, describe, expect, it } from 'vitest';
import { callerOf } from '../../auth/caller.js';
import type { Principal } from '../../auth/principal.js';
import { createFlagstaff, type Flagstaff } from '../../flagstaff.js';
import { createMemoryStore } from '../../memory/index.js';
import { withWriteTransactions } from '../../testing/write-transactions.js';
import { alice, createTestFlagstaff } from '../test-support.js';
import { changeOwnPassword, setUserPassword } from './account-operations.js';

const PASSWORD = 'Very-Secret-42';
const NEW_PASSWORD = 'Even-More-Secret-43';
let flagstaff: Flagstaff;

async function addUser(
  username: string,
  rootRole: 'Admin' | 'Editor' | 'Viewer' = 'Viewer',
): Promise<number> {
  const user = await flagstaff.users.create(alice, { username, rootRole });
  await flagstaff.accounts.resetPassword(alice, user.id, { password: PASSWORD });
  return user.id;
}
const asUser = (
  userId: number,
  rootRole: 'Admin' | 'Editor' | 'Viewer',
  name = `user-${userId}`,
): Principal => ({
  kind: 'user',
  userId,
  name,
  rootRole,
});

beforeEach(async () => {
  ({ flagstaff } = await createTestFlagstaff());
});

describe('changing your own password', () => {
  it('needs the current password, ends every other session, and writes user-updated without a hash', async () => {
    const id = await addUser('ann');
    const current = await flagstaff.sessions.login({ username: 'ann', password: PASSWORD });
    const other = await flagstaff.sessions.login({ username: 'ann', password: PASSWORD });
    const principal = (await flagstaff.sessions.authenticate(current.sessionId))!;
    await flagstaff.accounts.changePassword(
      callerOf(principal),
      { oldPassword: PASSWORD, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
      current.sessionId,
    );
    expect(await flagstaff.sessions.authenticate(current.sessionId)).not.toBeNull();
    expect(await flagstaff.sessions.authenticate(other.sessionId)).toBeNull();
    await expect(flagstaff.sessions.login({ username: 'ann', password: PASSWORD })).rejects.toMatchObject({
      code: 'UNAUTHENTICATED',
    });
    await flagstaff.sessions.login({ username: 'ann', password: NEW_PASSWORD });
    const [event] = await flagstaff.store.events.search({ type: 'user-updated' });
    expect(event).toMatchObject({
      createdByUserId: id,
      data: { id, passwordChanged: true },
      preData: { id },
    });
    expect(JSON.stringify(event)).not.toMatch(/scrypt|Secret/);
  });

  it('refuses a wrong current password, a weak or mismatched new one, and non-users; nothing changes', async () => {
    const id = await addUser('ann');
    const before = (await flagstaff.store.users.get(id))!.passwordHash;
    const principal = asUser(id, 'Viewer');
    const attempts: [unknown, string][] = [
      [
        { oldPassword: 'Wrong-Secret-42', password: NEW_PASSWORD },
        '"oldPassword" is not your current password.',
      ],
      [{ oldPassword: PASSWORD, password: 'short' }, '"password" must be at least 10 characters long.'],
      [{ oldPassword: PASSWORD, password: NEW_PASSWORD, confirmPassword: 'x' }, '"confirmPassword"'],
      [{ password: NEW_PASSWORD }, '"oldPassword"'],
    ];
    for (const [input, message] of attempts)
      await expect(
        flagstaff.run.unknown(changeOwnPassword, callerOf(principal), input),
      ).rejects.toMatchObject({
        code: 'VALIDATION',
        message: expect.stringContaining(message),
      });
    await expect(
      flagstaff.accounts.changePassword(callerOf({ kind: 'anonymous-admin', name: 'admin' }), {
        oldPassword: 'a',
        password: NEW_PASSWORD,
      }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect((await flagstaff.store.users.get(id))!.passwordHash).toBe(before);
    // Only the reset that gave Ann her password.
    expect(await flagstaff.store.events.search({ type: 'user-updated' })).toHaveLength(1);
  });
});

describe('passwords in maintenance mode', () => {
  it('cannot be changed, like every other change through the admin API; signing in still works', async () => {
    const id = await addUser('ann');
    await flagstaff.maintenance.set(alice, { enabled: true });
    const { sessionId } = await flagstaff.sessions.login({ username: 'ann', password: PASSWORD });
    const ann = callerOf((await flagstaff.sessions.authenticate(sessionId))!);
    await expect(
      flagstaff.accounts.changePassword(ann, { oldPassword: PASSWORD, password: NEW_PASSWORD }),
    ).rejects.toMatchObject({ code: 'MAINTENANCE' });
    await expect(
      flagstaff.accounts.resetPassword(alice, id, { password: NEW_PASSWORD }),
    ).rejects.toMatchObject({ code: 'MAINTENANCE' });
  });
});

describe("an Admin resetting a user's password", () => {
  it('ends every session of the user', async () => {
    const id = await addUser('ann');
    const session = await flagstaff.sessions.login({ username: 'ann', password: PASSWORD });
    await flagstaff.accounts.resetPassword(alice, id, { password: NEW_PASSWORD });
    expect(await flagstaff.sessions.authenticate(session.sessionId)).toBeNull();
    await flagstaff.sessions.login({ username: 'ann', password: NEW_PASSWORD });
  });

  it('refuses unknown users and weak passwords', async () => {
    await expect(
      flagstaff.accounts.resetPassword(alice, 999, { password: NEW_PASSWORD }),
    ).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    const id = await addUser('ann');
    await expect(
      flagstaff.accounts.resetPassword(alice, id, { password: 'aaaaaaaaaaaa' }),
    ).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('"password"'),
    });
    await expect(flagstaff.run.unknown(setUserPassword, alice, { id })).rejects.toMatchObject({
      code: 'VALIDATION',
    });
  });
});

describe('admin bootstrap', () => {
  it('creates the Admin once, while no user has a password', async () => {
    expect(await flagstaff.accounts.ensureAdminUser({ password: PASSWORD })).toBe(true);
    expect(await flagstaff.accounts.ensureAdminUser({ password: 'Another-Secret-1' })).toBe(false);
    const { user } = await flagstaff.sessions.login({ username: 'admin', password: PASSWORD });
    expect(user).toMatchObject({ username: 'admin', rootRole: 1 });
    const [created] = await flagstaff.store.events.search({ type: 'user-created' });
    expect(created).toMatchObject({ createdBy: 'system', data: { username: 'admin' } });
    expect(JSON.stringify(created)).not.toContain('scrypt');
  });

  it('does nothing once someone has a password; refuses weak passwords and a taken name', async () => {
    await expect(flagstaff.accounts.ensureAdminUser({ password: 'admin' })).rejects.toMatchObject({
      code: 'VALIDATION',
    });
    await flagstaff.users.create(alice, { username: 'root' });
    await expect(
      flagstaff.accounts.ensureAdminUser({ username: 'root', password: PASSWORD }),
    ).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    await addUser('ann');
    expect(await flagstaff.accounts.ensureAdminUser({ password: PASSWORD })).toBe(false);
    expect(await flagstaff.store.users.getByUsername('admin')).toBeNull();
  });

  it('creates one Admin when two processes start at once', async () => {
    const store = createMemoryStore();
    const [one, two] = [await createFlagstaff({ store }), await createFlagstaff({ store })];
    const created = await Promise.all([
      one.accounts.ensureAdminUser({ password: PASSWORD }),
      two.accounts.ensureAdminUser({ password: PASSWORD }),
    ]);
    expect(created.filter(Boolean)).toHaveLength(1);
    expect(await store.users.countWithPassword()).toBe(1);
  });
});

describe('the current user', () => {
  it('shows an Admin with ADMIN, and admin tokens and open mode as Admin-like', async () => {
    const id = await addUser('root', 'Admin');
    const me = await flagstaff.accounts.currentUser(callerOf(asUser(id, 'Admin')));
    expect(me).toMatchObject({
      user: { id, username: 'root', rootRole: 1 },
      permissions: [{ permission: 'ADMIN' }],
    });
    expect(me.user).not.toHaveProperty('passwordHash');
    expect(
      await flagstaff.accounts.currentUser(callerOf({ kind: 'anonymous-admin', name: 'unknown' })),
    ).toMatchObject({
      user: { username: 'unknown', rootRole: 1, isAPI: false },
      permissions: [{ permission: 'ADMIN' }],
    });
    const token: Principal = {
      kind: 'api-token',
      tokenType: 'admin',
      name: 'ci',
      secretHash: 'h',
      projects: ['*'],
      environment: '*',
    };
    expect(await flagstaff.accounts.currentUser(callerOf(token))).toMatchObject({
      user: { username: 'ci', isAPI: true, rootRole: 1 },
      permissions: [{ permission: 'ADMIN' }],
    });
  });

  it("lists an Editor's root permissions and project permissions in open projects, per environment", async () => {
    // Made before Ed exists: its creator (alice, user id 1) becomes its Owner, and Ed would get id 1.
    await flagstaff.projects.create(alice, { id: 'secret', name: 'Secret', mode: 'private' });
    const id = await addUser('ed', 'Editor');
    const { permissions } = await flagstaff.accounts.currentUser(callerOf(asUser(id, 'Editor')));
    expect(permissions).toContainEqual({ permission: 'CREATE_SEGMENT' });
    expect(permissions).not.toContainEqual({ permission: 'ADMIN' });
    expect(permissions).not.toContainEqual({ permission: 'CREATE_ADDON' });
    expect(permissions).toContainEqual({ permission: 'CREATE_FEATURE', project: 'default' });
    expect(permissions).toContainEqual({
      permission: 'UPDATE_FEATURE_ENVIRONMENT',
      project: 'default',
      environment: 'production',
    });
    expect(permissions.some((p) => p.project === 'secret')).toBe(false);
  });

  it("lists a Viewer's project role permissions only, and NOT_FOUND for a deleted user", async () => {
    const id = await addUser('vic');
    expect((await flagstaff.accounts.currentUser(callerOf(asUser(id, 'Viewer')))).permissions).toEqual([]);
    await flagstaff.users.setUserProjectRoles(alice, 'default', id, [5]);
    const { permissions } = await flagstaff.accounts.currentUser(callerOf(asUser(id, 'Viewer')));
    expect(permissions).toContainEqual({ permission: 'CREATE_FEATURE', project: 'default' });
    expect(permissions).toContainEqual({
      permission: 'CREATE_FEATURE_STRATEGY',
      project: 'default',
      environment: 'development',
    });
    expect(permissions).not.toContainEqual({ permission: 'UPDATE_PROJECT', project: 'default' });
    await withWriteTransactions(flagstaff.store).users.delete(id);
    await expect(flagstaff.accounts.currentUser(callerOf(asUser(id, 'Viewer')))).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });
});
