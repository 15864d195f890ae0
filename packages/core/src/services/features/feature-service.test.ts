import { beforeEach, describe, expect, it } from 'vitest';
import { callerOf, SYSTEM } from '../../auth/caller.js';
import { isFlagstaffError } from '../../errors.js';
import type { Flagstaff } from '../../flagstaff.js';
import { alice, createTestFlagstaff, eventTypesSince, type TestClock } from '../test-support.js';

let flagstaff: Flagstaff;
let clock: TestClock;
beforeEach(async () => {
  ({ flagstaff, clock } = await createTestFlagstaff());
});

describe('creating features', () => {
  it('creates a feature in every project environment, off, and writes feature-created', async () => {
    const view = await flagstaff.features.create(alice, 'default', {
      name: 'checkout',
      description: 'New checkout',
    });
    expect(view).toMatchObject({
      name: 'checkout',
      project: 'default',
      type: 'release',
      enabled: false,
      archived: false,
      lifecycle: { stage: 'initial' },
    });
    expect(view.environments.map((e) => [e.name, e.enabled])).toEqual([
      ['development', false],
      ['production', false],
    ]);
    const [event] = await flagstaff.store.events.search({ feature: 'checkout' });
    expect(event).toMatchObject({
      type: 'feature-created',
      project: 'default',
      featureName: 'checkout',
      createdBy: 'alice@example.com',
      createdByUserId: 1,
    });
    expect((event!.data as { name: string }).name).toBe('checkout');
  });

  it('refuses a duplicate name, also when the first is archived', async () => {
    await flagstaff.features.create(alice, 'default', { name: 'dup' });
    await flagstaff.features.archive(alice, 'default', ['dup']);
    await expect(flagstaff.features.create(alice, 'default', { name: 'dup' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('archive'),
    });
  });

  it("enforces the project's naming pattern and names the property", async () => {
    await flagstaff.projects.create(alice, {
      id: 'shop',
      name: 'Shop',
      featureNaming: { pattern: 'shop\\.[a-z]+', example: 'shop.cart' },
    });
    await flagstaff.features.create(alice, 'shop', { name: 'shop.cart' });
    const err = await flagstaff.features.create(alice, 'shop', { name: 'cart' }).catch((e: unknown) => e);
    expect(isFlagstaffError(err, 'VALIDATION')).toBe(true);
    expect((err as Error).message).toMatch(/"name".*pattern "shop\\\.\[a-z\]\+".*shop\.cart/);
  });

  it("enforces the project's feature limit, counting only live features", async () => {
    await flagstaff.projects.create(alice, { id: 'small', name: 'Small', featureLimit: 1 });
    await flagstaff.features.create(alice, 'small', { name: 'one' });
    await expect(flagstaff.features.create(alice, 'small', { name: 'two' })).rejects.toMatchObject({
      code: 'LIMIT_EXCEEDED',
    });
    await flagstaff.features.archive(alice, 'small', ['one']);
    await expect(flagstaff.features.create(alice, 'small', { name: 'two' })).resolves.toMatchObject({
      name: 'two',
    });
  });

  it('rejects bad input naming the property and stores nothing', async () => {
    const before = await flagstaff.store.events.latestId();
    await expect(flagstaff.features.create(alice, 'default', { name: 'has space' })).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('"name"'),
    });
    await expect(
      flagstaff.features.create(alice, 'default', { name: 'x', type: 'nope' }),
    ).rejects.toMatchObject({ message: expect.stringContaining('"type"') });
    await expect(flagstaff.features.create(alice, 'nowhere', { name: 'x' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringContaining('nowhere'),
    });
    expect(await flagstaff.store.events.latestId()).toBe(before);
    expect(await flagstaff.store.features.list()).toEqual([]);
  });
});

describe('updating features', () => {
  beforeEach(async () => {
    await flagstaff.features.create(alice, 'default', { name: 'f1' });
  });

  it('changes only the given properties and writes metadata, stale and archive events', async () => {
    const start = await flagstaff.store.events.latestId();
    clock.advance(1000);
    const view = await flagstaff.features.update(alice, 'default', 'f1', {
      stale: true,
      archived: true,
      description: 'd',
    });
    expect(view).toMatchObject({
      stale: true,
      archived: true,
      description: 'd',
      type: 'release',
      archivedAt: '2026-01-01T00:00:01.000Z',
    });
    expect(await eventTypesSince(flagstaff, start)).toEqual([
      'feature-metadata-updated',
      'feature-stale-on',
      'feature-archived',
    ]);
  });

  it('writes one event for a stale toggle (PUT or PATCH), and none for a change that changes nothing', async () => {
    let start = await flagstaff.store.events.latestId();
    await flagstaff.features.update(alice, 'default', 'f1', { stale: true });
    expect(await eventTypesSince(flagstaff, start)).toEqual(['feature-stale-on']);
    start = await flagstaff.store.events.latestId();
    await flagstaff.features.patch(alice, 'default', 'f1', [{ op: 'replace', path: '/stale', value: false }]);
    expect(await eventTypesSince(flagstaff, start)).toEqual(['feature-stale-off']);
    start = await flagstaff.store.events.latestId();
    await flagstaff.features.update(alice, 'default', 'f1', { stale: false, type: 'release' });
    expect(await eventTypesSince(flagstaff, start)).toEqual([]);
    await flagstaff.features.update(alice, 'default', 'f1', { type: 'experiment', stale: true });
    expect(await eventTypesSince(flagstaff, start)).toEqual(['feature-metadata-updated', 'feature-stale-on']);
  });

  it('applies JSON patch operations to metadata and refuses other paths', async () => {
    const view = await flagstaff.features.patch(alice, 'default', 'f1', [
      { op: 'replace', path: '/description', value: 'patched' },
    ]);
    expect(view.description).toBe('patched');
    await expect(
      flagstaff.features.patch(alice, 'default', 'f1', [{ op: 'replace', path: '/name', value: 'x' }]),
    ).rejects.toMatchObject({ code: 'VALIDATION' });
  });

  it('archives, revives and deletes with the matching events', async () => {
    const start = await flagstaff.store.events.latestId();
    await flagstaff.features.archive(alice, 'default', ['f1']);
    await expect(flagstaff.features.get(alice, 'default', 'f1')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await flagstaff.features.listArchived(SYSTEM, 'default')).map((f) => f.name)).toEqual(['f1']);
    await flagstaff.features.revive(alice, 'default', ['f1']);
    await expect(flagstaff.features.deleteArchived(alice, 'default', ['f1'])).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    await flagstaff.features.archive(alice, 'default', ['f1']);
    await flagstaff.features.deleteArchived(alice, null, ['f1']);
    expect(await flagstaff.store.features.get('f1')).toBeNull();
    expect(await eventTypesSince(flagstaff, start)).toEqual([
      'feature-archived',
      'feature-revived',
      'feature-archived',
      'feature-deleted',
    ]);
  });

  it('writes stale events only when the flag flips', async () => {
    const start = await flagstaff.store.events.latestId();
    await flagstaff.features.setStale(alice, 'default', ['f1'], false);
    await flagstaff.features.setStale(alice, 'default', ['f1'], true);
    await flagstaff.features.setStale(alice, 'default', ['f1'], true);
    expect(await eventTypesSince(flagstaff, start)).toEqual(['feature-stale-on']);
  });

  it('keeps favorites per user', async () => {
    await flagstaff.features.setFavorite(alice, 'default', 'f1', true);
    expect((await flagstaff.features.get(alice, 'default', 'f1')).favorite).toBe(true);
    expect(
      (
        await flagstaff.features.get(
          callerOf({ kind: 'user', userId: 2, name: 'bob', rootRole: 'Admin' }),
          'default',
          'f1',
        )
      ).favorite,
    ).toBe(false);
  });
});

describe('validateName', () => {
  it('accepts a free name and refuses taken (live or archived) and malformed ones', async () => {
    await flagstaff.features.create(alice, 'default', { name: 'live' });
    await flagstaff.features.create(alice, 'default', { name: 'old' });
    await flagstaff.features.archive(alice, 'default', ['old']);
    await flagstaff.features.validateName(SYSTEM, { name: 'free' });
    await expect(flagstaff.features.validateName(SYSTEM, { name: 'live' })).rejects.toMatchObject({
      code: 'CONFLICT',
    });
    await expect(flagstaff.features.validateName(SYSTEM, { name: 'old' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('archive'),
    });
    await expect(flagstaff.features.validateName(SYSTEM, { name: 'a b' })).rejects.toMatchObject({
      code: 'VALIDATION',
    });
  });

  it("applies the named project's naming pattern; an unknown or hidden project is NOT_FOUND", async () => {
    await flagstaff.projects.create(alice, {
      id: 'web',
      name: 'Web',
      mode: 'private',
      featureNaming: { pattern: 'web-.+' },
    });
    await flagstaff.features.validateName(SYSTEM, { name: 'web-login', projectId: 'web' });
    await expect(
      flagstaff.features.validateName(SYSTEM, { name: 'login', projectId: 'web' }),
    ).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('web-.+'),
    });
    await expect(
      flagstaff.features.validateName(SYSTEM, { name: 'x', projectId: 'nope' }),
    ).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    const editor = await flagstaff.users.create(alice, { email: 'ed@example.com', rootRole: 'Editor' });
    const principal = (await flagstaff.access.userPrincipal(editor.id))!;
    await expect(
      flagstaff.features.validateName(callerOf(principal), { name: 'web-login', projectId: 'web' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'Could not find project "web".' });
  });
});

describe('lists and private projects', () => {
  it('leaves out live and archived features of private projects the viewer may not see', async () => {
    await flagstaff.projects.create(alice, { id: 'secret', name: 'Secret', mode: 'private' });
    await flagstaff.features.create(alice, 'secret', { name: 'hidden' });
    await flagstaff.features.create(alice, 'secret', { name: 'hidden-old' });
    await flagstaff.features.archive(alice, 'secret', ['hidden-old']);
    await flagstaff.features.create(alice, 'default', { name: 'shown' });
    const viewer = await flagstaff.users.create(alice, { email: 'v@example.com', rootRole: 'Viewer' });
    const principal = (await flagstaff.access.userPrincipal(viewer.id))!;
    const names = (views: { name: string }[]) => views.map((f) => f.name);
    expect(names(await flagstaff.features.list(callerOf(principal)))).toEqual(['shown']);
    expect(names(await flagstaff.features.list(SYSTEM))).toEqual(['hidden', 'shown']);
    expect(names(await flagstaff.features.listArchived(callerOf(principal)))).toEqual([]);
    expect(names(await flagstaff.features.listArchived(SYSTEM))).toEqual(['hidden-old']);
  });
});
