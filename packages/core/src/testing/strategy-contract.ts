import { describe, expect, test } from 'vitest';
import type { Store } from '../ports/store.js';
import {
  at,
  expectFailure,
  feature,
  project,
  type StoreFactory,
  seedAlpha,
  segment,
  strategy,
  useStore,
  uuid,
} from './fixtures.js';
import { withWriteTransactions } from './write-transactions.js';

async function seedFeatures(store: Store, ...names: string[]): Promise<void> {
  await seedAlpha(store);
  for (const name of names) await withWriteTransactions(store).features.insert(feature(name, 'alpha'));
}

/** Strategies with their segment links, and feature dependencies. */
export function describeStrategyContract(open: StoreFactory): void {
  describe('strategies', () => {
    const store = useStore(open);

    test('what is inserted comes back, JSON and segment links included', async () => {
      await seedFeatures(store(), 'checkout');
      const one = await store().segments.insert(segment('one'));
      const two = await store().segments.insert(segment('two'));
      const full = strategy(1, 'checkout', 'production', {
        name: 'flexibleRollout',
        title: 'Half of Europe',
        disabled: true,
        sortOrder: 3,
        segments: [one.id, two.id],
        constraints: [
          {
            contextName: 'region',
            operator: 'STR_STARTS_WITH',
            caseInsensitive: true,
            inverted: false,
            values: ['eu-'],
          },
          {
            contextName: 'currentTime',
            operator: 'DATE_AFTER',
            caseInsensitive: false,
            inverted: true,
            value: at(0),
          },
        ],
        variants: [
          {
            name: 'a',
            weight: 500,
            weightType: 'variable',
            stickiness: 'default',
            payload: { type: 'string', value: 'x' },
          },
          { name: 'b', weight: 500, weightType: 'variable', stickiness: 'default' },
        ],
        parameters: { rollout: '50', stickiness: 'userId', groupId: 'checkout' },
        createdAt: at(12),
      });
      const plain = strategy(2, 'checkout', 'development', { name: 'default', parameters: {} });
      await store().strategies.insert(full);
      await store().strategies.insert(plain);
      expect(await store().strategies.get(uuid(1))).toEqual(full);
      expect(await store().strategies.get(uuid(2))).toEqual(plain);
      expect(await store().strategies.get(uuid(99))).toBeNull();
    });

    test('segment ids come back ascending, whatever order they were given in', async () => {
      await seedFeatures(store(), 'checkout');
      const one = await store().segments.insert(segment('one'));
      const two = await store().segments.insert(segment('two'));
      await store().strategies.insert(strategy(1, 'checkout', 'production', { segments: [two.id, one.id] }));
      expect((await store().strategies.get(uuid(1)))?.segments).toEqual([one.id, two.id]);
    });

    test('refuses a duplicate id', async () => {
      await seedFeatures(store(), 'checkout');
      await store().strategies.insert(strategy(1, 'checkout', 'production', { title: 'original' }));
      await expectFailure(
        store().strategies.insert(strategy(1, 'checkout', 'development', { title: 'copy' })),
        'CONFLICT',
        uuid(1),
      );
      expect((await store().strategies.get(uuid(1)))?.title).toBe('original');
    });

    test('insert without a sortOrder places a strategy after the others of its feature environment only', async () => {
      await seedFeatures(store(), 'checkout', 'cart');
      const one = await store().segments.insert(segment('one'));
      expect(
        await store().strategies.insert({ ...strategy(1, 'checkout', 'production'), sortOrder: undefined }),
      ).toBe(0);
      expect(await store().strategies.insert(strategy(6, 'checkout', 'development', { sortOrder: 7 }))).toBe(
        7,
      );
      await store().strategies.insert(strategy(2, 'checkout', 'production', { sortOrder: 4 }));
      await store().strategies.insert(strategy(3, 'checkout', 'development', { sortOrder: 20 }));
      await store().strategies.insert(strategy(4, 'cart', 'production', { sortOrder: 30 }));
      const last = strategy(5, 'checkout', 'production', { segments: [one.id], title: 'last' });
      expect(await store().strategies.insert({ ...last, sortOrder: undefined })).toBe(5);
      expect(await store().strategies.get(uuid(5))).toEqual({ ...last, sortOrder: 5 });
      expect(await store().strategies.get(uuid(1))).toMatchObject({ sortOrder: 0 });
      await expectFailure(
        store().strategies.insert({ ...strategy(5, 'cart', 'development'), sortOrder: undefined }),
        'CONFLICT',
        uuid(5),
      );
      expect(
        (await store().strategies.list({ featureName: 'cart', environment: 'development' })).length,
      ).toBe(0);
    });

    test('update replaces the strategy and its segment links; an unknown id is false', async () => {
      await seedFeatures(store(), 'checkout');
      const one = await store().segments.insert(segment('one'));
      const two = await store().segments.insert(segment('two'));
      await store().strategies.insert(strategy(1, 'checkout', 'production', { segments: [one.id] }));
      const changed = strategy(1, 'checkout', 'production', {
        name: 'userWithId',
        title: 'Staff',
        disabled: true,
        sortOrder: 4,
        segments: [two.id],
        parameters: { userIds: '1,2,3' },
      });
      expect(await store().strategies.update(changed)).toBe(true);
      expect(await store().strategies.get(uuid(1))).toEqual(changed);
      expect(await store().strategies.list({ segmentId: one.id })).toEqual([]);
      expect(await store().strategies.update(strategy(9, 'checkout', 'production'))).toBe(false);
      expect(await store().strategies.get(uuid(9))).toBeNull();
    });

    test('lists by feature, environment, sortOrder, createdAt, then id', async () => {
      await seedFeatures(store(), 'aaa', 'bbb');
      const rows = [
        strategy(1, 'bbb', 'development'),
        strategy(2, 'aaa', 'production'),
        strategy(3, 'aaa', 'development', { sortOrder: 5 }),
        strategy(4, 'aaa', 'development', { sortOrder: 1, createdAt: at(9) }),
        strategy(7, 'aaa', 'development', { sortOrder: 1, createdAt: at(3) }),
        strategy(6, 'aaa', 'development', { sortOrder: 1, createdAt: at(3) }),
      ];
      for (const row of rows) await store().strategies.insert(row);
      expect((await store().strategies.list({})).map((s) => s.id)).toEqual([6, 7, 4, 3, 2, 1].map(uuid));
    });

    test('filters by feature(s), environment, project and segment, combined', async () => {
      await seedFeatures(store(), 'one', 'two', 'three');
      await store().projects.insert(project('beta'));
      await store().features.insert(feature('four', 'beta'));
      const seg = await store().segments.insert(segment('seg'));
      await store().strategies.insert(strategy(1, 'one', 'development', { segments: [seg.id] }));
      await store().strategies.insert(strategy(2, 'one', 'production'));
      await store().strategies.insert(strategy(3, 'two', 'production', { segments: [seg.id] }));
      await store().strategies.insert(strategy(4, 'three', 'production'));
      await store().strategies.insert(
        strategy(5, 'four', 'production', { projectId: 'beta', segments: [seg.id] }),
      );
      const ids = async (filter: Parameters<Store['strategies']['list']>[0]) =>
        (await store().strategies.list(filter)).map((s) => s.id);

      expect(await ids({ featureName: 'one' })).toEqual([uuid(1), uuid(2)]);
      expect(await ids({ featureNames: ['two', 'one'] })).toEqual([uuid(1), uuid(2), uuid(3)]);
      expect(await ids({ featureNames: [] })).toEqual([]);
      expect(await ids({ environment: 'production' })).toEqual([uuid(5), uuid(2), uuid(4), uuid(3)]);
      expect(await ids({ projectId: 'beta' })).toEqual([uuid(5)]);
      expect(await ids({ segmentId: seg.id })).toEqual([uuid(5), uuid(1), uuid(3)]);
      expect(await ids({ segmentId: seg.id, environment: 'production', projectId: 'alpha' })).toEqual([
        uuid(3),
      ]);
      expect(await ids({ featureName: 'one', environment: 'development' })).toEqual([uuid(1)]);
      expect(await ids({ featureName: 'missing' })).toEqual([]);
    });

    test('delete removes one; deleteForFeatureEnvironment removes and counts the rest', async () => {
      await seedFeatures(store(), 'one', 'two');
      await store().strategies.insert(strategy(1, 'one', 'production'));
      await store().strategies.insert(strategy(2, 'one', 'production'));
      await store().strategies.insert(strategy(3, 'one', 'production'));
      await store().strategies.insert(strategy(4, 'one', 'development'));
      await store().strategies.insert(strategy(5, 'two', 'production'));
      expect(await store().strategies.delete(uuid(1))).toBe(true);
      expect(await store().strategies.delete(uuid(1))).toBe(false);
      expect(await store().strategies.deleteForFeatureEnvironment('one', 'production')).toBe(2);
      expect(await store().strategies.deleteForFeatureEnvironment('one', 'production')).toBe(0);
      expect((await store().strategies.list({})).map((s) => s.id)).toEqual([uuid(4), uuid(5)]);
    });
  });

  describe('dependencies', () => {
    const store = useStore(open);

    test('list orders by child then parent and filters by children', async () => {
      await seedFeatures(store(), 'child', 'kid', 'mum', 'dad');
      await store().dependencies.upsert({ child: 'kid', feature: 'mum', enabled: true, variants: [] });
      await store().dependencies.upsert({
        child: 'child',
        feature: 'mum',
        enabled: true,
        variants: ['blue', 'red'],
      });
      await store().dependencies.upsert({ child: 'child', feature: 'dad', enabled: false, variants: [] });
      expect(await store().dependencies.list()).toEqual([
        { child: 'child', feature: 'dad', enabled: false, variants: [] },
        { child: 'child', feature: 'mum', enabled: true, variants: ['blue', 'red'] },
        { child: 'kid', feature: 'mum', enabled: true, variants: [] },
      ]);
      expect((await store().dependencies.list(['kid'])).map((d) => d.feature)).toEqual(['mum']);
      expect(await store().dependencies.list([])).toEqual([]);
      expect(await store().dependencies.list(['mum'])).toEqual([]);
    });

    test('upsert replaces the link between the same child and parent', async () => {
      await seedFeatures(store(), 'child', 'parent');
      await store().dependencies.upsert({
        child: 'child',
        feature: 'parent',
        enabled: true,
        variants: ['a'],
      });
      await store().dependencies.upsert({ child: 'child', feature: 'parent', enabled: false, variants: [] });
      expect(await store().dependencies.list()).toEqual([
        { child: 'child', feature: 'parent', enabled: false, variants: [] },
      ]);
    });

    test('listByParents finds the children of the given parents', async () => {
      await seedFeatures(store(), 'one', 'two', 'three', 'mum', 'dad');
      await store().dependencies.upsert({ child: 'one', feature: 'mum', enabled: true, variants: [] });
      await store().dependencies.upsert({ child: 'two', feature: 'dad', enabled: true, variants: [] });
      await store().dependencies.upsert({ child: 'three', feature: 'one', enabled: true, variants: [] });
      const pairs = async (parents: string[]) =>
        (await store().dependencies.listByParents(parents)).map((d) => `${d.child}<${d.feature}`).sort();
      expect(await pairs(['mum', 'dad'])).toEqual(['one<mum', 'two<dad']);
      expect(await pairs(['one'])).toEqual(['three<one']);
      expect(await pairs(['three'])).toEqual([]);
      expect(await pairs([])).toEqual([]);
    });

    test('delete removes one link; deleteAll removes and counts a child’s links', async () => {
      await seedFeatures(store(), 'child', 'other', 'mum', 'dad');
      await store().dependencies.upsert({ child: 'child', feature: 'mum', enabled: true, variants: [] });
      await store().dependencies.upsert({ child: 'child', feature: 'dad', enabled: true, variants: [] });
      await store().dependencies.upsert({ child: 'other', feature: 'mum', enabled: true, variants: [] });
      expect(await store().dependencies.delete('child', 'mum')).toBe(true);
      expect(await store().dependencies.delete('child', 'mum')).toBe(false);
      await store().dependencies.upsert({ child: 'child', feature: 'mum', enabled: true, variants: [] });
      expect(await store().dependencies.deleteAll('child')).toBe(2);
      expect(await store().dependencies.deleteAll('child')).toBe(0);
      expect(await store().dependencies.list()).toEqual([
        { child: 'other', feature: 'mum', enabled: true, variants: [] },
      ]);
    });
  });
}
