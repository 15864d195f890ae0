import { describe, expect, test } from 'vitest';
import { BUILT_IN_ROLES } from '../domain/user.js';
import type { Store } from '../ports/store.js';
import {
  at,
  event,
  expectFailure,
  feature,
  project,
  type StoreFactory,
  seedAlpha,
  useStore,
} from './fixtures.js';
import { withWriteTransactions } from './write-transactions.js';

/** A promise and the function that settles it, to hold a transaction open at a chosen point. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open = (): void => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** Transactions, and what a new and a closed store look like. */
export function describeTransactionContract(open: StoreFactory): void {
  describe('transactions', () => {
    const store = useStore(open);

    test('commit: the result is returned and state and events are visible after', async () => {
      await seedAlpha(store());
      const result = await store().transaction(async (tx) => {
        await tx.features.insert(feature('checkout', 'alpha'));
        const [appended] = await tx.events.append([
          event('feature-created', { project: 'alpha', featureName: 'checkout' }),
        ]);
        // Inside, the transaction sees its own writes.
        expect(await tx.features.get('checkout')).toEqual(feature('checkout', 'alpha'));
        expect(await tx.events.latestId()).toBe(appended!.id);
        expect((await tx.events.search({ feature: 'checkout' })).map((e) => e.id)).toEqual([appended!.id]);
        return appended!.id;
      });
      expect(await store().features.get('checkout')).toEqual(feature('checkout', 'alpha'));
      expect(await store().events.latestId()).toBe(result);
      expect(await store().events.count({ feature: 'checkout' })).toBe(1);
    });

    test('a throw rolls back every insert, update, delete and event, and is rethrown as is', async () => {
      await seedAlpha(store());
      await store().features.insert(feature('kept', 'alpha', { description: 'before' }));
      await store().features.insert(feature('doomed', 'alpha'));
      const [before] = await store().events.append([event('feature-created', { featureName: 'kept' })]);
      const failure = new Error('boom');

      const outcome = store().transaction(async (tx) => {
        await tx.features.insert(feature('new', 'alpha'));
        await tx.features.update(feature('kept', 'alpha', { description: 'after' }));
        await tx.features.delete('doomed');
        await tx.projects.insert(project('beta'));
        await tx.segments.insert({
          name: 'seg',
          description: null,
          project: null,
          constraints: [],
          createdAt: at(0),
          createdBy: null,
        });
        await tx.events.append([
          event('feature-created', { featureName: 'new', data: { word: 'rolledback' } }),
        ]);
        throw failure;
      });
      await expect(outcome).rejects.toBe(failure);

      expect(await store().features.get('new')).toBeNull();
      expect((await store().features.get('kept'))?.description).toBe('before');
      expect(await store().features.get('doomed')).toEqual(feature('doomed', 'alpha'));
      expect(await store().projects.get('beta')).toBeNull();
      expect(await store().segments.list()).toEqual([]);
      expect(await store().events.latestId()).toBe(before!.id);
      expect(await store().events.count({})).toBe(1);
      expect(await store().events.search({ query: 'rolledback' })).toEqual([]);
    });

    test('a conflict inside a transaction rolls back what came before it', async () => {
      await seedAlpha(store());
      await store().features.insert(feature('taken', 'alpha'));
      await expectFailure(
        store().transaction(async (tx) => {
          await tx.features.insert(feature('fresh', 'alpha'));
          await tx.events.append([event('feature-created', { featureName: 'fresh' })]);
          await tx.features.insert(feature('taken', 'alpha'));
        }),
        'CONFLICT',
        'taken',
      );
      expect(await store().features.get('fresh')).toBeNull();
      expect(await store().events.count({})).toBe(0);
    });

    test('the store keeps working after a rollback, and later events get larger ids', async () => {
      await seedAlpha(store());
      const [first] = await store().transaction((tx) => tx.events.append([event('feature-created')]));
      await expect(
        store().transaction(async (tx) => {
          await tx.events.append([event('feature-deleted')]);
          throw new Error('no');
        }),
      ).rejects.toThrow('no');
      const [second] = await store().transaction((tx) => tx.events.append([event('feature-archived')]));
      const [third] = await store().events.append([event('feature-revived')]);
      expect(second!.id).toBeGreaterThan(first!.id);
      expect(third!.id).toBeGreaterThan(second!.id);
      expect((await store().events.search({ ascending: true })).map((e) => e.type)).toEqual([
        'feature-created',
        'feature-archived',
        'feature-revived',
      ]);
    });

    test('concurrent transactions are serializable: no update is lost', async () => {
      await store().projects.insert(project('alpha', { featureLimit: 0 }));
      const increment = (tx: Parameters<Parameters<Store['transaction']>[0]>[0]) => async () => {
        const current = await tx.projects.get('alpha');
        // Give the other transaction every chance to interleave between the read and the write.
        for (let i = 0; i < 5; i++) await Promise.resolve();
        await tx.projects.update({ ...current!, featureLimit: (current!.featureLimit ?? 0) + 1 });
      };
      await Promise.all([
        store().transaction((tx) => increment(tx)()),
        store().transaction((tx) => increment(tx)()),
        store().transaction((tx) => increment(tx)()),
      ]);
      expect((await store().projects.get('alpha'))?.featureLimit).toBe(3);
    });

    test('a read issued while a transaction is open never sees its writes if it rolls back', async () => {
      const hold = gate();
      const writing = gate();
      const outcome = store().transaction(async (tx) => {
        await tx.projects.insert(project('ghost'));
        writing.open();
        await hold.opened;
        throw new Error('rolled back');
      });
      await writing.opened;
      const read = store().projects.get('ghost');
      const listed = store().projects.list();
      hold.open();
      await expect(outcome).rejects.toThrow('rolled back');
      expect(await read).toBeNull();
      expect(await listed).toEqual([]);
      expect(await store().projects.get('ghost')).toBeNull();
    });

    test('a transaction that writes nothing returns its value', async () => {
      expect(await store().transaction(async (tx) => (await tx.projects.list()).length)).toBe(0);
      expect(await store().events.latestId()).toBe(0);
    });
  });

  describe('store lifecycle', () => {
    test('a new store is empty apart from the built-in roles', async () => {
      const store = await open();
      try {
        expect(await store.projects.list()).toEqual([]);
        expect(await store.environments.list()).toEqual([]);
        expect(await store.features.list()).toEqual([]);
        expect(await store.users.list()).toEqual([]);
        expect(await store.tags.listTypes()).toEqual([]);
        expect(await store.contextFields.list()).toEqual([]);
        expect(await store.events.latestId()).toBe(0);
        expect((await store.roles.list()).map((r) => r.id)).toEqual(
          BUILT_IN_ROLES.map((r) => r.id).sort((a, b) => a - b),
        );
        expect(store.name).toEqual(expect.any(String));
        expect(store.name.length).toBeGreaterThan(0);
      } finally {
        await store.close();
      }
    });

    test('stores opened by the factory are isolated from each other', async () => {
      const one = await open();
      const two = await open();
      try {
        await withWriteTransactions(one).projects.insert(project('alpha'));
        await withWriteTransactions(one).events.append([event('project-created', { project: 'alpha' })]);
        expect(await two.projects.get('alpha')).toBeNull();
        expect(await two.events.latestId()).toBe(0);
      } finally {
        await one.close();
        await two.close();
      }
    });

    test('after close, reads, writes and transactions fail with STORE_UNAVAILABLE', async () => {
      const store = await open();
      await withWriteTransactions(store).projects.insert(project('alpha'));
      await store.close();
      // The port asks the message to name the store.
      await expectFailure(store.projects.list(), 'STORE_UNAVAILABLE', store.name);
      await expectFailure(store.projects.get('alpha'), 'STORE_UNAVAILABLE');
      await expectFailure(withWriteTransactions(store).projects.insert(project('beta')), 'STORE_UNAVAILABLE');
      await expectFailure(
        withWriteTransactions(store).events.append([event('feature-created')]),
        'STORE_UNAVAILABLE',
      );
      await expectFailure(store.events.search({}), 'STORE_UNAVAILABLE');
      await expectFailure(
        store.transaction(async () => 1),
        'STORE_UNAVAILABLE',
      );
    });
  });
}
