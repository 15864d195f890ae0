import { beforeEach, describe, expect, it } from 'vitest';
import type { NewEvent } from '../domain/event.js';
import type { Flagstaff } from '../flagstaff.js';
import { alice, createTestFlagstaff } from './test-support.js';

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
    const all = await flagstaff.events.list();
    expect(all.version).toBe(1);
    expect(all.events).toHaveLength(100);
    const ids = all.events.map((e) => e.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(ids[0]).toBe(await flagstaff.store.events.latestId());

    const project = await flagstaff.events.list('default');
    expect(project.events).toHaveLength(65);
    expect(project.events.every((e) => e.project === 'default')).toBe(true);
    expect((await flagstaff.events.list('nope')).events).toEqual([]);
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
    const created = await flagstaff.events.search({ type: 'feature-created' });
    expect(created.events.map((e) => e.featureName)).toEqual(['banner', 'basket', 'checkout']);
    expect(created.totalEvents).toBe(3);

    const shop = await flagstaff.events.search({ project: 'shop', type: 'feature-created' });
    expect(shop.events.map((e) => e.featureName)).toEqual(['basket', 'checkout']);

    const checkout = await flagstaff.events.search({ feature: 'checkout' });
    expect(checkout.events.map((e) => e.type)).toEqual(['feature-stale-on', 'feature-created']);
    expect((await flagstaff.events.search({ project: 'Shop' })).totalEvents).toBe(0);
  });

  it('matches free text against the payload and counts the query in totalEvents', async () => {
    const rocket = await flagstaff.events.search({ query: 'rocket' });
    expect(rocket.events.map((e) => [e.type, e.featureName])).toEqual([['feature-created', 'checkout']]);
    expect(rocket.totalEvents).toBe(1);
    const byCreator = await flagstaff.events.search({ query: 'alice', project: 'shop' });
    expect(byCreator.totalEvents).toBe(byCreator.events.length);
    expect(byCreator.totalEvents).toBeGreaterThan(0);
    // An all-blank query is no query at all.
    expect((await flagstaff.events.search({ query: '   ' })).totalEvents).toBe(
      (await flagstaff.events.search({})).totalEvents,
    );
  });

  it('pages with offset as a cursor: ids ≤ offset, newest first; next offset is the last id − 1', async () => {
    await append(
      Array.from({ length: 25 }, (_, i) => event({ project: 'paging', data: { n: i, note: 'paged' } })),
    );
    const seen: number[] = [];
    let offset: number | undefined;
    for (;;) {
      const page = await flagstaff.events.search({ project: 'paging', query: 'paged', limit: 10, offset });
      expect(page.totalEvents).toBe(25);
      if (page.events.length === 0) break;
      if (offset !== undefined) expect(page.events.every((e) => e.id <= offset!)).toBe(true);
      seen.push(...page.events.map((e) => e.id));
      offset = page.events.at(-1)!.id - 1;
    }
    expect(seen).toHaveLength(25);
    expect(seen).toEqual([...seen].sort((a, b) => b - a));
    expect(new Set(seen).size).toBe(25);

    const fromMiddle = await flagstaff.events.search({ project: 'paging', offset: seen[4] });
    expect(fromMiddle.events[0]!.id).toBe(seen[4]);
    expect(fromMiddle.events).toHaveLength(21);
  });

  it('defaults the limit to 100 and accepts numeric strings', async () => {
    await append(Array.from({ length: 120 }, () => event({ project: 'bulk' })));
    expect((await flagstaff.events.search({ project: 'bulk' })).events).toHaveLength(100);
    const page = await flagstaff.events.search({ project: 'bulk', limit: '5' });
    expect(page.events).toHaveLength(5);
    expect(page.totalEvents).toBe(120);
  });

  it('rejects bad input naming the property', async () => {
    await expect(flagstaff.events.search({ limit: 0 })).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('"limit"'),
    });
    await expect(flagstaff.events.search({ limit: 101 })).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('"limit"'),
    });
    await expect(flagstaff.events.search({ offset: -1 })).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('"offset"'),
    });
    await expect(flagstaff.events.search({ type: 'not-a-type' })).rejects.toMatchObject({
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
    const f1 = await flagstaff.events.forFeature('f1');
    expect(f1).toMatchObject({ version: 1, toggleName: 'f1', totalEvents: 152 });
    expect(f1.events).toHaveLength(152);
    expect(f1.events.every((e) => e.featureName === 'f1')).toBe(true);
    expect(f1.events.at(-1)!.type).toBe('feature-created');
    expect(await flagstaff.events.forFeature('ghost')).toEqual({
      version: 1,
      toggleName: 'ghost',
      events: [],
      totalEvents: 0,
    });
  });
});
