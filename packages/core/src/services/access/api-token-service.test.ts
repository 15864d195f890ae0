import { beforeEach, describe, expect, it } from 'vitest';
import { callerOf, SYSTEM } from '../../auth/caller.js';
import type { Principal } from '../../auth/principal.js';
import type { Flagstaff } from '../../flagstaff.js';
import { alice, createTestFlagstaff } from '../test-support.js';
import { hashSecret } from './access-service.js';

let flagstaff: Flagstaff;
beforeEach(async () => {
  ({ flagstaff } = await createTestFlagstaff());
});

const tokenEvents = async () =>
  (await flagstaff.store.events.search({ ascending: true })).filter((e) => e.type.startsWith('api-token-'));

describe('creating API tokens', () => {
  it('issues a client token with the reference secret format, defaults, and a hash-only record', async () => {
    const token = await flagstaff.apiTokens.create(alice, { tokenName: 'backend', type: 'CLIENT' });
    expect(token.secret).toMatch(/^\*:development\.[0-9a-f]{64}$/);
    expect(token).toMatchObject({
      tokenName: 'backend',
      username: 'backend',
      type: 'client',
      environment: 'development',
      project: '*',
      projects: ['*'],
      expiresAt: null,
      seenAt: null,
      alias: null,
    });
    const stored = await flagstaff.store.apiTokens.getByHash(hashSecret(token.secret));
    expect(stored?.displaySecret).toBe(`*:development.${token.secret.slice(14, 20)}…`);
    expect(JSON.stringify(stored)).not.toContain(token.secret.slice(14));
  });

  it('uses "<project>:<env>." for one project, "[]:<env>." for several, and "*:*." for admin tokens', async () => {
    await flagstaff.projects.create(alice, { id: 'shop', name: 'Shop' });
    const one = await flagstaff.apiTokens.create(alice, {
      username: 'fe',
      type: 'frontend',
      project: 'shop',
      environment: 'production',
    });
    expect(one.secret).toMatch(/^shop:production\.[0-9a-f]{64}$/);
    expect(one).toMatchObject({ project: 'shop', projects: ['shop'] });
    const many = await flagstaff.apiTokens.create(alice, {
      tokenName: 'multi',
      type: 'client',
      projects: ['shop', 'default'],
    });
    expect(many.secret).toMatch(/^\[\]:development\.[0-9a-f]{64}$/);
    expect(many).toMatchObject({ project: '[]', projects: ['shop', 'default'] });
    const admin = await flagstaff.apiTokens.create(alice, { tokenName: 'ops', type: 'admin' });
    expect(admin.secret).toMatch(/^\*:\*\.[0-9a-f]{64}$/);
    expect(admin).toMatchObject({ environment: '*', project: '*', projects: ['*'] });
  });

  it('refuses unknown projects and environments, scoped admin tokens, and bad input, naming the property', async () => {
    await expect(
      flagstaff.apiTokens.create(alice, { tokenName: 't', type: 'client', projects: ['default', 'nope'] }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('"nope"') });
    await expect(
      flagstaff.apiTokens.create(alice, { tokenName: 't', type: 'client', environment: 'staging' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('"staging"') });
    await expect(
      flagstaff.apiTokens.create(alice, { tokenName: 't', type: 'admin', project: 'default' }),
    ).rejects.toMatchObject({ code: 'VALIDATION', message: expect.stringContaining('"project"') });
    await expect(
      flagstaff.apiTokens.create(alice, { tokenName: 't', type: 'client', environment: '*' }),
    ).rejects.toMatchObject({ code: 'VALIDATION', message: expect.stringContaining('"environment"') });
    await expect(flagstaff.apiTokens.create(alice, { type: 'client' })).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('"tokenName"'),
    });
    await expect(flagstaff.apiTokens.create(alice, { tokenName: 't', type: 'root' })).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('"type"'),
    });
    expect(await flagstaff.apiTokens.list(SYSTEM)).toEqual([]);
  });

  it('writes api-token-created with the token but without its secret', async () => {
    const token = await flagstaff.apiTokens.create(alice, { tokenName: 'backend', type: 'client' });
    const [event] = await tokenEvents();
    expect(event).toMatchObject({
      type: 'api-token-created',
      createdBy: alice.actor.name,
      createdByUserId: alice.actor.userId,
      environment: 'development',
      project: null,
      data: { tokenName: 'backend', type: 'client', projects: ['*'] },
    });
    expect(event?.data).not.toHaveProperty('secret');
    expect(JSON.stringify(event)).not.toContain(token.secret.slice(14, 30));
  });
});

describe('reading, updating and deleting API tokens', () => {
  it('lists and finds by name with display secrets only', async () => {
    const a = await flagstaff.apiTokens.create(alice, { tokenName: 'same', type: 'client' });
    await flagstaff.apiTokens.create(alice, { tokenName: 'same', type: 'frontend' });
    await flagstaff.apiTokens.create(alice, { tokenName: 'other', type: 'client' });
    const listed = await flagstaff.apiTokens.list(SYSTEM);
    expect(listed).toHaveLength(3);
    expect(listed.every((t) => t.secret.endsWith('…'))).toBe(true);
    const byName = await flagstaff.apiTokens.listByName(SYSTEM, 'same');
    expect(byName.map((t) => t.type).sort()).toEqual(['client', 'frontend']);
    expect(byName.map((t) => t.secret)).toContain(`${a.secret.slice(0, 20)}…`);
    expect(await flagstaff.apiTokens.listByName(SYSTEM, 'none')).toEqual([]);
  });

  it('changes the expiry by whole or display secret (api-token-updated)', async () => {
    const token = await flagstaff.apiTokens.create(alice, { tokenName: 'x', type: 'client' });
    const updated = await flagstaff.apiTokens.updateExpiry(alice, token.secret, {
      expiresAt: '2030-01-01T00:00:00Z',
    });
    expect(updated.expiresAt).toBe('2030-01-01T00:00:00Z');
    const display = (await flagstaff.apiTokens.list(SYSTEM))[0]!.secret;
    await flagstaff.apiTokens.updateExpiry(alice, display, {
      expiresAt: '2031-01-01T00:00:00Z',
    });
    expect((await flagstaff.apiTokens.list(SYSTEM))[0]?.expiresAt).toBe('2031-01-01T00:00:00Z');
    const events = await tokenEvents();
    expect(events.map((e) => e.type)).toEqual([
      'api-token-created',
      'api-token-updated',
      'api-token-updated',
    ]);
    expect(events[1]).toMatchObject({
      data: { expiresAt: '2030-01-01T00:00:00Z' },
      preData: { expiresAt: null },
    });
    expect(events[1]?.data).not.toHaveProperty('secret');
    await expect(
      flagstaff.apiTokens.updateExpiry(alice, token.secret, { expiresAt: 'soon' }),
    ).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('"expiresAt"'),
    });
    await expect(
      flagstaff.apiTokens.updateExpiry(alice, '*:development.unknown', {
        expiresAt: '2030-01-01T00:00:00Z',
      }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', message: expect.not.stringContaining('unknown') });
  });

  it('deletes a token (api-token-deleted) and treats an unknown secret as nothing to do', async () => {
    const token = await flagstaff.apiTokens.create(alice, { tokenName: 'x', type: 'client' });
    expect(await flagstaff.apiTokens.delete(alice, token.secret)).toBe(true);
    expect(await flagstaff.apiTokens.list(SYSTEM)).toEqual([]);
    expect(await flagstaff.apiTokens.delete(alice, token.secret)).toBe(false);
    const events = await tokenEvents();
    expect(events.map((e) => e.type)).toEqual(['api-token-created', 'api-token-deleted']);
    expect(events[1]?.preData).toMatchObject({ tokenName: 'x' });
    expect(events[1]?.preData).not.toHaveProperty('secret');
  });
});

describe('authentication after token changes', () => {
  it('refuses a token right after it is deleted or expired, though it was just used', async () => {
    const gone = await flagstaff.apiTokens.create(alice, { tokenName: 'gone', type: 'client' });
    const expiring = await flagstaff.apiTokens.create(alice, { tokenName: 'expiring', type: 'client' });
    expect(await flagstaff.access.authenticateToken(gone.secret)).toMatchObject({ name: 'gone' });
    expect(await flagstaff.access.authenticateToken(expiring.secret)).toMatchObject({ name: 'expiring' });
    await flagstaff.apiTokens.delete(alice, gone.secret);
    await flagstaff.apiTokens.updateExpiry(alice, expiring.secret, {
      expiresAt: '2000-01-01T00:00:00Z',
    });
    expect(await flagstaff.access.authenticateToken(gone.secret)).toBeNull();
    expect(await flagstaff.access.authenticateToken(expiring.secret)).toBeNull();
  });

  it('accepts a token created right after its secret was refused', async () => {
    const secret = `*:*.${'cd34'.repeat(16)}`;
    expect(await flagstaff.access.authenticateToken(secret)).toBeNull();
    await flagstaff.apiTokens.ensureAdminToken(secret);
    expect(await flagstaff.access.authenticateToken(secret)).toMatchObject({ tokenType: 'admin' });
  });
});

describe('ensureAdminToken', () => {
  it('creates the first admin token from a well-formed secret once, and then returns null', async () => {
    const chosen = '*:*.my-bootstrap-secret-of-32-characters';
    expect(await flagstaff.apiTokens.ensureAdminToken(chosen)).toBe(chosen);
    const principal = await flagstaff.access.authenticateToken(chosen);
    expect(principal).toMatchObject({ kind: 'api-token', tokenType: 'admin', name: 'admin' });
    expect(await flagstaff.apiTokens.ensureAdminToken()).toBeNull();
    expect((await tokenEvents()).map((e) => e.createdBy)).toEqual(['system']);
  });

  it('F18: ignores a chosen secret with fewer than 32 characters after "*:*." and generates one', async () => {
    const secret = await flagstaff.apiTokens.ensureAdminToken(`*:*.${'a'.repeat(31)}`);
    expect(secret).toMatch(/^\*:\*\.[0-9a-f]{64}$/);
  });

  it('generates a secret when none or a malformed one is given', async () => {
    const secret = await flagstaff.apiTokens.ensureAdminToken('default:development.not-admin');
    expect(secret).toMatch(/^\*:\*\.[0-9a-f]{64}$/);
  });

  it('does nothing when an admin token already exists', async () => {
    await flagstaff.apiTokens.create(alice, { tokenName: 'ops', type: 'admin' });
    expect(await flagstaff.apiTokens.ensureAdminToken()).toBeNull();
    expect(await flagstaff.apiTokens.list(SYSTEM)).toHaveLength(1);
  });
});

describe('permissions by the stored token type', () => {
  const userPrincipal = async (rootRole: 'Admin' | 'Editor' | 'Viewer') => {
    const user = await flagstaff.users.create(alice, { email: `${rootRole}@example.com`, rootRole });
    return (await flagstaff.access.userPrincipal(user.id))!;
  };

  it('lists admin tokens only to Admins and admin tokens', async () => {
    const admin = await flagstaff.apiTokens.create(alice, { tokenName: 'ops', type: 'admin' });
    await flagstaff.apiTokens.create(alice, { tokenName: 'sdk', type: 'client' });
    await flagstaff.apiTokens.create(alice, { tokenName: 'web', type: 'frontend' });
    const names = (views: { tokenName: string }[]) => views.map((t) => t.tokenName).sort();
    expect(names(await flagstaff.apiTokens.list(callerOf(await userPrincipal('Editor'))))).toEqual([
      'sdk',
      'web',
    ]);
    expect(names(await flagstaff.apiTokens.list(callerOf(await userPrincipal('Admin'))))).toEqual([
      'ops',
      'sdk',
      'web',
    ]);
    const token = (await flagstaff.access.authenticateToken(admin.secret))!;
    expect(names(await flagstaff.apiTokens.list(callerOf(token)))).toEqual(['ops', 'sdk', 'web']);
    // A Viewer holds no token permission at all: refused, in-process as over HTTP (one policy).
    await expect(
      flagstaff.apiTokens.listByName(callerOf(await userPrincipal('Viewer')), 'ops'),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
  });

  it('Editors change client and frontend tokens; admin tokens need ADMIN; Viewers change none', async () => {
    const editor = await userPrincipal('Editor');
    const client = await flagstaff.apiTokens.create(alice, { tokenName: 'sdk', type: 'client' });
    const frontend = await flagstaff.apiTokens.create(alice, { tokenName: 'web', type: 'frontend' });
    const admin = await flagstaff.apiTokens.create(alice, { tokenName: 'ops', type: 'admin' });
    const later = { expiresAt: '2031-01-01T00:00:00Z' };
    await flagstaff.apiTokens.updateExpiry({ principal: editor, actor: alice.actor }, client.secret, later);
    expect(await flagstaff.apiTokens.delete({ principal: editor, actor: alice.actor }, frontend.secret)).toBe(
      true,
    );
    await expect(
      flagstaff.apiTokens.updateExpiry({ principal: editor, actor: alice.actor }, admin.secret, later),
    ).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: 'You need the "ADMIN" permission to perform this action.',
    });
    await expect(
      flagstaff.apiTokens.delete({ principal: editor, actor: alice.actor }, admin.secret),
    ).rejects.toMatchObject({
      code: 'FORBIDDEN',
      details: { permission: 'ADMIN' },
    });
    const viewer = await userPrincipal('Viewer');
    await expect(
      flagstaff.apiTokens.delete({ principal: viewer, actor: alice.actor }, client.secret),
    ).rejects.toMatchObject({
      details: { permission: 'DELETE_CLIENT_API_TOKEN' },
    });
    await expect(
      flagstaff.apiTokens.updateExpiry({ principal: viewer, actor: alice.actor }, 'unknown', later),
    ).rejects.toMatchObject({
      details: { permission: 'UPDATE_CLIENT_API_TOKEN' },
    });
    expect((await tokenEvents()).map((e) => e.type)).toEqual([
      'api-token-created',
      'api-token-created',
      'api-token-created',
      'api-token-updated',
      'api-token-deleted',
    ]);
    expect(await flagstaff.access.authenticateToken(admin.secret)).toMatchObject({ tokenType: 'admin' });
    expect(await flagstaff.apiTokens.delete(alice, admin.secret)).toBe(true);
  });
});

describe('creating tokens for private projects', () => {
  it('a creator who may not see a private project gets NOT_FOUND for it, as for an unknown one', async () => {
    await flagstaff.projects.create(alice, { id: 'secret', name: 'Secret', mode: 'private' });
    const principal = async (email: string, rootRole: 'Admin' | 'Editor', member = false) => {
      const created = await flagstaff.users.create(alice, { email, rootRole });
      if (member) await flagstaff.users.setUserProjectRoles(alice, 'secret', created.id, [5]);
      return (await flagstaff.access.userPrincipal(created.id))!;
    };
    const editor = await principal('ed@example.com', 'Editor');
    const member = await principal('mem@example.com', 'Editor', true);
    const admin = await principal('root@example.com', 'Admin');
    const create = (projects: string[], who?: Principal, type = 'client') =>
      flagstaff.apiTokens.create(
        { principal: who ?? SYSTEM.principal, actor: alice.actor },
        { tokenName: 't', type, projects, environment: 'development' },
      );
    const before = (await tokenEvents()).length;
    for (const projects of [['secret'], ['default', 'secret']])
      for (const type of ['client', 'frontend'])
        await expect(create(projects, editor, type)).rejects.toMatchObject({
          code: 'NOT_FOUND',
          message: 'Could not find project "secret".',
        });
    await expect(create(['nope'], editor)).rejects.toMatchObject({
      message: 'Could not find project "nope".',
    });
    expect(await tokenEvents()).toHaveLength(before);

    expect((await create(['default'], editor)).projects).toEqual(['default']);
    // F2: "*" would reach the private project too.
    await expect(create(['*'], editor)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect((await create(['*'], member)).projects).toEqual(['*']);
    for (const who of [member, admin, undefined])
      expect((await create(['default', 'secret'], who)).projects).toEqual(['default', 'secret']);
  });
});
