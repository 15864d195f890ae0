import { describe, expect, test } from 'vitest';
import { expectFailure, feature, type StoreFactory, seedAlpha, useStore } from './fixtures.js';

/** Tag types, tags and feature tags. */
export function describeTagContract(open: StoreFactory): void {
  describe('tags', () => {
    const store = useStore(open);

    test('tag types: round trip, conflict, update, listing', async () => {
      const simple = { name: 'simple', description: null, icon: null };
      const team = { name: 'team', description: 'Owning team', icon: '#' };
      await store().tags.insertType(team);
      await store().tags.insertType(simple);
      expect(await store().tags.getType('team')).toEqual(team);
      expect(await store().tags.getType('simple')).toEqual(simple);
      expect(await store().tags.getType('missing')).toBeNull();
      await expectFailure(store().tags.insertType({ ...team, description: 'copy' }), 'CONFLICT', 'team');

      const changed = { name: 'team', description: null, icon: 'users' };
      expect(await store().tags.updateType(changed)).toBe(true);
      expect(await store().tags.updateType({ name: 'missing', description: null, icon: null })).toBe(false);
      expect(await store().tags.getType('missing')).toBeNull();
      expect([...(await store().tags.listTypes())].sort((a, b) => a.name.localeCompare(b.name))).toEqual([
        simple,
        changed,
      ]);
    });

    test('ensureTag creates once; tags list by type then value', async () => {
      await store().tags.insertType({ name: 'simple', description: null, icon: null });
      await store().tags.insertType({ name: 'team', description: null, icon: null });
      expect(await store().tags.ensureTag({ type: 'team', value: 'payments' })).toBe(true);
      expect(await store().tags.ensureTag({ type: 'team', value: 'payments' })).toBe(false);
      expect(await store().tags.ensureTag({ type: 'simple', value: 'zeta' })).toBe(true);
      expect(await store().tags.ensureTag({ type: 'simple', value: 'beta' })).toBe(true);
      expect(await store().tags.ensureTag({ type: 'team', value: 'growth' })).toBe(true);
      expect(await store().tags.listTags()).toEqual([
        { type: 'simple', value: 'beta' },
        { type: 'simple', value: 'zeta' },
        { type: 'team', value: 'growth' },
        { type: 'team', value: 'payments' },
      ]);
      expect(await store().tags.listTags('team')).toEqual([
        { type: 'team', value: 'growth' },
        { type: 'team', value: 'payments' },
      ]);
      expect(await store().tags.listTags('missing')).toEqual([]);
    });

    test('deleteTag removes one tag; deleteType removes the type and its tags', async () => {
      await store().tags.insertType({ name: 'simple', description: null, icon: null });
      await store().tags.insertType({ name: 'team', description: null, icon: null });
      await store().tags.ensureTag({ type: 'simple', value: 'beta' });
      await store().tags.ensureTag({ type: 'simple', value: 'zeta' });
      await store().tags.ensureTag({ type: 'team', value: 'growth' });
      expect(await store().tags.deleteTag({ type: 'simple', value: 'zeta' })).toBe(true);
      expect(await store().tags.deleteTag({ type: 'simple', value: 'zeta' })).toBe(false);
      expect(await store().tags.deleteType('team')).toBe(true);
      expect(await store().tags.deleteType('team')).toBe(false);
      expect(await store().tags.getType('team')).toBeNull();
      expect(await store().tags.listTags()).toEqual([{ type: 'simple', value: 'beta' }]);
      // Creating the tag again works: nothing of the deleted type lingers.
      await store().tags.insertType({ name: 'team', description: null, icon: null });
      expect(await store().tags.ensureTag({ type: 'team', value: 'growth' })).toBe(true);
    });

    test('feature tags: add once, list by feature then type then value, remove, find features', async () => {
      await seedAlpha(store());
      for (const name of ['zulu', 'alfa', 'mike']) await store().features.insert(feature(name, 'alpha'));
      await store().tags.insertType({ name: 'simple', description: null, icon: null });
      await store().tags.insertType({ name: 'team', description: null, icon: null });
      const beta = { type: 'simple', value: 'beta' };
      const alpha = { type: 'simple', value: 'alpha' };
      const growth = { type: 'team', value: 'growth' };
      for (const tag of [beta, alpha, growth]) await store().tags.ensureTag(tag);

      expect(await store().tags.addFeatureTag('zulu', growth)).toBe(true);
      expect(await store().tags.addFeatureTag('zulu', beta)).toBe(true);
      expect(await store().tags.addFeatureTag('zulu', beta)).toBe(false);
      expect(await store().tags.addFeatureTag('alfa', beta)).toBe(true);
      expect(await store().tags.addFeatureTag('zulu', alpha)).toBe(true);

      expect(await store().tags.listFeatureTags()).toEqual([
        { featureName: 'alfa', ...beta },
        { featureName: 'zulu', ...alpha },
        { featureName: 'zulu', ...beta },
        { featureName: 'zulu', ...growth },
      ]);
      expect(await store().tags.listFeatureTags(['alfa', 'mike'])).toEqual([
        { featureName: 'alfa', ...beta },
      ]);
      expect(await store().tags.listFeatureTags([])).toEqual([]);
      expect([...(await store().tags.featuresWithTag(beta))].sort()).toEqual(['alfa', 'zulu']);
      expect(await store().tags.featuresWithTag({ type: 'simple', value: 'unused' })).toEqual([]);

      expect(await store().tags.removeFeatureTag('zulu', beta)).toBe(true);
      expect(await store().tags.removeFeatureTag('zulu', beta)).toBe(false);
      expect(await store().tags.featuresWithTag(beta)).toEqual(['alfa']);
      // Untagging a feature leaves the tag itself in place.
      expect(await store().tags.listTags('simple')).toEqual([alpha, beta]);
    });
  });
}
