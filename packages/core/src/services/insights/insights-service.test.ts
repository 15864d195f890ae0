import { beforeEach, describe, expect, it } from 'vitest';
import type { UserRecord } from '../../domain/user.js';
import { ROLES } from '../../domain/user.js';
import type { Flagstaff } from '../../flagstaff.js';
import { alice, createTestClock, createTestFlagstaff, type TestClock, userCaller } from '../test-support.js';

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.parse('2026-03-18T12:00:00.000Z'); // a Wednesday, ISO week 2026-12

let flagstaff: Flagstaff;
let clock: TestClock;
beforeEach(async () => {
  ({ flagstaff, clock } = await createTestFlagstaff(createTestClock('2025-11-01T00:00:00.000Z')));
});

/** Moves the clock to `days` days before NOW. */
const daysAgo = (days: number) => clock.set(new Date(NOW - days * DAY).toISOString());
const iso = (ms: number) => new Date(ms).toISOString();

async function addUser(over: Partial<UserRecord>): Promise<UserRecord> {
  return flagstaff.store.transaction((tx) =>
    tx.users.insert({
      name: null,
      email: null,
      username: null,
      imageUrl: null,
      rootRole: ROLES.Viewer.id,
      accountType: 'User',
      loginAttempts: 0,
      emailSent: false,
      seenAt: null,
      createdAt: '2025-11-01T00:00:00.000Z',
      scimId: null,
      passwordHash: null,
      ...over,
    }),
  );
}

describe('project overview', () => {
  beforeEach(async () => {
    daysAgo(80);
    await flagstaff.projects.create(alice, { id: 'shop', name: 'Shop', description: 'Sells things' });
    daysAgo(70);
    await flagstaff.features.create(alice, 'shop', { name: 'old', type: 'release' });
    daysAgo(66);
    await flagstaff.featureEnvironments.setEnabled(alice, 'shop', 'old', 'production', true); // 4 days to prod
    daysAgo(45);
    await flagstaff.features.create(alice, 'shop', { name: 'past1', type: 'operational' });
    await flagstaff.features.create(alice, 'shop', { name: 'past2', type: 'kill-switch' });
    daysAgo(40);
    await flagstaff.features.archive(alice, 'shop', ['past2']);
    daysAgo(10);
    await flagstaff.features.create(alice, 'shop', { name: 'new1', type: 'release' });
    await flagstaff.features.create(alice, 'shop', { name: 'new2', type: 'experiment' });
    daysAgo(7);
    await flagstaff.featureEnvironments.setEnabled(alice, 'shop', 'new1', 'production', true); // 3 days to prod
    await flagstaff.featureEnvironments.setEnabled(alice, 'shop', 'new2', 'development', true);
    daysAgo(5);
    await flagstaff.features.archive(alice, 'shop', ['old']);
    await flagstaff.features.setStale(alice, 'shop', ['new2'], true);
    await flagstaff.projects.setDefaultStrategy(alice, 'shop', 'production', {
      name: 'flexibleRollout',
      parameters: { rollout: '50' },
    });
    clock.set(iso(NOW));
  });

  it('counts features created and archived, and project events, in the current and past 30 days', async () => {
    const { stats } = await flagstaff.insights.overview(alice, 'shop');
    const events = await flagstaff.store.events.search({ project: 'shop' });
    const inWindow = (from: number, to: number) =>
      events.filter((e) => Date.parse(e.createdAt) > from && Date.parse(e.createdAt) <= to).length;
    expect(stats).toMatchObject({
      createdCurrentWindow: 2,
      createdPastWindow: 2,
      archivedCurrentWindow: 1,
      archivedPastWindow: 1,
      projectActivityCurrentWindow: inWindow(NOW - 30 * DAY, NOW),
      projectActivityPastWindow: inWindow(NOW - 60 * DAY, NOW - 30 * DAY),
    });
    // created ×2, enabled (+ default strategy) ×2, archived, stale-on, default strategy updated
    expect(stats.projectActivityCurrentWindow).toBe(9);
    // created ×2, archived
    expect(stats.projectActivityPastWindow).toBe(3);
    expect(stats.avgTimeToProdCurrentWindow).toBe(3.5);
  });

  it('reports health over live features: 100 − %stale − %potentially stale', async () => {
    // live: past1 (operational, 45 days old: potentially stale), new1 (fine), new2 (stale)
    const overview = await flagstaff.insights.overview(alice, 'shop');
    expect(overview.health).toBe(33);
    expect(await flagstaff.insights.health(alice, 'shop')).toBe(33);
    await flagstaff.features.setStale(alice, 'shop', ['new2'], false);
    expect(await flagstaff.insights.health(alice, 'shop')).toBe(67);
    expect(await flagstaff.insights.health(alice, 'default')).toBe(100);
  });

  it('shows the project, its environments, live feature types and version 1', async () => {
    const overview = await flagstaff.insights.overview(alice, 'shop');
    expect(overview).toMatchObject({
      version: 1,
      name: 'Shop',
      description: 'Sells things',
      mode: 'open',
      defaultStickiness: 'default',
      featureLimit: null,
      favorite: false,
      featureTypeCounts: [
        { type: 'experiment', count: 1 },
        { type: 'operational', count: 1 },
        { type: 'release', count: 1 },
      ],
    });
    expect(overview.environments).toEqual([
      { environment: 'development', changeRequestsEnabled: false },
      {
        environment: 'production',
        changeRequestsEnabled: false,
        defaultStrategy: expect.objectContaining({ name: 'flexibleRollout', parameters: { rollout: '50' } }),
      },
    ]);
    expect(overview.createdAt).toBe(iso(NOW - 80 * DAY));
  });

  it('counts members directly and through groups, members added in the window, and favorites', async () => {
    const [u1, u2, u3] = [
      await addUser({ email: 'u1@x' }),
      await addUser({ email: 'u2@x' }),
      await addUser({ email: 'u3@x' }),
    ];
    await flagstaff.store.transaction(async (tx) => {
      await tx.projectAccess.setRoles('shop', { userId: u1.id }, [ROLES.Owner.id], iso(NOW - 50 * DAY));
      await tx.projectAccess.setRoles('shop', { userId: u2.id }, [ROLES.Member.id], iso(NOW - 3 * DAY));
      const group = await tx.groups.insert({
        name: 'team',
        description: null,
        rootRole: null,
        createdAt: iso(NOW - 60 * DAY),
        createdBy: null,
      });
      await tx.groups.addUsers(group.id, [u2.id, u3.id], iso(NOW - 60 * DAY));
      await tx.projectAccess.setRoles('shop', { groupId: group.id }, [ROLES.Member.id], iso(NOW - 2 * DAY));
    });
    const member = userCaller(u1.id);
    await flagstaff.projects.setFavorite(member, 'shop', true);
    const overview = await flagstaff.insights.overview(member, 'shop');
    expect(overview.members).toBe(3);
    expect(overview.stats.projectMembersAddedCurrentWindow).toBe(2);
    expect(overview.favorite).toBe(true);
    expect((await flagstaff.insights.overview(userCaller(u2.id), 'shop')).favorite).toBe(false);
  });

  it('fails with NOT_FOUND for an unknown project', async () => {
    await expect(flagstaff.insights.overview(alice, 'nope')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(flagstaff.insights.projectEnvironments(alice, 'nope')).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(flagstaff.insights.dora(alice, 'nope')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('project environments', () => {
  it('lists enabled environments with SDK token counts, enabled live features and default strategy', async () => {
    await flagstaff.projects.create(alice, { id: 'shop', name: 'Shop' });
    for (const name of ['a', 'b', 'c', 'gone']) await flagstaff.features.create(alice, 'shop', { name });
    for (const name of ['a', 'b', 'gone'])
      await flagstaff.featureEnvironments.setEnabled(alice, 'shop', name, 'production', true);
    await flagstaff.featureEnvironments.setEnabled(alice, 'shop', 'c', 'development', true);
    await flagstaff.features.archive(alice, 'shop', ['gone']);
    await flagstaff.projects.setDefaultStrategy(alice, 'shop', 'development', { name: 'default' });
    const token = (
      tokenName: string,
      type: 'client' | 'frontend' | 'admin',
      projects: string[],
      environment: string,
    ) => ({
      secretHash: tokenName,
      displaySecret: `${tokenName}…`,
      tokenName,
      type,
      environment,
      projects,
      expiresAt: null,
      createdAt: iso(NOW),
      seenAt: null,
      alias: null,
    });
    await flagstaff.store.transaction(async (tx) => {
      await tx.apiTokens.insert(token('client-shop-prod', 'client', ['shop'], 'production'));
      await tx.apiTokens.insert(token('client-multi-dev', 'client', ['other', 'shop'], 'development'));
      await tx.apiTokens.insert(token('frontend-all', 'frontend', ['*'], '*'));
      await tx.apiTokens.insert(token('client-other', 'client', ['other'], 'production'));
      await tx.apiTokens.insert(token('admin', 'admin', ['*'], '*'));
    });
    const result = await flagstaff.insights.projectEnvironments(alice, 'shop');
    expect(result.version).toBe(1);
    expect(result.environments).toEqual([
      {
        name: 'development',
        type: 'development',
        enabled: true,
        protected: false,
        sortOrder: 1,
        projectApiTokenCount: 2,
        projectEnabledToggleCount: 1,
        changeRequestsEnabled: false,
        defaultStrategy: expect.objectContaining({ name: 'default' }),
      },
      {
        name: 'production',
        type: 'production',
        enabled: true,
        protected: false,
        sortOrder: 2,
        projectApiTokenCount: 2,
        projectEnabledToggleCount: 2,
        changeRequestsEnabled: false,
      },
    ]);
    await flagstaff.projects.removeEnvironment(alice, 'shop', 'development');
    expect(
      (await flagstaff.insights.projectEnvironments(alice, 'shop')).environments.map((e) => e.name),
    ).toEqual(['production']);
  });
});

describe('DORA', () => {
  it('averages whole days from creation to the first enable in a production-type environment, release features only', async () => {
    await flagstaff.environments.create(alice, { name: 'prod-eu', type: 'production' });
    await flagstaff.projects.create(alice, { id: 'dora', name: 'Dora' });
    expect(await flagstaff.insights.dora(alice, 'dora')).toEqual({ projectAverage: 0, features: [] });
    const start = NOW - 30 * DAY;
    clock.set(iso(start));
    for (const name of ['r1', 'r2', 'r3', 'r4'])
      await flagstaff.features.create(alice, 'dora', { name, type: 'release' });
    await flagstaff.features.create(alice, 'dora', { name: 'e1', type: 'experiment' });
    const enable = async (name: string, environment: string, afterDays: number, enabled = true) => {
      clock.set(iso(start + afterDays * DAY));
      await flagstaff.featureEnvironments.setEnabled(alice, 'dora', name, environment, enabled);
    };
    await enable('r1', 'production', 2.5); // 2 whole days
    await enable('r2', 'development', 1);
    await enable('r2', 'production', 5);
    await enable('r2', 'production', 6, false);
    await enable('r2', 'production', 9); // only the first enable counts
    await enable('r3', 'prod-eu', 7);
    await enable('e1', 'production', 1);
    const dora = await flagstaff.insights.dora(alice, 'dora');
    expect(dora.features).toEqual([
      { name: 'r1', timeToProduction: 2 },
      { name: 'r2', timeToProduction: 5 },
      { name: 'r3', timeToProduction: 7 },
    ]);
    expect(dora.projectAverage).toBe(4.7);
    clock.set(iso(NOW));
    expect((await flagstaff.insights.overview(alice, 'dora')).stats.avgTimeToProdCurrentWindow).toBe(4.7);
  });
});
