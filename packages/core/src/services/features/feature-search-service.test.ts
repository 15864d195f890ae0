import { beforeEach, describe, expect, it } from 'vitest';
import { callerOf, SYSTEM } from '../../auth/caller.js';
import type { Flagstaff } from '../../flagstaff.js';
import { createFlagstaff } from '../../flagstaff.js';
import { createMemoryStore } from '../../memory/memory-store.js';
import type { FeatureSearchRepository } from '../../ports/feature-ports.js';
import { alice, createTestFlagstaff } from '../test-support.js';

let flagstaff: Flagstaff;
beforeEach(async () => {
  ({ flagstaff } = await createTestFlagstaff());
});

describe('feature search', () => {
  it('returns the feature table rows: environments, tags, segments and dependency type', async () => {
    await flagstaff.features.create(alice, 'default', {
      name: 'parent',
      tags: [{ type: 'simple', value: 'web' }],
    });
    await flagstaff.features.create(alice, 'default', { name: 'child', description: 'Needs parent' });
    await flagstaff.dependencies.add(alice, 'default', 'child', { feature: 'parent' });
    const segment = await flagstaff.segments.create(alice, { name: 'beta-users', constraints: [] });
    await flagstaff.strategies.add(
      alice,
      { project: 'default', feature: 'parent', environment: 'production' },
      { name: 'default', segments: [segment.id], disabled: true },
    );
    const { features, total } = await flagstaff.featureSearch.search(SYSTEM, { sortBy: 'name' });
    expect(total).toBe(2);
    expect(features.map((f) => [f.name, f.dependencyType])).toEqual([
      ['child', 'child'],
      ['parent', 'parent'],
    ]);
    expect(features[1]).toMatchObject({
      project: 'default',
      type: 'release',
      stale: false,
      lastSeenAt: null,
      tags: [{ type: 'simple', value: 'web' }],
      segments: ['beta-users'],
      lifecycle: { stage: 'initial' },
    });
    expect(features[1]?.environments).toEqual([
      {
        name: 'development',
        enabled: false,
        type: 'development',
        sortOrder: expect.any(Number),
        hasStrategies: false,
        hasEnabledStrategies: false,
        lastSeenAt: null,
      },
      {
        name: 'production',
        enabled: false,
        type: 'production',
        sortOrder: expect.any(Number),
        hasStrategies: true,
        hasEnabledStrategies: false,
        lastSeenAt: null,
      },
    ]);
  });

  it('refuses bad parameters with VALIDATION naming the parameter', async () => {
    const bad: [Record<string, unknown>, string][] = [
      [{ limit: '0' }, '"limit" must be a whole number from 1 to 100'],
      [{ limit: '101' }, '"limit"'],
      [{ offset: '-1' }, '"offset"'],
      [{ offset: 'ten' }, '"offset"'],
      [{ project: 'default' }, '"project" must look like IS:value'],
      [{ state: 'IS:sleepy' }, '"state" may only name active, stale; "sleepy" is not one'],
      [{ tag: 'INCLUDE:web' }, '"tag" must look like INCLUDE:type:value'],
      [{ createdAt: 'IS_BEFORE:yesterday' }, '"createdAt"'],
      [
        { sortBy: 'popularity' },
        '"sortBy" must be one of name, createdAt, type, lastSeenAt or environment:<name>',
      ],
      [{ sortOrder: 'up' }, '"sortOrder" must be asc or desc'],
      [{ query: ['a', 'b'] }, '"query" must be given once'],
      [{ archived: 'yes' }, '"archived"'],
    ];
    for (const [params, message] of bad)
      await expect(
        flagstaff.featureSearch.search(SYSTEM, params),
        JSON.stringify(params),
      ).rejects.toMatchObject({
        code: 'VALIDATION',
        message: expect.stringContaining(message),
      });
  });

  it('leaves out private projects the viewer may not see', async () => {
    await flagstaff.projects.create(alice, { id: 'secret', name: 'Secret', mode: 'private' });
    await flagstaff.features.create(alice, 'secret', { name: 'hidden' });
    await flagstaff.features.create(alice, 'default', { name: 'shown' });
    const viewer = await flagstaff.users.create(alice, { username: 'vic' });
    const asViewer = { kind: 'user', userId: viewer.id, name: 'vic', rootRole: 'Viewer' } as const;
    expect(
      (await flagstaff.featureSearch.search(callerOf(asViewer), {})).features.map((f) => f.name),
    ).toEqual(['shown']);
    expect(
      (await flagstaff.featureSearch.search(callerOf({ kind: 'anonymous-admin', name: 'x' }), {})).total,
    ).toBe(2);
    expect((await flagstaff.featureSearch.search(SYSTEM, undefined)).total).toBe(2);
  });
});

describe('feature search totals', () => {
  it('are counted once per set of filters and counted again after any write', async () => {
    const memory = createMemoryStore();
    const knownTotals: (number | undefined)[] = [];
    // The store as is, but for a record of what the service tells its feature search.
    const featureSearch: FeatureSearchRepository = {
      search: (query, visibility, options) => {
        knownTotals.push(options?.knownTotal);
        return memory.featureSearch.search(query, visibility, options);
      },
    };
    const store = new Proxy(memory, {
      get: (target, key, receiver) =>
        key === 'featureSearch' ? featureSearch : Reflect.get(target, key, receiver),
    });
    const flagstaff = await createFlagstaff({ store });
    for (const name of ['a', 'b', 'c']) await flagstaff.features.create(alice, 'default', { name });
    const total = async (params: Record<string, string>) =>
      (await flagstaff.featureSearch.search(SYSTEM, { limit: '1', ...params })).total;

    expect(await total({})).toBe(3);
    // The next page, another order: the same filters, the total is not counted again.
    expect(await total({ offset: '1', sortBy: 'name' })).toBe(3);
    expect(knownTotals).toEqual([undefined, 3]);
    await flagstaff.features.create(alice, 'default', { name: 'd' });
    expect(await total({ sortBy: 'type' })).toBe(4);
    expect(knownTotals.at(-1)).toBeUndefined();
    await flagstaff.features.archive(alice, 'default', ['a']);
    expect(await total({})).toBe(3);
    expect(await total({ tag: 'INCLUDE:simple:web' })).toBe(0);
    await flagstaff.tags.addFeatureTag(alice, 'b', { type: 'simple', value: 'web' });
    await flagstaff.tags.addFeatureTag(alice, 'c', { type: 'simple', value: 'web' });
    expect(await total({ tag: 'INCLUDE:simple:web' })).toBe(2);
    // Metrics write no event: a last-seen filter is always counted.
    const before = knownTotals.length;
    await total({ lastSeenAt: 'IS_BEFORE:2100-01-01' });
    await total({ lastSeenAt: 'IS_BEFORE:2100-01-01' });
    expect(knownTotals.slice(before)).toEqual([undefined, undefined]);
  });
});
