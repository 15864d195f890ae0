import { describe, expect, test } from 'vitest';
import type { EventQuery, FlagstaffEvent } from '../domain/event.js';
import type { Store } from '../ports/store.js';
import { at, event, type StoreFactory, useStore } from './fixtures.js';
import { withWriteTransactions } from './write-transactions.js';

/** Seven events, e1 oldest, one minute apart; each line notes what the search tests rely on. */
const LOG = [
  event('feature-created', {
    project: 'alpha',
    featureName: 'checkout',
    createdBy: 'ann@example.com',
    createdAt: at(1),
    data: { name: 'checkout', description: 'Redesigned checkout for mobile users' },
    tags: [{ type: 'simple', value: 'beta' }],
  }),
  event('feature-strategy-add', {
    project: 'alpha',
    featureName: 'checkout',
    environment: 'production',
    createdBy: 'ann@example.com',
    createdAt: at(2),
    data: { name: 'flexibleRollout', parameters: { rollout: '25' } },
  }),
  event('feature-created', {
    project: 'beta',
    featureName: 'search',
    createdBy: 'bob@example.com',
    createdAt: at(3),
    data: { name: 'search', description: 'Faster search backend' },
  }),
  event('feature-metadata-updated', {
    project: 'alpha',
    featureName: 'checkout',
    createdBy: 'admin-token',
    createdAt: at(4),
    data: { description: 'Checkout version two' },
    preData: { description: 'Legacy payment provider' },
  }),
  event('segment-created', {
    createdBy: 'bob@example.com',
    createdAt: at(5),
    data: { name: 'internal staff' },
  }),
  event('feature-strategy-add', {
    project: 'beta',
    featureName: 'search',
    environment: 'development',
    createdBy: 'ann@example.com',
    createdAt: at(6),
    data: { name: 'default' },
  }),
  event('feature-archived', {
    project: 'alpha',
    featureName: 'checkout',
    createdBy: 'bob@example.com',
    createdAt: at(7),
  }),
];

/** Appends LOG and returns helpers that speak in labels (`e1`…`e7`) instead of store-assigned ids. */
async function seedLog(store: Store) {
  const appended = await withWriteTransactions(store).events.append(LOG);
  const labelOf = new Map(appended.map((e, i) => [e.id, `e${i + 1}`]));
  const id = (label: string): number => {
    const found = appended[Number(label.slice(1)) - 1];
    if (!found) throw new Error(`No event ${label}`);
    return found.id;
  };
  const labels = (events: readonly FlagstaffEvent[]) => events.map((e) => labelOf.get(e.id) ?? `?${e.id}`);
  const search = async (query: EventQuery) => labels(await store.events.search(query));
  return { id, search, count: (query: Omit<EventQuery, 'limit'>) => store.events.count(query) };
}

/** Event search: filters, order, cursors, limits, counts and free text. */
export function describeEventSearchContract(open: StoreFactory): void {
  describe('events: search and count', () => {
    const store = useStore(open);

    test('newest first by default, oldest first with ascending, at most limit', async () => {
      const log = await seedLog(store());
      expect(await log.search({})).toEqual(['e7', 'e6', 'e5', 'e4', 'e3', 'e2', 'e1']);
      expect(await log.search({ ascending: true })).toEqual(['e1', 'e2', 'e3', 'e4', 'e5', 'e6', 'e7']);
      expect(await log.search({ limit: 3 })).toEqual(['e7', 'e6', 'e5']);
      expect(await log.search({ limit: 2, ascending: true })).toEqual(['e1', 'e2']);
      expect(await log.search({ limit: 100 })).toHaveLength(7);
    });

    test('type, project and feature are exact filters that combine', async () => {
      const log = await seedLog(store());
      expect(await log.search({ type: 'feature-strategy-add' })).toEqual(['e6', 'e2']);
      expect(await log.search({ project: 'alpha' })).toEqual(['e7', 'e4', 'e2', 'e1']);
      expect(await log.search({ feature: 'search' })).toEqual(['e6', 'e3']);
      expect(await log.search({ type: 'feature-created', project: 'beta' })).toEqual(['e3']);
      expect(await log.search({ project: 'alpha', feature: 'search' })).toEqual([]);
      expect(await log.search({ project: 'alph' })).toEqual([]);
      expect(await log.search({ feature: 'Checkout' })).toEqual([]);
      expect(
        await log.search({ type: 'feature-created', project: 'alpha', feature: 'checkout', limit: 1 }),
      ).toEqual(['e1']);
    });

    test('maxId and afterId bound the ids, inclusive and exclusive', async () => {
      const log = await seedLog(store());
      expect(await log.search({ maxId: log.id('e4') })).toEqual(['e4', 'e3', 'e2', 'e1']);
      expect(await log.search({ afterId: log.id('e4') })).toEqual(['e7', 'e6', 'e5']);
      expect(await log.search({ afterId: log.id('e2'), maxId: log.id('e5') })).toEqual(['e5', 'e4', 'e3']);
      expect(await log.search({ afterId: log.id('e4'), ascending: true, limit: 2 })).toEqual(['e5', 'e6']);
      expect(await log.search({ afterId: log.id('e7') })).toEqual([]);
      expect(await log.search({ maxId: 0 })).toEqual([]);
      expect(await log.search({ afterId: 0 })).toHaveLength(7);
    });

    test('createdAfter and createdBefore are strict bounds on createdAt', async () => {
      const log = await seedLog(store());
      expect(await log.search({ createdAfter: at(3) })).toEqual(['e7', 'e6', 'e5', 'e4']);
      expect(await log.search({ createdBefore: at(3) })).toEqual(['e2', 'e1']);
      expect(await log.search({ createdAfter: at(2), createdBefore: at(6) })).toEqual(['e5', 'e4', 'e3']);
      expect(await log.search({ createdAfter: at(7) })).toEqual([]);
      expect(await log.search({ createdAfter: at(0), project: 'beta' })).toEqual(['e6', 'e3']);
    });

    test('paging with maxId = last id − 1 visits every match exactly once', async () => {
      const log = await seedLog(store());
      const pages = async (query: EventQuery): Promise<string[][]> => {
        const result: string[][] = [];
        let maxId: number | undefined;
        for (let guard = 0; guard < 10; guard++) {
          const page = await log.search({ ...query, maxId });
          if (page.length === 0) return result;
          result.push(page);
          maxId = log.id(page.at(-1) as string) - 1;
        }
        throw new Error('paging did not end');
      };
      expect(await pages({ limit: 3 })).toEqual([['e7', 'e6', 'e5'], ['e4', 'e3', 'e2'], ['e1']]);
      expect(await pages({ limit: 2, project: 'alpha' })).toEqual([
        ['e7', 'e4'],
        ['e2', 'e1'],
      ]);
    });

    test('count applies every filter and ignores nothing but the limit', async () => {
      const log = await seedLog(store());
      expect(await log.count({})).toBe(7);
      expect(await log.count({ type: 'feature-strategy-add' })).toBe(2);
      expect(await log.count({ project: 'alpha', feature: 'checkout' })).toBe(4);
      expect(await log.count({ maxId: log.id('e4') })).toBe(4);
      expect(await log.count({ afterId: log.id('e4'), project: 'alpha' })).toBe(1);
      expect(await log.count({ createdAfter: at(2), createdBefore: at(6) })).toBe(3);
      expect(await log.count({ query: 'bob@example' })).toBe(3);
      expect(await log.count({ query: 'zebra' })).toBe(0);
      expect(await log.count({ ascending: true, project: 'beta' })).toBe(2);
    });

    test('query matches substrings of the type, in any case', async () => {
      const log = await seedLog(store());
      expect(await log.search({ query: 'strategy' })).toEqual(['e6', 'e2']);
      expect(await log.search({ query: 'STRATEGY-ADD' })).toEqual(['e6', 'e2']);
      expect(await log.search({ query: 'metadata-upd' })).toEqual(['e4']);
    });

    test('query matches substrings of the creator', async () => {
      const log = await seedLog(store());
      expect(await log.search({ query: 'bob@example' })).toEqual(['e7', 'e5', 'e3']);
      expect(await log.search({ query: 'dmin-tok' })).toEqual(['e4']);
      expect(await log.search({ query: 'ANN@EXAMPLE.COM' })).toEqual(['e6', 'e2', 'e1']);
    });

    test('query matches whole words and word prefixes in data and preData', async () => {
      const log = await seedLog(store());
      expect(await log.search({ query: 'mobile' })).toEqual(['e1']);
      expect(await log.search({ query: 'Mobile' })).toEqual(['e1']);
      expect(await log.search({ query: 'redesig' })).toEqual(['e1']);
      expect(await log.search({ query: 'fast' })).toEqual(['e3']);
      expect(await log.search({ query: 'legacy' })).toEqual(['e4']);
      expect(await log.search({ query: 'paym' })).toEqual(['e4']);
      expect(await log.search({ query: 'staff' })).toEqual(['e5']);
      expect(await log.search({ query: 'flexiblerollout' })).toEqual(['e2']);
      // Only the payloads count: e2 and e7 are about feature "checkout" but do not mention it.
      expect(await log.search({ query: 'checkout' })).toEqual(['e4', 'e1']);
    });

    test('query finds nothing for unrelated text and combines with the other filters', async () => {
      const log = await seedLog(store());
      expect(await log.search({ query: 'zebra' })).toEqual([]);
      expect(await log.search({ query: 'kubernetes' })).toEqual([]);
      expect(await log.search({ query: 'ann@', type: 'feature-created' })).toEqual(['e1']);
      expect(await log.search({ query: 'bob@example', limit: 2 })).toEqual(['e7', 'e5']);
      expect(await log.search({ query: 'bob@example', maxId: log.id('e5') - 1 })).toEqual(['e3']);
      expect(await log.search({ query: 'bob@example', ascending: true })).toEqual(['e3', 'e5', 'e7']);
      expect(await log.search({ query: 'mobile', project: 'beta' })).toEqual([]);
    });

    test('excludeProjects leaves out those projects before the limit, never events without a project', async () => {
      const log = await seedLog(store());
      expect(await log.search({ excludeProjects: ['alpha'] })).toEqual(['e6', 'e5', 'e3']);
      expect(await log.search({ excludeProjects: ['alpha'], limit: 2 })).toEqual(['e6', 'e5']);
      expect(await log.search({ excludeProjects: ['alpha', 'beta'] })).toEqual(['e5']);
      expect(await log.search({ excludeProjects: ['alpha'], ascending: true, limit: 1 })).toEqual(['e3']);
      expect(await log.search({ excludeProjects: ['alpha'], type: 'feature-created' })).toEqual(['e3']);
      expect(await log.search({ excludeProjects: ['alpha'], project: 'alpha' })).toEqual([]);
      expect(await log.search({ excludeProjects: ['alpha'], project: 'beta' })).toEqual(['e6', 'e3']);
      expect(await log.search({ excludeProjects: ['beta'], maxId: log.id('e5') })).toEqual([
        'e5',
        'e4',
        'e2',
        'e1',
      ]);
      expect(await log.search({ excludeProjects: [] })).toHaveLength(7);
      expect(await log.search({ excludeProjects: ['gamma', 'alph'] })).toHaveLength(7);
      expect(await log.count({ excludeProjects: ['alpha'] })).toBe(3);
      expect(await log.count({ excludeProjects: ['alpha', 'beta'] })).toBe(1);
      expect(await log.count({ excludeProjects: ['beta'], afterId: log.id('e4') })).toBe(2);
    });

    test('excludeProjects with a text query still fills pages and counts what it returns', async () => {
      const log = await seedLog(store());
      // The newest "bob@example" match (e7) is in alpha: an index that stopped at the limit before
      // leaving alpha out would return an empty page here.
      expect(await log.search({ query: 'bob@example', excludeProjects: ['alpha'], limit: 1 })).toEqual([
        'e5',
      ]);
      expect(await log.search({ query: 'bob@example', excludeProjects: ['alpha'] })).toEqual(['e5', 'e3']);
      expect(
        await log.search({ query: 'bob@example', excludeProjects: ['beta'], ascending: true, limit: 1 }),
      ).toEqual(['e5']);
      expect(await log.count({ query: 'bob@example', excludeProjects: ['alpha'] })).toBe(2);
      // Paging through the matches of ann (e6 beta, e2 and e1 alpha) without beta.
      expect(await log.search({ query: 'ann@example.com', excludeProjects: ['beta'], limit: 1 })).toEqual([
        'e2',
      ]);
      expect(
        await log.search({
          query: 'ann@example.com',
          excludeProjects: ['beta'],
          maxId: log.id('e2') - 1,
          limit: 1,
        }),
      ).toEqual(['e1']);
      expect(await log.search({ query: 'checkout', excludeProjects: ['alpha'] })).toEqual([]);
      expect(
        await log.search({ query: 'strategy', type: 'feature-strategy-add', excludeProjects: ['alpha'] }),
      ).toEqual(['e6']);
      expect(await log.search({ query: 'staff', excludeProjects: ['alpha', 'beta'], limit: 1 })).toEqual([
        'e5',
      ]);
      expect(await log.count({ query: 'mobile', excludeProjects: ['beta'], createdAfter: at(0) })).toBe(1);
    });

    test('an empty or blank query filters nothing', async () => {
      const log = await seedLog(store());
      expect(await log.search({ query: '' })).toHaveLength(7);
      expect(await log.search({ query: '   ' })).toHaveLength(7);
      expect(await log.count({ query: '' })).toBe(7);
    });
  });
}
