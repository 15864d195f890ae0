import { describe, expect, test } from 'vitest';
import {
  at,
  environment,
  expectFailure,
  feature,
  featureEnvironment,
  project,
  type StoreFactory,
  seedAlpha,
  sortedBy,
  user,
  useStore,
} from './fixtures.js';

/** Features, their per-environment state and favorites. */
export function describeFeatureContract(open: StoreFactory): void {
  describe('features', () => {
    const store = useStore(open);

    test('what is inserted comes back, nulls, booleans and lifecycle included', async () => {
      await seedAlpha(store());
      const { id: userId } = await store().users.insert(user({ username: 'ann' }));
      const plain = feature('plain', 'alpha');
      const full = feature('full', 'alpha', {
        type: 'kill-switch',
        description: 'Turns the checkout off — quickly',
        stale: true,
        impressionData: true,
        createdAt: at(3),
        archivedAt: at(8),
        createdByUserId: userId,
        lifecycle: { stage: 'archived', enteredStageAt: at(8) },
      });
      await store().features.insert(plain);
      await store().features.insert(full);
      expect(await store().features.get('plain')).toEqual(plain);
      expect(await store().features.get('full')).toEqual(full);
      expect(await store().features.get('missing')).toBeNull();
    });

    test('lists by name and filters by project, archive state and names', async () => {
      await seedAlpha(store());
      await store().projects.insert(project('beta'));
      await store().features.insert(feature('delta', 'alpha'));
      await store().features.insert(feature('alpha', 'beta'));
      await store().features.insert(feature('charlie', 'alpha', { archivedAt: at(5) }));
      await store().features.insert(feature('bravo', 'alpha'));
      const names = async (filter?: Parameters<ReturnType<typeof store>['features']['list']>[0]) =>
        (await store().features.list(filter)).map((f) => f.name);

      expect(await names()).toEqual(['alpha', 'bravo', 'charlie', 'delta']);
      expect(await names({})).toEqual(['alpha', 'bravo', 'charlie', 'delta']);
      expect(await names({ project: 'alpha' })).toEqual(['bravo', 'charlie', 'delta']);
      expect(await names({ archived: true })).toEqual(['charlie']);
      expect(await names({ archived: false })).toEqual(['alpha', 'bravo', 'delta']);
      expect(await names({ names: ['delta', 'alpha', 'nope'] })).toEqual(['alpha', 'delta']);
      expect(await names({ names: [] })).toEqual([]);
      expect(
        await names({ project: 'alpha', archived: false, names: ['alpha', 'bravo', 'charlie'] }),
      ).toEqual(['bravo']);
      expect(await names({ project: 'nobody' })).toEqual([]);
    });

    test('pages by name with after and limit, with the other filters', async () => {
      await seedAlpha(store());
      await store().projects.insert(project('beta'));
      for (const name of ['e', 'a', 'd', 'b', 'c', 'B', 'a-1'])
        await store().features.insert(feature(name, 'alpha', { archivedAt: name === 'c' ? at(1) : null }));
      await store().features.insert(feature('bb', 'beta'));
      const names = async (filter: Parameters<ReturnType<typeof store>['features']['list']>[0]) =>
        (await store().features.list(filter)).map((f) => f.name);

      expect(await names({ limit: 3 })).toEqual(['B', 'a', 'a-1']);
      expect(await names({ after: 'a-1', limit: 3 })).toEqual(['b', 'bb', 'c']);
      expect(await names({ after: 'a', limit: 100 })).toEqual(['a-1', 'b', 'bb', 'c', 'd', 'e']);
      expect(await names({ after: 'e' })).toEqual([]);
      // Reading page after page, each starting after the last name, visits every match once.
      const seen: string[] = [];
      let after: string | undefined;
      for (;;) {
        const page = await names({ project: 'alpha', archived: false, after, limit: 2 });
        seen.push(...page);
        if (page.length < 2) break;
        after = page.at(-1);
      }
      expect(seen).toEqual(['B', 'a', 'a-1', 'b', 'd', 'e']);
    });

    test('refuses a name that exists, live or archived, in any project', async () => {
      await seedAlpha(store());
      await store().projects.insert(project('beta'));
      await store().features.insert(feature('checkout', 'alpha', { description: 'original' }));
      await store().features.insert(feature('old', 'alpha', { archivedAt: at(4) }));
      await expectFailure(store().features.insert(feature('checkout', 'beta')), 'CONFLICT', 'checkout');
      await expectFailure(store().features.insert(feature('old', 'alpha')), 'CONFLICT', 'old');
      expect((await store().features.get('checkout'))?.description).toBe('original');
      expect(await store().features.list({ project: 'beta' })).toEqual([]);
    });

    test('update replaces every field; an unknown name is false', async () => {
      await seedAlpha(store());
      await store().projects.insert(project('beta'));
      await store().features.insert(feature('checkout', 'alpha', { description: 'before', stale: true }));
      const changed = feature('checkout', 'beta', {
        type: 'experiment',
        description: null,
        stale: false,
        impressionData: true,
        archivedAt: at(9),
        lifecycle: { stage: 'completed', enteredStageAt: at(9) },
      });
      expect(await store().features.update(changed)).toBe(true);
      expect(await store().features.get('checkout')).toEqual(changed);
      expect(await store().features.update(feature('ghost', 'alpha'))).toBe(false);
      expect(await store().features.get('ghost')).toBeNull();
    });

    test('countLive counts the non-archived features of one project', async () => {
      await seedAlpha(store());
      await store().projects.insert(project('beta'));
      await store().features.insert(feature('one', 'alpha'));
      await store().features.insert(feature('two', 'alpha'));
      await store().features.insert(feature('gone', 'alpha', { archivedAt: at(3) }));
      await store().features.insert(feature('other', 'beta'));
      expect(await store().features.countLive('alpha')).toBe(2);
      expect(await store().features.countLive('beta')).toBe(1);
      expect(await store().features.countLive('nobody')).toBe(0);
    });

    test('delete is true once, then false', async () => {
      await seedAlpha(store());
      await store().features.insert(feature('checkout', 'alpha'));
      expect(await store().features.delete('checkout')).toBe(true);
      expect(await store().features.get('checkout')).toBeNull();
      expect(await store().features.delete('checkout')).toBe(false);
    });
  });

  describe('feature environments', () => {
    const store = useStore(open);

    test('upsert inserts, then replaces; variants survive the round trip', async () => {
      await seedAlpha(store());
      await store().features.insert(feature('checkout', 'alpha'));
      const row = featureEnvironment('checkout', 'production', {
        enabled: true,
        variants: [
          {
            name: 'blue',
            weight: 700,
            weightType: 'fix',
            stickiness: 'userId',
            payload: { type: 'json', value: '{"color":"blue"}' },
            overrides: [{ contextName: 'userId', values: ['1', '2'] }],
          },
          { name: 'red', weight: 300, weightType: 'variable', stickiness: 'default' },
        ],
        lastSeenAt: at(7),
      });
      await store().featureEnvironments.upsert(row);
      expect(await store().featureEnvironments.get('checkout', 'production')).toEqual(row);
      const replaced = featureEnvironment('checkout', 'production', { enabled: false });
      await store().featureEnvironments.upsert(replaced);
      expect(await store().featureEnvironments.get('checkout', 'production')).toEqual(replaced);
      expect(await store().featureEnvironments.listForFeature('checkout')).toEqual([replaced]);
      expect(await store().featureEnvironments.get('checkout', 'development')).toBeNull();
      expect(await store().featureEnvironments.get('missing', 'production')).toBeNull();
    });

    test('countEnabled counts the live features of a project enabled in each environment', async () => {
      await seedAlpha(store());
      await store().projects.insert(project('beta'));
      await store().environments.insert(environment('staging'));
      for (const [name, p, archived] of [
        ['one', 'alpha', false],
        ['two', 'alpha', false],
        ['gone', 'alpha', true],
        ['other', 'beta', false],
      ] as const)
        await store().features.insert(feature(name, p, { archivedAt: archived ? at(2) : null }));
      for (const [name, env, enabled] of [
        ['one', 'development', true],
        ['one', 'production', true],
        ['one', 'staging', false],
        ['two', 'development', true],
        ['gone', 'development', true],
        ['other', 'development', true],
      ] as const)
        await store().featureEnvironments.upsert(featureEnvironment(name, env, { enabled }));
      expect(await store().featureEnvironments.countEnabled('alpha')).toEqual({
        development: 2,
        production: 1,
      });
      expect(await store().featureEnvironments.countEnabled('beta')).toEqual({ development: 1 });
      expect(await store().featureEnvironments.countEnabled('nobody')).toEqual({});
    });

    test('listForFeature orders by environment name; listForFeatures spans features', async () => {
      await seedAlpha(store());
      await store().environments.insert(environment('acceptance', { sortOrder: 9 }));
      await store().features.insert(feature('one', 'alpha'));
      await store().features.insert(feature('two', 'alpha'));
      await store().features.insert(feature('three', 'alpha'));
      for (const env of ['production', 'acceptance', 'development']) {
        await store().featureEnvironments.upsert(featureEnvironment('one', env));
      }
      await store().featureEnvironments.upsert(featureEnvironment('two', 'production', { enabled: true }));
      await store().featureEnvironments.upsert(featureEnvironment('three', 'production'));

      expect((await store().featureEnvironments.listForFeature('one')).map((r) => r.environment)).toEqual([
        'acceptance',
        'development',
        'production',
      ]);
      const many = await store().featureEnvironments.listForFeatures(['one', 'two', 'missing']);
      expect(
        sortedBy(many, (r) => `${r.featureName}/${r.environment}`).map(
          (r) => `${r.featureName}/${r.environment}`,
        ),
      ).toEqual(['one/acceptance', 'one/development', 'one/production', 'two/production']);
      expect(await store().featureEnvironments.listForFeatures([])).toEqual([]);
      expect(await store().featureEnvironments.listForFeature('missing')).toEqual([]);
    });

    test('a new feature starts switched off in each environment it is inserted with, past eight of them', async () => {
      await seedAlpha(store());
      const names = Array.from({ length: 11 }, (_, i) => `env-${String(i).padStart(2, '0')}`);
      for (const [i, name] of names.entries())
        await store().environments.insert(environment(name, { sortOrder: i }));
      await store().features.insert(feature('wide', 'alpha'), names);
      expect(await store().featureEnvironments.listForFeature('wide')).toEqual(
        names.map((name) => featureEnvironment('wide', name)),
      );
      await store().features.insert(feature('narrow', 'alpha'), []);
      expect(await store().featureEnvironments.listForFeature('narrow')).toEqual([]);
      await expect(store().features.insert(feature('wide', 'alpha'), ['env-00'])).rejects.toMatchObject({
        code: 'CONFLICT',
      });
      expect(await store().featureEnvironments.listForFeature('wide')).toHaveLength(11);
    });

    test('delete removes one row', async () => {
      await seedAlpha(store());
      await store().features.insert(feature('checkout', 'alpha'));
      await store().featureEnvironments.upsert(featureEnvironment('checkout', 'production'));
      await store().featureEnvironments.upsert(featureEnvironment('checkout', 'development'));
      expect(await store().featureEnvironments.delete('checkout', 'production')).toBe(true);
      expect(await store().featureEnvironments.delete('checkout', 'production')).toBe(false);
      expect(
        (await store().featureEnvironments.listForFeature('checkout')).map((r) => r.environment),
      ).toEqual(['development']);
    });

    test('markSeen stamps existing rows and ignores unknown pairs', async () => {
      await seedAlpha(store());
      await store().features.insert(feature('checkout', 'alpha'));
      await store().featureEnvironments.upsert(
        featureEnvironment('checkout', 'production', { enabled: true }),
      );
      await store().featureEnvironments.upsert(featureEnvironment('checkout', 'development'));
      await store().featureEnvironments.markSeen(
        [
          { featureName: 'checkout', environment: 'production' },
          { featureName: 'checkout', environment: 'staging' },
          { featureName: 'missing', environment: 'production' },
        ],
        at(30),
      );
      expect(await store().featureEnvironments.get('checkout', 'production')).toEqual(
        featureEnvironment('checkout', 'production', { enabled: true, lastSeenAt: at(30) }),
      );
      expect((await store().featureEnvironments.get('checkout', 'development'))?.lastSeenAt).toBeNull();
      expect(await store().featureEnvironments.get('checkout', 'staging')).toBeNull();
      expect(await store().featureEnvironments.get('missing', 'production')).toBeNull();
      await store().featureEnvironments.markSeen([], at(31));
    });
  });

  describe('favorites', () => {
    const store = useStore(open);

    test('set reports whether it changed anything; list is per user and sorted', async () => {
      await seedAlpha(store());
      await store().projects.insert(project('beta'));
      await store().features.insert(feature('zulu', 'alpha'));
      await store().features.insert(feature('alfa', 'alpha'));
      const ann = (await store().users.insert(user({ username: 'ann' }))).id;
      const bob = (await store().users.insert(user({ username: 'bob' }))).id;

      expect(await store().favorites.list(ann)).toEqual({ features: [], projects: [] });
      expect(await store().favorites.set(ann, 'feature', 'zulu', true)).toBe(true);
      expect(await store().favorites.set(ann, 'feature', 'zulu', true)).toBe(false);
      expect(await store().favorites.set(ann, 'feature', 'alfa', true)).toBe(true);
      expect(await store().favorites.set(ann, 'project', 'beta', true)).toBe(true);
      expect(await store().favorites.set(bob, 'project', 'alpha', true)).toBe(true);

      expect(await store().favorites.list(ann)).toEqual({ features: ['alfa', 'zulu'], projects: ['beta'] });
      expect(await store().favorites.list(bob)).toEqual({ features: [], projects: ['alpha'] });

      expect(await store().favorites.set(ann, 'feature', 'zulu', false)).toBe(true);
      expect(await store().favorites.set(ann, 'feature', 'zulu', false)).toBe(false);
      expect(await store().favorites.set(bob, 'feature', 'alfa', false)).toBe(false);
      expect(await store().favorites.list(ann)).toEqual({ features: ['alfa'], projects: ['beta'] });
    });
  });
}
