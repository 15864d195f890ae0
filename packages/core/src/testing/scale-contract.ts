import { describe, expect, test } from 'vitest';
import { featureSearchParamsSchema } from '../domain/feature-search.js';
import {
  apiToken,
  at,
  event,
  feature,
  type StoreFactory,
  seedAlpha,
  signupToken,
  sortedBy,
  strategy,
  useStore,
} from './fixtures.js';

/**
 * More items than one statement may bind as SQL variables: SQLite stops at 32,766, PostgreSQL at
 * 65,535. A store that binds one variable per item fails these; one that passes lists as a single
 * parameter (or chunks them) passes.
 */
const PAST_THE_LIMIT = 70_000;

/** `count` names `prefix-0`, `prefix-1`, …, with `known` mixed in (in the middle, so no prefix of the list suffices). */
function namesWith(prefix: string, count: number, known: readonly string[]): string[] {
  const names = Array.from({ length: count }, (_, i) => `${prefix}-${i}`);
  names.splice(count / 2, 0, ...known);
  return names;
}

/** Lookups by long lists and batch writes past the bound-parameter limits of SQLite and PostgreSQL. */
export function describeScaleContract(open: StoreFactory): void {
  describe('past the bound-parameter limits', () => {
    const store = useStore(open);

    /** alpha with checkout and basket (both environments), a strategy, a tag and a dependency each way. */
    async function seed(): Promise<void> {
      await seedAlpha(store());
      await store().features.insert(feature('checkout', 'alpha'), ['development', 'production']);
      await store().features.insert(feature('basket', 'alpha'), ['development', 'production']);
      await store().features.insert(feature('unlisted', 'alpha'), ['development']);
      await store().strategies.insert(strategy(1, 'checkout', 'development'));
      await store().strategies.insert(strategy(2, 'unlisted', 'development'));
      await store().tags.insertType({ name: 'team', description: null, icon: null });
      await store().tags.ensureTag({ type: 'team', value: 'pay' });
      await store().tags.addFeatureTag('checkout', { type: 'team', value: 'pay' });
      await store().tags.addFeatureTag('unlisted', { type: 'team', value: 'pay' });
      await store().dependencies.upsert({
        child: 'basket',
        feature: 'checkout',
        enabled: true,
        variants: [],
      });
      await store().dependencies.upsert({
        child: 'unlisted',
        feature: 'basket',
        enabled: true,
        variants: [],
      });
    }

    test(`features.list by ${PAST_THE_LIMIT} names`, async () => {
      await seed();
      // Quotes, backslashes, commas and braces travel inside the one parameter unchanged.
      const odd = 'odd "name", \\ {x} \'y\' [z]';
      await store().features.insert(feature(odd, 'alpha'));
      const names = namesWith('missing', PAST_THE_LIMIT, ['checkout', 'basket', odd]);
      expect((await store().features.list({ names })).map((f) => f.name)).toEqual([
        'basket',
        'checkout',
        odd,
      ]);
      expect((await store().features.list({ names: ['odd "name"', '\\', odd.slice(0, -1)] })).length).toBe(0);
      expect(await store().features.list({ names, archived: true })).toEqual([]);
    });

    test(`feature environments and strategies of ${PAST_THE_LIMIT} features`, async () => {
      await seed();
      const names = namesWith('missing', PAST_THE_LIMIT, ['checkout', 'basket']);
      const rows = await store().featureEnvironments.listForFeatures(names);
      expect(sortedBy(rows, (r) => `${r.featureName}/${r.environment}`).map((r) => r.featureName)).toEqual([
        'basket',
        'basket',
        'checkout',
        'checkout',
      ]);
      const strategies = await store().strategies.list({ featureNames: names });
      expect(strategies.map((s) => s.id)).toEqual([strategy(1, 'checkout', 'development').id]);
      expect(await store().strategies.list({ featureNames: names, environment: 'production' })).toEqual([]);
    });

    test(`tags and dependencies of ${PAST_THE_LIMIT} features`, async () => {
      await seed();
      const names = namesWith('missing', PAST_THE_LIMIT, ['checkout', 'basket']);
      expect(await store().tags.listFeatureTags(names)).toEqual([
        { featureName: 'checkout', type: 'team', value: 'pay' },
      ]);
      expect((await store().dependencies.list(names)).map((d) => `${d.child}<-${d.feature}`)).toEqual([
        'basket<-checkout',
      ]);
      expect(
        (await store().dependencies.listByParents(names)).map((d) => `${d.child}<-${d.feature}`),
      ).toEqual(['basket<-checkout', 'unlisted<-basket']);
    });

    test(`feature search visible in ${PAST_THE_LIMIT} projects; events excluding ${PAST_THE_LIMIT} projects`, async () => {
      await seed();
      const projects = new Set(namesWith('other', PAST_THE_LIMIT, ['alpha']));
      const result = await store().featureSearch.search(featureSearchParamsSchema.parse({}), {
        all: false,
        projects,
      });
      expect(result.total).toBe(3);
      await store().events.append([
        event('feature-created', { project: 'alpha' }),
        event('feature-created', { project: 'beta' }),
      ]);
      const excluded = namesWith('other', PAST_THE_LIMIT, ['alpha']);
      const events = await store().events.search({ excludeProjects: excluded, limit: 10 });
      expect(events.map((e) => e.project)).toEqual(['beta']);
    });

    test(`tokens seen by ${PAST_THE_LIMIT} hashes; roles through ${PAST_THE_LIMIT} groups`, async () => {
      await store().apiTokens.insert(apiToken('h1'));
      await store().apiTokens.insert(apiToken('h2'));
      await store().apiTokens.markSeen(namesWith('missing', PAST_THE_LIMIT, ['h1']), at(5));
      expect((await store().apiTokens.getByHash('h1'))?.seenAt).toBe(at(5));
      expect((await store().apiTokens.getByHash('h2'))?.seenAt).toBeNull();

      await store().projectAccess.setRoles('alpha', { groupId: 7 }, [4], at(1));
      await store().projectAccess.setRoles('alpha', { groupId: 8 }, [4], at(1));
      const groups = Array.from({ length: PAST_THE_LIMIT }, (_, i) => i + 100);
      groups.splice(PAST_THE_LIMIT / 2, 0, 7);
      const assignments = await store().projectAccess.forUser(1, groups);
      expect(assignments.map((a) => a.groupId)).toEqual([7]);
    });

    test('batch writes past the limit: signup token users, segment links, project roles', async () => {
      // 3 values a row × 25,000 users, 2 × 35,000 links, 5 × 14,000 roles: 70,000+ values each.
      const userIds = Array.from({ length: 25_000 }, (_, i) => i + 1);
      await store().signupTokens.insert(signupToken('invite', { userIds }));
      expect((await store().signupTokens.get('invite'))?.userIds).toHaveLength(25_000);

      await seedAlpha(store());
      await store().features.insert(feature('checkout', 'alpha'), ['development']);
      const segments = Array.from({ length: 35_000 }, (_, i) => i + 1);
      await store().strategies.insert(strategy(1, 'checkout', 'development', { segments }));
      expect((await store().strategies.get(strategy(1, 'checkout', 'development').id))?.segments).toEqual(
        segments,
      );

      const roles = Array.from({ length: 14_000 }, (_, i) => i + 1000);
      await store().projectAccess.setRoles('alpha', { userId: 1 }, roles, at(1));
      expect(await store().projectAccess.list('alpha')).toHaveLength(14_000);
    });
  });
}
