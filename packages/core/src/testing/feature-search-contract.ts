import { describe, expect, test } from 'vitest';
import { ALL_PROJECTS, type ProjectVisibility } from '../auth/principal.js';
import { featureSearchParamsSchema } from '../domain/feature-search.js';
import type { Store } from '../ports/store.js';
import {
  at,
  feature,
  featureEnvironment,
  project,
  type StoreFactory,
  seedAlpha,
  segment,
  strategy,
  useStore,
} from './fixtures.js';
import { withWriteTransactions } from './write-transactions.js';

/**
 * alpha: checkout (release, tags simple:web + team:pay, seen 30, enabled in production),
 * basket (experiment, stale, "Shopping_Cart 100%" description, seen 10, segment beta-users),
 * zeta (operational, live stage, never seen); beta (private): banner (release, tag simple:web);
 * an archived `old` in alpha. Created at 3, 1, 2, 4 and 0 minutes.
 */
async function seedSearch(store: Store): Promise<void> {
  await seedAlpha(store);
  await withWriteTransactions(store).projects.insert(project('beta', { mode: 'private' }));
  await withWriteTransactions(store).features.insert(feature('checkout', 'alpha', { createdAt: at(3) }));
  await withWriteTransactions(store).features.insert(
    feature('basket', 'alpha', {
      type: 'experiment',
      stale: true,
      description: 'Shopping_Cart 100%',
      createdAt: at(1),
    }),
  );
  await withWriteTransactions(store).features.insert(
    feature('zeta', 'alpha', {
      type: 'operational',
      createdAt: at(2),
      lifecycle: { stage: 'live', enteredStageAt: at(2) },
    }),
  );
  await withWriteTransactions(store).features.insert(feature('banner', 'beta', { createdAt: at(4) }));
  await withWriteTransactions(store).features.insert(
    feature('old', 'alpha', { createdAt: at(0), archivedAt: at(9) }),
  );
  for (const row of [
    featureEnvironment('checkout', 'development', { lastSeenAt: at(30) }),
    featureEnvironment('checkout', 'production', { enabled: true, lastSeenAt: at(20) }),
    featureEnvironment('basket', 'development', { lastSeenAt: at(10) }),
    featureEnvironment('basket', 'production'),
    featureEnvironment('zeta', 'production'),
  ])
    await withWriteTransactions(store).featureEnvironments.upsert(row);
  await withWriteTransactions(store).tags.insertType({ name: 'simple', description: null, icon: null });
  await withWriteTransactions(store).tags.insertType({ name: 'team', description: null, icon: null });
  for (const [name, type, value] of [
    ['checkout', 'simple', 'web'],
    ['checkout', 'team', 'pay'],
    ['banner', 'simple', 'web'],
  ] as const) {
    await withWriteTransactions(store).tags.ensureTag({ type, value });
    await withWriteTransactions(store).tags.addFeatureTag(name, { type, value });
  }
  const beta = await withWriteTransactions(store).segments.insert(segment('beta-users'));
  await withWriteTransactions(store).strategies.insert(
    strategy(1, 'basket', 'development', { segments: [beta.id] }),
  );
  await withWriteTransactions(store).strategies.insert(strategy(2, 'checkout', 'production'));
}

/** The feature table's search: every filter, each sort, paging and project visibility. */
export function describeFeatureSearchContract(open: StoreFactory): void {
  describe('feature search', () => {
    const store = useStore(open);
    const search = async (
      params: Record<string, unknown> = {},
      visibility: ProjectVisibility = ALL_PROJECTS,
    ) => {
      const result = await store().featureSearch.search(featureSearchParamsSchema.parse(params), visibility);
      return { names: result.features.map((f) => f.name), total: result.total, features: result.features };
    };

    test('by default: live features by createdAt ascending, with the total', async () => {
      await seedSearch(store());
      const all = await search();
      expect(all.names).toEqual(['basket', 'zeta', 'checkout', 'banner']);
      expect(all.total).toBe(4);
      expect(all.features[0]).toEqual(
        feature('basket', 'alpha', {
          type: 'experiment',
          stale: true,
          description: 'Shopping_Cart 100%',
          createdAt: at(1),
        }),
      );
      expect((await search({ archived: 'IS:true' })).names).toEqual(['old']);
    });

    test('pages with offset and limit; a page past the end is empty but keeps the total', async () => {
      await seedSearch(store());
      expect(await search({ limit: '2' })).toMatchObject({ names: ['basket', 'zeta'], total: 4 });
      expect(await search({ limit: '2', offset: '2' })).toMatchObject({
        names: ['checkout', 'banner'],
        total: 4,
      });
      expect(await search({ limit: '2', offset: '9' })).toMatchObject({ names: [], total: 4 });
      expect(await search({ query: 'nothing-like-it' })).toMatchObject({ names: [], total: 0 });
    });

    test('sorts by name, type, createdAt, lastSeenAt (never seen last) and an environment', async () => {
      await seedSearch(store());
      expect((await search({ sortBy: 'name' })).names).toEqual(['banner', 'basket', 'checkout', 'zeta']);
      expect((await search({ sortBy: 'name', sortOrder: 'desc' })).names).toEqual([
        'zeta',
        'checkout',
        'basket',
        'banner',
      ]);
      expect((await search({ sortBy: 'createdAt', sortOrder: 'desc' })).names).toEqual([
        'banner',
        'checkout',
        'zeta',
        'basket',
      ]);
      expect((await search({ sortBy: 'type' })).names).toEqual(['basket', 'zeta', 'banner', 'checkout']);
      expect((await search({ sortBy: 'lastSeenAt' })).names).toEqual([
        'basket',
        'checkout',
        'banner',
        'zeta',
      ]);
      expect((await search({ sortBy: 'lastSeenAt', sortOrder: 'desc' })).names).toEqual([
        'checkout',
        'basket',
        'banner',
        'zeta',
      ]);
      expect((await search({ sortBy: 'environment:production', sortOrder: 'desc' })).names).toEqual([
        'checkout',
        'banner',
        'basket',
        'zeta',
      ]);
    });

    test('filters by project, type, state and lifecycle with every operator', async () => {
      await seedSearch(store());
      expect((await search({ project: 'IS:beta' })).names).toEqual(['banner']);
      expect((await search({ project: 'IS_ANY_OF:beta,alpha' })).total).toBe(4);
      expect((await search({ project: 'IS_NOT:alpha' })).names).toEqual(['banner']);
      expect((await search({ type: 'IS_ANY_OF:experiment,operational' })).names).toEqual(['basket', 'zeta']);
      expect((await search({ type: 'IS_NONE_OF:release' })).names).toEqual(['basket', 'zeta']);
      expect((await search({ state: 'IS:stale' })).names).toEqual(['basket']);
      expect((await search({ state: 'IS:active' })).names).toEqual(['zeta', 'checkout', 'banner']);
      expect((await search({ state: 'IS_NOT:active' })).names).toEqual(['basket']);
      expect((await search({ state: 'IS_NONE_OF:active,stale' })).names).toEqual([]);
      expect((await search({ lifecycle: 'IS:live' })).names).toEqual(['zeta']);
    });

    test('filters by the on/off state per environment (a missing row is off)', async () => {
      await seedSearch(store());
      expect((await search({ status: 'IS:production:enabled' })).names).toEqual(['checkout']);
      expect((await search({ status: 'IS_ANY_OF:production:enabled,development:enabled' })).names).toEqual([
        'checkout',
      ]);
      expect((await search({ status: 'IS_NOT:production:enabled' })).names).toEqual([
        'basket',
        'zeta',
        'banner',
      ]);
      expect((await search({ status: 'IS:production:disabled' })).names).toEqual([
        'basket',
        'zeta',
        'banner',
      ]);
    });

    test('filters by tags and segments in each mode', async () => {
      await seedSearch(store());
      expect((await search({ tag: 'INCLUDE:simple:web' })).names).toEqual(['checkout', 'banner']);
      expect((await search({ tag: 'INCLUDE_ALL_OF:simple:web,team:pay' })).names).toEqual(['checkout']);
      expect((await search({ tag: 'INCLUDE_ANY_OF:team:pay,simple:nope' })).names).toEqual(['checkout']);
      expect((await search({ tag: 'DO_NOT_INCLUDE:simple:web' })).names).toEqual(['basket', 'zeta']);
      expect((await search({ tag: 'EXCLUDE_ALL:simple:web,team:pay' })).names).toEqual([
        'basket',
        'zeta',
        'banner',
      ]);
      expect((await search({ segment: 'INCLUDE:beta-users' })).names).toEqual(['basket']);
      expect((await search({ segment: 'EXCLUDE_IF_ANY_OF:beta-users' })).names).toEqual([
        'zeta',
        'checkout',
        'banner',
      ]);
    });

    test('free text matches name, description or type:value tags, any word, ignoring case', async () => {
      await seedSearch(store());
      expect((await search({ query: 'CHECK' })).names).toEqual(['checkout']);
      expect((await search({ query: 'shopping_cart' })).names).toEqual(['basket']);
      expect((await search({ query: 'team:p' })).names).toEqual(['checkout']);
      expect((await search({ query: 'web' })).names).toEqual(['checkout', 'banner']);
      expect((await search({ query: 'zet, banner' })).names).toEqual(['zeta', 'banner']);
      // LIKE wildcards in the text are literal.
      expect((await search({ query: '100%' })).names).toEqual(['basket']);
      expect((await search({ query: 'shoppin_' })).names).toEqual([]);
      expect((await search({ query: 'shopping%cart' })).names).toEqual([]);
      expect((await search({ query: '%' })).names).toEqual(['basket']);
    });

    test('free text follows features inserted, described anew, moved, archived and deleted', async () => {
      await seedSearch(store());
      await store().transaction(async (tx) => {
        await tx.features.insert(feature('Rare-Gizmo', 'alpha', { createdAt: at(5) }));
        await tx.features.insert(feature('gadget', 'alpha', { description: 'Holds a RARE-gizmo part' }));
      });
      expect((await search({ query: 'rare-giz' })).names).toEqual(['gadget', 'Rare-Gizmo']);
      const gadget = (await store().features.get('gadget'))!;
      await store().transaction((tx) => tx.features.update({ ...gadget, description: 'nothing of note' }));
      expect((await search({ query: 'rare-giz' })).names).toEqual(['Rare-Gizmo']);
      expect((await search({ query: 'of note' })).names).toEqual(['gadget']);
      await store().transaction((tx) =>
        tx.features.update({ ...gadget, description: null, project: 'beta' }),
      );
      expect((await search({ query: 'gadge', project: 'IS:beta' })).names).toEqual(['gadget']);
      expect((await search({ query: 'of note' })).names).toEqual([]);
      const rare = (await store().features.get('Rare-Gizmo'))!;
      await store().transaction((tx) => tx.features.update({ ...rare, archivedAt: at(9) }));
      expect((await search({ query: 'gizmo' })).names).toEqual([]);
      expect((await search({ query: 'gizmo', archived: 'IS:true' })).names).toEqual(['Rare-Gizmo']);
      await store().transaction(async (tx) => {
        await tx.features.delete('Rare-Gizmo');
        await tx.features.delete('gadget');
      });
      expect((await search({ query: 'gizmo', archived: 'IS:true' })).names).toEqual([]);
      expect((await search({ query: 'gadge', project: 'IS:beta' })).names).toEqual([]);
      // A name of one or two characters, which a trigram index cannot hold, is still found and removed.
      await store().transaction((tx) => tx.features.insert(feature('q', 'alpha', { createdAt: at(5) })));
      expect((await search({ query: 'q' })).names).toEqual(['q']);
      await store().transaction((tx) => tx.features.delete('q'));
      expect((await search({ query: 'q' })).names).toEqual([]);
      // Name and description are two texts: a term never matches across from one into the other
      // (PostgreSQL's trigram index holds them joined by a line feed).
      await store().transaction((tx) =>
        tx.features.insert(feature('ends-in-x', 'alpha', { description: 'y begins here' })),
      );
      expect((await search({ query: 'x\ny' })).names).toEqual([]);
      expect((await search({ query: 'in-x' })).names).toEqual(['ends-in-x']);
      expect((await search({ query: 'y begins' })).names).toEqual(['ends-in-x']);
    });

    test('free text over many matches and few pages and counts alike', async () => {
      await seedSearch(store());
      // More matches than a store may read through an index before reading the page in order instead.
      const many = 1_100;
      await store().transaction(async (tx) => {
        for (let i = 0; i < many; i++)
          await tx.features.insert(
            feature(`bulk-${String(i).padStart(4, '0')}`, 'alpha', {
              createdAt: at(10),
              description: i % 500 === 7 ? 'the odd one' : null,
            }),
          );
      });
      const dense = await search({ query: 'bulk-', sortBy: 'name', limit: '3', offset: '2' });
      expect(dense).toMatchObject({ names: ['bulk-0002', 'bulk-0003', 'bulk-0004'], total: many });
      const few = await search({ query: 'odd one, bulk-1099, web', sortBy: 'name', limit: '3' });
      expect(few.names).toEqual(['banner', 'bulk-0007', 'bulk-0507']);
      expect(few.total).toBe(6);
    });

    test('filters by createdAt and lastSeenAt days', async () => {
      await seedSearch(store());
      await store().features.insert(feature('later', 'alpha', { createdAt: '2026-01-02T10:00:00.000Z' }));
      expect((await search({ createdAt: 'IS_ON_OR_AFTER:2026-01-02' })).names).toEqual(['later']);
      expect((await search({ createdAt: 'IS_BEFORE:2026-01-02' })).total).toBe(4);
      expect((await search({ lastSeenAt: 'IS_ON_OR_AFTER:2026-01-01' })).names).toEqual([
        'basket',
        'checkout',
      ]);
      expect((await search({ lastSeenAt: 'IS_BEFORE:2026-01-01' })).names).toEqual([]);
    });

    test('lastSeenAt follows sightings, rewrites and removed rows of the environments', async () => {
      await seedSearch(store());
      const seenOrder = async () => (await search({ sortBy: 'lastSeenAt', sortOrder: 'desc' })).names;
      // zeta, never seen, is seen now: the latest of all.
      await withWriteTransactions(store()).featureEnvironments.markSeen(
        [{ featureName: 'zeta', environment: 'production' }],
        at(40),
      );
      expect(await seenOrder()).toEqual(['zeta', 'checkout', 'basket', 'banner']);
      // The row's stamp is what counts, even an earlier one.
      await withWriteTransactions(store()).featureEnvironments.markSeen(
        [{ featureName: 'zeta', environment: 'production' }],
        at(5),
      );
      expect(await seenOrder()).toEqual(['checkout', 'basket', 'zeta', 'banner']);
      // Without its development row (seen at 30), checkout's latest is production's 20.
      await withWriteTransactions(store()).featureEnvironments.delete('checkout', 'development');
      await withWriteTransactions(store()).featureEnvironments.upsert(
        featureEnvironment('basket', 'development', { lastSeenAt: at(25) }),
      );
      expect(await seenOrder()).toEqual(['basket', 'checkout', 'zeta', 'banner']);
    });

    test('refreshing the planner statistics, where offered, changes no answer', async () => {
      await seedSearch(store());
      const shapes = [{}, { sortBy: 'name', sortOrder: 'desc' }, { query: 'web' }, { sortBy: 'lastSeenAt' }];
      const before = await Promise.all(shapes.map((params) => search(params)));
      await store().refreshStatistics?.();
      expect(await Promise.all(shapes.map((params) => search(params)))).toEqual(before);
      expect(before[0]?.total).toBe(4);
    });

    test('a knownTotal is answered instead of counting again; the page is read as ever', async () => {
      await seedSearch(store());
      const query = featureSearchParamsSchema.parse({ limit: '2', offset: '1' });
      const counted = await store().featureSearch.search(query, ALL_PROJECTS);
      expect(counted.total).toBe(4);
      // The store takes the caller's word for it (here a different number, to see it was not counted).
      const known = await store().featureSearch.search(query, ALL_PROJECTS, { knownTotal: 7 });
      expect(known).toEqual({ features: counted.features, total: 7 });
      expect(known.features.map((f) => f.name)).toEqual(['zeta', 'checkout']);
      // A page that ends the matches tells the total itself.
      const last = featureSearchParamsSchema.parse({ limit: '2', offset: '3' });
      expect((await store().featureSearch.search(last, ALL_PROJECTS, { knownTotal: 7 })).total).toBe(4);
      expect((await store().featureSearch.search(query, ALL_PROJECTS, { knownTotal: undefined })).total).toBe(
        4,
      );
    });

    test('only projects in the visibility are searched', async () => {
      await seedSearch(store());
      const alphaOnly: ProjectVisibility = { all: false, projects: new Set(['alpha']) };
      expect(await search({}, alphaOnly)).toMatchObject({ names: ['basket', 'zeta', 'checkout'], total: 3 });
      expect((await search({ project: 'IS:beta' }, alphaOnly)).names).toEqual([]);
      expect(await search({}, { all: false, projects: new Set() })).toMatchObject({ names: [], total: 0 });
    });
  });
}
