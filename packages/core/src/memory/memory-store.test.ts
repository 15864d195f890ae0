import { describe, expect, test, vi } from 'vitest';
import type { Repositories } from '../ports/repositories.js';
import { at, event, expectFailure, feature, project, seedAlpha } from '../testing/fixtures.js';
import { describeStoreContract } from '../testing/store-contract.js';
import { withWriteTransactions } from '../testing/write-transactions.js';
import { createMemoryStore } from './memory-store.js';

describeStoreContract('memory', async () => createMemoryStore());

function gate(): { opened: Promise<void>; open: () => void } {
  let open = (): void => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe('memory store specifics', () => {
  test('values passed in and handed out are copies', async () => {
    const store = createMemoryStore();
    await seedAlpha(store);
    const input = feature('checkout', 'alpha');
    await withWriteTransactions(store).features.insert(input);
    input.description = 'mutated input';
    input.lifecycle.stage = 'live';

    const fetched = await store.features.get('checkout');
    fetched!.description = 'mutated output';
    fetched!.lifecycle.stage = 'completed';
    (await store.features.list())[0]!.stale = true;

    expect(await store.features.get('checkout')).toEqual(feature('checkout', 'alpha'));

    const data = { nested: { value: 'original' } };
    const [appended] = await withWriteTransactions(store).events.append([event('feature-created', { data })]);
    data.nested.value = 'mutated input';
    (appended!.data as typeof data).nested.value = 'mutated output';
    const [found] = await store.events.search({});
    (found!.data as typeof data).nested.value = 'mutated search result';
    expect((await store.events.search({}))[0]!.data).toEqual({ nested: { value: 'original' } });
  });

  test('JSON fields are stored as JSON would store them', async () => {
    const store = createMemoryStore();
    const [stored] = await withWriteTransactions(store).events.append([
      event('feature-created', { data: { when: new Date(at(5)), gone: undefined, list: [undefined, 1] } }),
    ]);
    expect(stored!.data).toEqual({ when: at(5), list: [null, 1] });
    expect(Object.keys(stored!.data as object)).not.toContain('gone');
  });

  test('a write outside a running transaction waits for it, so event ids follow commit order', async () => {
    const store = createMemoryStore();
    const hold = gate();
    const started = gate();
    const inside = store.transaction(async (tx) => {
      const [e] = await tx.events.append([event('feature-created')]);
      started.open();
      await hold.opened;
      return e!.id;
    });
    await started.opened;
    const outside = withWriteTransactions(store).events.append([event('feature-deleted')]);
    // A read outside does not wait: it answers from committed state at once.
    expect(await store.events.latestId()).toBe(0);
    hold.open();
    const insideId = await inside;
    const [outsideEvent] = await outside;
    expect(outsideEvent!.id).toBeGreaterThan(insideId);
    expect((await store.events.search({ ascending: true })).map((e) => e.type)).toEqual([
      'feature-created',
      'feature-deleted',
    ]);
  });

  test('a failed write outside a transaction leaves nothing behind', async () => {
    const store = createMemoryStore();
    await withWriteTransactions(store).projects.insert(project('alpha'));
    await expectFailure(
      withWriteTransactions(store).projects.insert(project('alpha', { name: 'copy' })),
      'CONFLICT',
      'alpha',
    );
    expect((await store.projects.list()).map((p) => p.name)).toEqual(['Project alpha']);
  });

  test('a transaction’s repositories are unusable once it has ended', async () => {
    const store = createMemoryStore();
    let leaked: Repositories | undefined;
    await store.transaction(async (tx) => {
      leaked = tx;
    });
    await expectFailure(leaked!.projects.list(), 'STORE_UNAVAILABLE');
    await expectFailure(leaked!.projects.insert(project('late')), 'STORE_UNAVAILABLE');
    expect(await store.projects.get('late')).toBeNull();
  });

  test('closing while a transaction runs makes it roll back', async () => {
    const store = createMemoryStore();
    const hold = gate();
    const outcome = store.transaction(async (tx) => {
      await tx.projects.insert(project('alpha'));
      await hold.opened;
    });
    await Promise.resolve();
    await store.close();
    hold.open();
    await expectFailure(outcome, 'STORE_UNAVAILABLE', 'memory');
  });

  test('the name option names the store in errors', async () => {
    const store = createMemoryStore({ name: 'scratch' });
    expect(store.name).toBe('scratch');
    await store.close();
    await store.close();
    await expectFailure(store.roles.list(), 'STORE_UNAVAILABLE', 'The scratch store is closed.');
  });

  describe('onEventsAppended', () => {
    test('fires once per commit that appended events, never for a rollback', async () => {
      const store = createMemoryStore();
      const listener = vi.fn();
      store.onEventsAppended!(listener);

      await store.transaction(async (tx) => {
        await tx.events.append([event('feature-created')]);
        await tx.events.append([event('feature-updated')]);
        expect(listener).not.toHaveBeenCalled();
      });
      expect(listener).toHaveBeenCalledTimes(1);

      await withWriteTransactions(store).events.append([event('feature-deleted')]);
      expect(listener).toHaveBeenCalledTimes(2);

      await store.transaction(async (tx) => tx.projects.insert(project('alpha')));
      await withWriteTransactions(store).projects.insert(project('beta'));
      await expect(
        store.transaction(async (tx) => {
          await tx.events.append([event('feature-created')]);
          throw new Error('no');
        }),
      ).rejects.toThrow('no');
      expect(listener).toHaveBeenCalledTimes(2);
    });

    test('unsubscribes, and a failing listener is logged without failing the write', async () => {
      const error = vi.fn();
      const store = createMemoryStore({ logger: { info() {}, warn() {}, error } });
      const quiet = vi.fn();
      const unsubscribe = store.onEventsAppended!(quiet);
      store.onEventsAppended!(() => {
        throw new Error('listener broke');
      });
      unsubscribe();
      const [appended] = await withWriteTransactions(store).events.append([event('feature-created')]);
      expect(appended!.id).toBe(1);
      expect(quiet).not.toHaveBeenCalled();
      expect(error).toHaveBeenCalledWith(
        'An onEventsAppended listener failed.',
        expect.objectContaining({ store: 'memory' }),
      );
    });
  });
});
