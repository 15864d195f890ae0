import { beforeEach, describe, expect, it, vi } from 'vitest';
import { callerOf, SYSTEM } from '../../auth/caller.js';
import type { Principal } from '../../auth/principal.js';
import type { NewEvent } from '../../domain/event.js';
import { createFlagstaff, type Flagstaff } from '../../flagstaff.js';
import { createMemoryStore } from '../../memory/index.js';
import { alice, createTestFlagstaff } from '../test-support.js';
import { searchEvents } from './event-operations.js';

let flagstaff: Flagstaff;
beforeEach(async () => {
  ({ flagstaff } = await createTestFlagstaff());
});

const event = (over: Partial<NewEvent>): NewEvent => ({
  type: 'feature-updated',
  createdBy: 'bob@example.com',
  createdByUserId: 2,
  createdAt: '2026-01-01T00:00:00.000Z',
  ...over,
});

/** Appends events straight to the log: volume the services would take long to produce. */
const append = (events: NewEvent[]) => flagstaff.store.transaction((tx) => tx.events.append(events));

describe('listing events', () => {
  it('returns the last 100 events newest first without a project, every event of a project with one', async () => {
    await append(
      Array.from({ length: 130 }, (_, i) =>
        event({ project: i % 2 === 0 ? 'default' : 'other', featureName: `f${i}` }),
      ),
    );
    const all = await flagstaff.events.list(SYSTEM);
    expect(all.version).toBe(1);
    expect(all.events).toHaveLength(100);
    const ids = all.events.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(ids[0]).toBe(await flagstaff.store.events.latestId());

    const project = await flagstaff.events.list(SYSTEM, 'default');
    expect(project.events).toHaveLength(65);
    expect(project.events.every((e) => e.project === 'default')).toBe(true);
    expect((await flagstaff.events.list(SYSTEM, 'nope')).events).toEqual([]);
  });
});

describe('searching events', () => {
  beforeEach(async () => {
    await flagstaff.projects.create(alice, { id: 'shop', name: 'Shop' });
    await flagstaff.features.create(alice, 'shop', { name: 'checkout', description: 'Rocket checkout flow' });
    await flagstaff.features.create(alice, 'shop', { name: 'basket' });
    await flagstaff.features.create(alice, 'default', { name: 'banner' });
    await flagstaff.features.setStale(alice, 'shop', ['checkout'], true);
  });

  it('filters by exact type, project and feature', async () => {
    const created = await flagstaff.events.search(SYSTEM, { type: 'feature-created' });
    expect(created.events.map((e) => e.featureName)).toEqual(['banner', 'basket', 'checkout']);
    expect(created.totalEvents).toBe(3);

    const shop = await flagstaff.events.search(SYSTEM, { project: 'shop', type: 'feature-created' });
    expect(shop.events.map((e) => e.featureName)).toEqual(['basket', 'checkout']);

    const checkout = await flagstaff.events.search(SYSTEM, { feature: 'checkout' });
    expect(checkout.events.map((e) => e.type)).toEqual(['feature-stale-on', 'feature-created']);
    expect((await flagstaff.events.search(SYSTEM, { project: 'Shop' })).totalEvents).toBe(0);
  });

  it('matches free text against the payload and counts the query in totalEvents', async () => {
    const rocket = await flagstaff.events.search(SYSTEM, { query: 'rocket' });
    expect(rocket.events.map((e) => [e.type, e.featureName])).toEqual([['feature-created', 'checkout']]);
    expect(rocket.totalEvents).toBe(1);
    const byCreator = await flagstaff.events.search(SYSTEM, { query: 'alice', project: 'shop' });
    expect(byCreator.totalEvents).toBe(byCreator.events.length);
    expect(byCreator.totalEvents).toBeGreaterThan(0);
    // An all-blank query is no query at all.
    expect((await flagstaff.events.search(SYSTEM, { query: '   ' })).totalEvents).toBe(
      (await flagstaff.events.search(SYSTEM, {})).totalEvents,
    );
  });

  it('pages with offset as a cursor: ids ≤ offset, newest first; next offset is the last id − 1', async () => {
    await append(
      Array.from({ length: 25 }, (_, i) => event({ project: 'paging', data: { n: i, note: 'paged' } })),
    );
    const seen: number[] = [];
    let offset: number | undefined;
    for (;;) {
      const page = await flagstaff.events.search(SYSTEM, {
        project: 'paging',
        query: 'paged',
        limit: 10,
        offset,
      });
      expect(page.totalEvents).toBe(25);
      if (page.events.length === 0) break;
      if (offset !== undefined) expect(page.events.every((e) => e.id <= offset!)).toBe(true);
      seen.push(...page.events.map((e) => e.id));
      offset = page.events.at(-1)!.id - 1;
    }
    expect(seen).toHaveLength(25);
    expect(seen).toEqual([...seen].sort((a, b) => b - a));
    expect(new Set(seen).size).toBe(25);

    const fromMiddle = await flagstaff.events.search(SYSTEM, { project: 'paging', offset: seen[4] });
    expect(fromMiddle.events[0]!.id).toBe(seen[4]);
    expect(fromMiddle.events).toHaveLength(21);
  });

  it('defaults the limit to 100 and accepts numeric strings', async () => {
    await append(Array.from({ length: 120 }, () => event({ project: 'bulk' })));
    expect((await flagstaff.events.search(SYSTEM, { project: 'bulk' })).events).toHaveLength(100);
    const page = await flagstaff.events.search(SYSTEM, { project: 'bulk', limit: '5' });
    expect(page.events).toHaveLength(5);
    expect(page.totalEvents).toBe(120);
  });

  it('rejects bad input naming the property', async () => {
    await expect(flagstaff.events.search(SYSTEM, { limit: 0 })).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('"limit"'),
    });
    await expect(flagstaff.events.search(SYSTEM, { limit: 101 })).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('"limit"'),
    });
    await expect(flagstaff.events.search(SYSTEM, { offset: -1 })).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('"offset"'),
    });
    await expect(flagstaff.run.unknown(searchEvents, SYSTEM, { type: 'not-a-type' })).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('"type"'),
    });
  });
});

describe('events of a feature', () => {
  it('returns every event of the feature with its count, and nothing for an unknown name', async () => {
    await flagstaff.features.create(alice, 'default', { name: 'f1' });
    await flagstaff.features.create(alice, 'default', { name: 'f2' });
    await flagstaff.features.setStale(alice, 'default', ['f1'], true);
    await append(Array.from({ length: 150 }, () => event({ featureName: 'f1', project: 'default' })));
    const f1 = await flagstaff.events.forFeature(SYSTEM, 'f1');
    expect(f1).toMatchObject({ version: 1, toggleName: 'f1', totalEvents: 152 });
    expect(f1.events).toHaveLength(152);
    expect(f1.events.every((e) => e.featureName === 'f1')).toBe(true);
    expect(f1.events.at(-1)!.type).toBe('feature-created');
    expect(await flagstaff.events.forFeature(SYSTEM, 'ghost')).toEqual({
      version: 1,
      toggleName: 'ghost',
      events: [],
      totalEvents: 0,
    });
  });
});

describe('private projects in the event log', () => {
  let editor: Principal;
  let member: Principal;
  let admin: Principal;

  /** Sets up a private project with a member over `flagstaff` (a fresh one unless given). */
  async function setUp(over: Flagstaff = flagstaff) {
    await over.projects.create(alice, { id: 'secret', name: 'Secret', mode: 'private' });
    const principal = async (email: string, rootRole: 'Admin' | 'Editor' | 'Viewer') =>
      (await over.access.userPrincipal((await over.users.create(alice, { email, rootRole })).id))!;
    editor = await principal('ed@example.com', 'Editor');
    member = await principal('mem@example.com', 'Viewer');
    admin = await principal('root@example.com', 'Admin');
    if (member.kind !== 'user') throw new Error('a user principal');
    await over.users.setUserProjectRoles(alice, 'secret', member.userId, [5]);
    await over.features.create(alice, 'default', { name: 'shown', description: 'Launch plan' });
    await over.features.create(alice, 'secret', { name: 'hidden', description: 'Launch codes' });
    await over.store.transaction((tx) =>
      tx.events.append([
        ...Array.from({ length: 10 }, () => event({ project: 'default', featureName: 'shown' })),
        // Newer than everything else, so a page cut before leaving them out would come back short.
        ...Array.from({ length: 30 }, () => event({ project: 'secret', featureName: 'hidden' })),
      ]),
    );
  }

  const projectsOf = (events: readonly { project: string | null }[]) => new Set(events.map((e) => e.project));
  /** Events of the secret project and all others, as the log holds them. */
  const tally = async () => {
    const all = await flagstaff.store.events.search({});
    const secret = all.filter((e) => e.project === 'secret').length;
    return { all: all.length, secret, visible: all.length - secret };
  };

  it('search leaves hidden projects out of full pages and of totalEvents; members and Admins see them', async () => {
    await setUp();
    const { all, visible } = await tally();
    const page = await flagstaff.events.search(callerOf(editor), { limit: 5 });
    expect(page.events).toHaveLength(5);
    expect(projectsOf(page.events).has('secret')).toBe(false);
    expect(page.totalEvents).toBe(visible);
    const everything = await flagstaff.events.search(callerOf(editor), {});
    expect(everything.events).toHaveLength(visible);
    // Events without a project (users created) stay visible.
    expect(projectsOf(everything.events)).toContain(null);
    for (const who of [member, admin, undefined])
      expect((await flagstaff.events.search(who ? callerOf(who) : SYSTEM, {})).totalEvents).toBe(all);
  });

  it('free text, a named hidden project and a hidden feature find nothing for a non-member', async () => {
    await setUp();
    const { secret } = await tally();
    expect(await flagstaff.events.search(callerOf(editor), { query: 'codes' })).toEqual({
      version: 1,
      events: [],
      totalEvents: 0,
    });
    const launch = await flagstaff.events.search(callerOf(editor), { query: 'launch' });
    expect(launch.events.map((e) => e.featureName)).toEqual(['shown']);
    expect(launch.totalEvents).toBe(1);
    expect((await flagstaff.events.search(callerOf(member), { query: 'launch' })).totalEvents).toBe(2);
    expect(await flagstaff.events.search(callerOf(editor), { project: 'secret' })).toEqual({
      version: 1,
      events: [],
      totalEvents: 0,
    });
    expect((await flagstaff.events.search(callerOf(member), { project: 'secret' })).totalEvents).toBe(secret);
    expect((await flagstaff.events.search(callerOf(editor), { feature: 'hidden' })).totalEvents).toBe(0);
    expect((await flagstaff.events.search(callerOf(admin), { feature: 'hidden' })).totalEvents).toBe(31);
  });

  it('list and forFeature leave hidden projects out; a named hidden project lists nothing', async () => {
    await setUp();
    const { secret } = await tally();
    const recent = await flagstaff.events.list(callerOf(editor));
    expect(recent.events.length).toBeGreaterThan(10);
    expect(projectsOf(recent.events).has('secret')).toBe(false);
    expect((await flagstaff.events.list(callerOf(editor), 'secret')).events).toEqual([]);
    expect((await flagstaff.events.list(callerOf(member), 'secret')).events).toHaveLength(secret);
    expect((await flagstaff.events.list(callerOf(editor), 'default')).events).toHaveLength(11);

    expect(await flagstaff.events.forFeature(callerOf(editor), 'hidden')).toEqual({
      version: 1,
      toggleName: 'hidden',
      events: [],
      totalEvents: 0,
    });
    expect((await flagstaff.events.forFeature(callerOf(member), 'hidden')).totalEvents).toBe(31);
    expect((await flagstaff.events.forFeature(callerOf(editor), 'shown')).totalEvents).toBe(11);
  });

  it('asks the store for no project filter when the viewer sees every project', async () => {
    const base = createMemoryStore();
    const search = vi.fn(base.events.search);
    const count = vi.fn(base.events.count);
    const recording = await createFlagstaff({
      store: { ...base, events: { ...base.events, search, count } },
    });
    flagstaff = recording;
    await setUp(recording);
    search.mockClear();
    count.mockClear();
    await recording.events.search(callerOf(admin), { query: 'launch' });
    await recording.events.list(callerOf(member));
    await recording.events.forFeature(SYSTEM, 'shown');
    await recording.events.search(callerOf(editor), { project: 'default' });
    const queries = [...search.mock.calls, ...count.mock.calls].map(([query]) => query);
    expect(queries).toHaveLength(6);
    for (const query of queries) expect(query).not.toHaveProperty('excludeProjects');
    await recording.events.search(callerOf(editor), {});
    expect(search.mock.calls.at(-1)?.[0]).toMatchObject({ excludeProjects: ['secret'] });
  });
});
