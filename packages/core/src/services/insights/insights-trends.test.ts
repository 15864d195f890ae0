import { beforeEach, describe, expect, it } from 'vitest';
import { callerOf, SYSTEM } from '../../auth/caller.js';
import type { UserRecord } from '../../domain/user.js';
import { ROLES } from '../../domain/user.js';
import type { Flagstaff } from '../../flagstaff.js';
import { alice, createTestClock, createTestFlagstaff, type TestClock } from '../test-support.js';

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.parse('2026-03-18T12:00:00.000Z'); // ISO week 2026-12; the 12 weeks are 2026-01 … 2026-12
/** Monday 12:00 UTC of ISO week `n` of 2026. */
const monday = (n: number) => Date.parse('2025-12-29T12:00:00.000Z') + (n - 1) * 7 * DAY;
const iso = (ms: number) => new Date(ms).toISOString();

let flagstaff: Flagstaff;
let clock: TestClock;
beforeEach(async () => {
  ({ flagstaff, clock } = await createTestFlagstaff(createTestClock('2025-11-01T00:00:00.000Z')));
});

const user = (email: string, over: Partial<UserRecord>): Omit<UserRecord, 'id'> => ({
  name: null,
  email,
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
});

describe('instance insights', () => {
  it('counts users active within 60 days, now and per week', async () => {
    await flagstaff.store.transaction(async (tx) => {
      await tx.users.insert(user('recent@x', { seenAt: iso(NOW - 10 * DAY) }));
      await tx.users.insert(user('lapsed@x', { seenAt: iso(NOW - 90 * DAY) }));
      await tx.users.insert(user('never@x', {}));
      await tx.users.insert(user('late@x', { createdAt: iso(monday(11)), seenAt: iso(monday(11)) }));
      await tx.users.insert(user('robot@x', { accountType: 'Service Account', seenAt: iso(NOW) }));
    });
    clock.set(iso(NOW));
    const insights = await flagstaff.insights.instanceInsights(SYSTEM);
    expect(insights.users).toEqual({ total: 4, active: 2, inactive: 2 });
    expect(insights.userTrends).toHaveLength(12);
    expect(insights.userTrends.map((p) => p.total)).toEqual([3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 4, 4]);
    // "lapsed" was last seen 2025-12-18: active until 60 days later (week 7 ends 2026-02-15).
    expect(insights.userTrends.map((p) => p.active)).toEqual([2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 2, 2]);
    expect(insights.userTrends.every((p) => p.inactive === p.total - p.active)).toBe(true);
    expect(insights.userTrends.at(-1)!.date).toBe('2026-03-18T23:59:59.999Z');
  });

  it('rebuilds weekly flag states from the event log: creation, stale, archive and revive', async () => {
    clock.set(iso(monday(1)));
    await flagstaff.features.create(alice, 'default', { name: 'h', type: 'kill-switch' });
    clock.set(iso(monday(2)));
    await flagstaff.features.create(alice, 'default', { name: 'g', type: 'kill-switch' });
    clock.set(iso(monday(3)));
    await flagstaff.features.archive(alice, 'default', ['h']);
    clock.set(iso(monday(5)));
    await flagstaff.features.create(alice, 'default', { name: 'f', type: 'release' });
    clock.set(iso(monday(5) + 9 * DAY));
    await flagstaff.featureEnvironments.setEnabled(alice, 'default', 'f', 'production', true);
    clock.set(iso(monday(6)));
    await flagstaff.features.archive(alice, 'default', ['g']);
    clock.set(iso(monday(8)));
    await flagstaff.features.setStale(alice, 'default', ['f'], true);
    clock.set(iso(monday(9)));
    await flagstaff.features.revive(alice, 'default', ['h']);
    clock.set(iso(monday(10)));
    await flagstaff.features.setStale(alice, 'default', ['f'], false); // 35 days old; 40 days by the week's end
    clock.set(iso(NOW));

    const insights = await flagstaff.insights.instanceInsights(SYSTEM);
    expect(insights.flags).toEqual({ total: 2 });
    const trend = insights.flagTrends.map(({ total, active, stale, potentiallyStale }) => [
      total,
      active,
      stale,
      potentiallyStale,
    ]);
    expect(trend).toEqual([
      [1, 1, 0, 0], // h
      [2, 2, 0, 0], // h, g
      [1, 1, 0, 0], // g (h archived)
      [1, 1, 0, 0],
      [2, 2, 0, 0], // g, f
      [1, 1, 0, 0], // f (g archived)
      [1, 1, 0, 0],
      [1, 0, 1, 0], // f stale
      [2, 1, 1, 0], // h revived
      [2, 1, 0, 1], // f no longer stale, but past the 40-day release lifetime
      [2, 1, 0, 1],
      [2, 1, 0, 1],
    ]);

    const defaults = insights.projectFlagTrends.filter((p) => p.project === 'default');
    expect(defaults.map((p) => p.week)).toEqual(
      insights.flagTrends.map((_, i) => `2026-${String(i + 1).padStart(2, '0')}`),
    );
    expect(defaults.map((p) => p.total)).toEqual(trend.map(([total]) => total));
    expect(defaults.map((p) => p.health)).toEqual([100, 100, 100, 100, 100, 100, 100, 0, 50, 50, 50, 50]);
    // f reached production 9 days after creation, in week 6.
    expect(defaults.map((p) => p.timeToProduction)).toEqual([
      ...Array(5).fill(undefined),
      ...Array(7).fill(9),
    ]);
    expect(defaults.map((p) => p.date)).toEqual(insights.flagTrends.map((p) => p.date));
  });

  it('reports project members per week and skips weeks before a project existed', async () => {
    clock.set(iso(monday(10)));
    await flagstaff.projects.create(alice, { id: 'late', name: 'Late' });
    await flagstaff.store.transaction(async (tx) => {
      const u = await tx.users.insert(user('m@x', {}));
      const v = await tx.users.insert(user('n@x', {}));
      await tx.projectAccess.setRoles('default', { userId: u.id }, [ROLES.Owner.id], iso(monday(3)));
      const group = await tx.groups.insert({
        name: 'g',
        description: null,
        rootRole: null,
        createdAt: iso(monday(1)),
        createdBy: null,
      });
      await tx.groups.addUsers(group.id, [u.id, v.id], iso(monday(1)));
      await tx.projectAccess.setRoles('default', { groupId: group.id }, [ROLES.Member.id], iso(monday(7)));
    });
    clock.set(iso(NOW));
    const { projectFlagTrends } = await flagstaff.insights.instanceInsights(SYSTEM);
    const members = projectFlagTrends.filter((p) => p.project === 'default').map((p) => p.users);
    expect(members).toEqual([0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2]);
    expect(projectFlagTrends.filter((p) => p.project === 'late').map((p) => p.week)).toEqual([
      '2026-10',
      '2026-11',
      '2026-12',
    ]);
  });

  it('sums metrics per project and week, and counts environment updates per environment type', async () => {
    await flagstaff.projects.create(alice, { id: 'shop', name: 'Shop' });
    await flagstaff.features.create(alice, 'shop', { name: 'f' });
    await flagstaff.features.create(alice, 'default', { name: 'd' });
    clock.set(iso(monday(6)));
    await flagstaff.featureEnvironments.setEnabled(alice, 'shop', 'f', 'production', true);
    await flagstaff.featureEnvironments.setEnabled(alice, 'shop', 'f', 'development', true);
    clock.set(iso(monday(7)));
    await flagstaff.featureEnvironments.setEnabled(alice, 'shop', 'f', 'production', false);
    const bucket = (
      featureName: string,
      appName: string,
      environment: string,
      at: number,
      yes: number,
      no: number,
    ) => ({
      featureName,
      appName,
      environment,
      timestamp: iso(at),
      yes,
      no,
      variants: {},
    });
    await flagstaff.store.transaction((tx) =>
      tx.metrics.addBuckets([
        bucket('f', 'web', 'production', monday(11), 3, 1),
        bucket('f', 'ios', 'development', monday(11) + DAY, 2, 0),
        bucket('d', 'web', 'production', monday(11), 7, 0),
        bucket('f', 'web', 'production', monday(12), 5, 0),
        bucket('ghost', 'web', 'production', monday(12), 9, 9),
        bucket('f', 'web', 'production', monday(1) - 2 * DAY, 100, 100),
      ]),
    );
    clock.set(iso(NOW));
    const insights = await flagstaff.insights.instanceInsights(SYSTEM);
    expect(insights.metricsSummaryTrends).toEqual([
      {
        week: '2026-11',
        date: '2026-03-15T23:59:59.999Z',
        project: 'default',
        totalRequests: 7,
        totalYes: 7,
        totalNo: 0,
        totalApps: 1,
        totalFlags: 1,
        totalEnvironments: 1,
      },
      {
        week: '2026-11',
        date: '2026-03-15T23:59:59.999Z',
        project: 'shop',
        totalRequests: 6,
        totalYes: 5,
        totalNo: 1,
        totalApps: 2,
        totalFlags: 1,
        totalEnvironments: 2,
      },
      {
        week: '2026-12',
        date: '2026-03-18T23:59:59.999Z',
        project: 'shop',
        totalRequests: 5,
        totalYes: 5,
        totalNo: 0,
        totalApps: 1,
        totalFlags: 1,
        totalEnvironments: 1,
      },
    ]);

    const updates = (week: string, environmentType: string) =>
      insights.environmentTypeTrends.find((p) => p.week === week && p.environmentType === environmentType)
        ?.totalUpdates;
    expect(insights.environmentTypeTrends).toHaveLength(24);
    const envEvents = async (environment: string, from: number, to: number) =>
      (await flagstaff.store.events.search({ feature: 'f' })).filter(
        (e) =>
          e.environment === environment && Date.parse(e.createdAt) >= from && Date.parse(e.createdAt) < to,
      ).length;
    // Enabling with no strategy also adds the default strategy: two updates per first enable.
    expect(updates('2026-06', 'production')).toBe(2);
    expect(updates('2026-06', 'production')).toBe(
      await envEvents('production', monday(6) - DAY / 2, monday(7) - DAY / 2),
    );
    expect(updates('2026-06', 'development')).toBe(2);
    expect(updates('2026-07', 'production')).toBe(1);
    expect(updates('2026-05', 'production')).toBe(0);
  });
});

describe('instance insights and private projects', () => {
  it('F16: counts and lists only what the caller may see: hidden projects add nothing to flag figures', async () => {
    await flagstaff.projects.create(alice, { id: 'secret', name: 'Secret', mode: 'private' });
    await flagstaff.features.create(alice, 'secret', { name: 'classified' });
    await flagstaff.features.create(alice, 'default', { name: 'open' });
    const principal = async (email: string, rootRole: 'Admin' | 'Editor', member = false) => {
      const created = await flagstaff.users.create(alice, { email, rootRole });
      if (member) await flagstaff.users.setUserProjectRoles(alice, 'secret', created.id, [5]);
      return (await flagstaff.access.userPrincipal(created.id))!;
    };
    const editor = await principal('ed@example.com', 'Editor');
    const member = await principal('mem@example.com', 'Editor', true);
    const metric = (featureName: string) => ({
      featureName,
      appName: 'web',
      environment: 'production',
      timestamp: iso(monday(11)),
      yes: 1,
      no: 0,
      variants: {},
    });
    await flagstaff.store.transaction((tx) => tx.metrics.addBuckets([metric('classified'), metric('open')]));
    clock.set(iso(NOW));

    const projectsIn = (rows: readonly { project: string }[]) =>
      [...new Set(rows.map((r) => r.project))].sort();
    const everything = await flagstaff.insights.instanceInsights(SYSTEM);
    expect(projectsIn(everything.projectFlagTrends)).toEqual(['default', 'secret']);
    expect(projectsIn(everything.metricsSummaryTrends)).toEqual(['default', 'secret']);

    const seen = await flagstaff.insights.instanceInsights(callerOf(editor));
    expect(projectsIn(seen.projectFlagTrends)).toEqual(['default']);
    expect(projectsIn(seen.metricsSummaryTrends)).toEqual(['default']);
    expect(JSON.stringify(seen)).not.toContain('secret');
    // Flag figures leave the hidden project's features out; users are instance-wide.
    expect(everything.flags.total).toBe(2);
    expect(seen.flags.total).toBe(1);
    expect(seen.flagTrends.at(-1)?.total).toBe(1);
    expect(everything.flagTrends.at(-1)?.total).toBe(2);
    expect(seen.users).toEqual(everything.users);

    expect(await flagstaff.insights.instanceInsights(callerOf(member))).toEqual(everything);
  });
});
