import { describe, expect, test } from 'vitest';
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
  user,
  useStore,
  uuid,
} from './fixtures.js';
import { withWriteTransactions } from './write-transactions.js';

/**
 * Two features, `doomed` and `kept`, each with everything that hangs off a feature: environments,
 * a strategy linked to a shared segment, a tag, a favorite, and dependencies both ways.
 */
async function seedTwoFeatures(store: Store) {
  await seedAlpha(store);
  for (const name of ['doomed', 'kept', 'parent', 'child'])
    await withWriteTransactions(store).features.insert(feature(name, 'alpha'));
  const seg = await withWriteTransactions(store).segments.insert(segment('shared'));
  const ann = (await withWriteTransactions(store).users.insert(user({ username: 'ann' }))).id;
  await withWriteTransactions(store).tags.insertType({ name: 'simple', description: null, icon: null });
  await withWriteTransactions(store).tags.ensureTag({ type: 'simple', value: 'beta' });
  let n = 0;
  for (const name of ['doomed', 'kept']) {
    for (const env of ['development', 'production']) {
      await withWriteTransactions(store).featureEnvironments.upsert(
        featureEnvironment(name, env, { enabled: true }),
      );
      await withWriteTransactions(store).strategies.insert(strategy(++n, name, env, { segments: [seg.id] }));
    }
    await withWriteTransactions(store).tags.addFeatureTag(name, { type: 'simple', value: 'beta' });
    await withWriteTransactions(store).favorites.set(ann, 'feature', name, true);
    await withWriteTransactions(store).dependencies.upsert({
      child: name,
      feature: 'parent',
      enabled: true,
      variants: [],
    });
    await withWriteTransactions(store).dependencies.upsert({
      child: 'child',
      feature: name,
      enabled: true,
      variants: [],
    });
  }
  return { seg, ann };
}

/** What deleting one thing does to the things that refer to it. */
export function describeCascadeContract(open: StoreFactory): void {
  describe('cascades', () => {
    const store = useStore(open);

    test('deleting a feature deletes its environments, strategies, segment links, tags, dependencies and favorites', async () => {
      const { seg, ann } = await seedTwoFeatures(store());
      expect(await store().features.delete('doomed')).toBe(true);

      expect(await store().featureEnvironments.listForFeature('doomed')).toEqual([]);
      expect(await store().featureEnvironments.listForFeature('kept')).toHaveLength(2);
      expect(await store().strategies.list({ featureName: 'doomed' })).toEqual([]);
      expect((await store().strategies.list({ segmentId: seg.id })).map((s) => s.featureName)).toEqual([
        'kept',
        'kept',
      ]);
      expect(await store().tags.listFeatureTags(['doomed'])).toEqual([]);
      expect(await store().tags.featuresWithTag({ type: 'simple', value: 'beta' })).toEqual(['kept']);
      expect((await store().dependencies.list()).map((d) => `${d.child}<${d.feature}`)).toEqual([
        'child<kept',
        'kept<parent',
      ]);
      expect(await store().favorites.list(ann)).toEqual({ features: ['kept'], projects: [] });
      // The segment and the tag themselves stay.
      expect(await store().segments.get(seg.id)).not.toBeNull();
      expect(await store().tags.listTags()).toEqual([{ type: 'simple', value: 'beta' }]);
    });

    test('deleting a tag type deletes its tags', async () => {
      await store().tags.insertType({ name: 'team', description: null, icon: null });
      await store().tags.insertType({ name: 'simple', description: null, icon: null });
      await store().tags.ensureTag({ type: 'team', value: 'payments' });
      await store().tags.ensureTag({ type: 'simple', value: 'beta' });
      expect(await store().tags.deleteType('team')).toBe(true);
      expect(await store().tags.listTags()).toEqual([{ type: 'simple', value: 'beta' }]);
    });
  });

  // The ports do not spell these out; they are what foreign keys with ON DELETE CASCADE give the SQL
  // stores (and what the reference's schema does), so no row is left pointing at nothing.
  describe('cascades the schema implies', () => {
    const store = useStore(open);

    test('deleting an environment deletes its project links, feature environments and strategies', async () => {
      await seedTwoFeatures(store());
      await store().environments.linkProject({
        projectId: 'alpha',
        environment: 'production',
        defaultStrategy: null,
      });
      await store().environments.linkProject({
        projectId: 'alpha',
        environment: 'development',
        defaultStrategy: null,
      });
      expect(await store().environments.delete('production')).toBe(true);
      expect((await store().environments.listForProject('alpha')).map((l) => l.environment)).toEqual([
        'development',
      ]);
      expect(await store().environments.listProjectsFor('production')).toEqual([]);
      expect(await store().featureEnvironments.get('kept', 'production')).toBeNull();
      expect(await store().featureEnvironments.get('kept', 'development')).not.toBeNull();
      expect(await store().strategies.list({ environment: 'production' })).toEqual([]);
      expect(await store().strategies.list({ environment: 'development' })).toHaveLength(2);
    });

    test('deleting a segment unlinks it from strategies, which stay', async () => {
      await seedAlpha(store());
      await store().features.insert(feature('checkout', 'alpha'));
      const gone = await store().segments.insert(segment('gone'));
      const kept = await store().segments.insert(segment('kept'));
      await store().strategies.insert(
        strategy(1, 'checkout', 'production', { segments: [gone.id, kept.id] }),
      );
      expect(await store().segments.delete(gone.id)).toBe(true);
      expect((await store().strategies.get(uuid(1)))?.segments).toEqual([kept.id]);
      expect(await store().strategies.list({ segmentId: gone.id })).toEqual([]);
    });

    test('deleting a tag or its type removes it from features', async () => {
      await seedAlpha(store());
      await store().features.insert(feature('checkout', 'alpha'));
      await store().tags.insertType({ name: 'simple', description: null, icon: null });
      await store().tags.insertType({ name: 'team', description: null, icon: null });
      for (const tag of [
        { type: 'simple', value: 'beta' },
        { type: 'simple', value: 'gamma' },
        { type: 'team', value: 'payments' },
      ]) {
        await store().tags.ensureTag(tag);
        await store().tags.addFeatureTag('checkout', tag);
      }
      expect(await store().tags.deleteTag({ type: 'simple', value: 'beta' })).toBe(true);
      expect(await store().tags.deleteType('team')).toBe(true);
      expect(await store().tags.listFeatureTags(['checkout'])).toEqual([
        { featureName: 'checkout', type: 'simple', value: 'gamma' },
      ]);
    });

    test('deleting a user deletes their group memberships, project roles and favorites', async () => {
      await store().projects.insert(project('alpha'));
      const ann = (await store().users.insert(user({ username: 'ann' }))).id;
      const bob = (await store().users.insert(user({ username: 'bob' }))).id;
      const ops = await store().groups.insert({
        name: 'ops',
        description: null,
        rootRole: null,
        createdAt: at(0),
        createdBy: null,
      });
      await store().groups.addUsers(ops.id, [ann, bob], at(1));
      await store().projectAccess.setRoles('alpha', { userId: ann }, [4], at(1));
      await store().projectAccess.setRoles('alpha', { userId: bob }, [5], at(2));
      await store().favorites.set(ann, 'project', 'alpha', true);

      expect(await store().users.delete(ann)).toBe(true);
      expect(await store().groups.listUsers(ops.id)).toEqual([bob]);
      expect(await store().groups.groupsOf(ann)).toEqual([]);
      expect((await store().projectAccess.list('alpha')).map((a) => a.userId)).toEqual([bob]);
      expect(await store().favorites.list(ann)).toEqual({ features: [], projects: [] });
    });
  });
}
