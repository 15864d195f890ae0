import { describe, expect, test } from 'vitest';
import { at, feature, type StoreFactory, seedAlpha, useStore } from './fixtures.js';

/** Instance settings and personal access tokens. */
export function describeSettingsContract(open: StoreFactory): void {
  describe('settings and personal access tokens', () => {
    const store = useStore(open);

    test('settings keep JSON values by name, replaced on set and rolled back with their transaction', async () => {
      const settings = () => store().settings;
      expect(await settings().get('maintenance.mode')).toBeNull();
      await settings().set('maintenance.mode', { enabled: true });
      await settings().set('other', ['a', 1, null]);
      await settings().set('maintenance.mode', { enabled: false, by: 'x' });
      expect(await settings().get('maintenance.mode')).toEqual({ enabled: false, by: 'x' });
      expect(await settings().get('other')).toEqual(['a', 1, null]);
      await expect(
        store().transaction(async (tx) => {
          await tx.settings.set('other', 'changed');
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      expect(await settings().get('other')).toEqual(['a', 1, null]);
    });

    test('personal tokens are found by hash, listed per user without it, and deleted only by their owner', async () => {
      const tokens = () => store().personalTokens;
      const token = (userId: number, hash: string) => ({
        secretHash: hash,
        userId,
        description: `token ${hash}`,
        expiresAt: at(60 * 24),
        createdAt: at(1),
        seenAt: null,
      });
      const first = await tokens().insert(token(1, 'h1'));
      const second = await tokens().insert(token(1, 'h2'));
      const other = await tokens().insert(token(2, 'h3'));
      expect(first).toEqual({
        id: first.id,
        userId: 1,
        description: 'token h1',
        expiresAt: at(60 * 24),
        createdAt: at(1),
        seenAt: null,
      });
      expect(new Set([first.id, second.id, other.id]).size).toBe(3);
      expect((await tokens().listForUser(1)).map((t) => t.description)).toEqual(['token h1', 'token h2']);
      expect(await tokens().getByHash('h3')).toEqual({ ...other, secretHash: 'h3' });
      expect(await tokens().getByHash('nope')).toBeNull();
      await tokens().markSeen(first.id, at(5));
      expect((await tokens().getByHash('h1'))?.seenAt).toBe(at(5));
      expect(await tokens().delete(2, first.id)).toBe(false);
      expect(await tokens().delete(1, first.id)).toBe(true);
      expect(await tokens().getByHash('h1')).toBeNull();
      expect(await tokens().deleteForUser(1)).toBe(1);
      expect(await tokens().listForUser(1)).toEqual([]);
      expect(await tokens().listForUser(2)).toHaveLength(1);
    });

    test('context fields keep the project they are scoped to; instance-wide ones have none', async () => {
      await seedAlpha(store());
      const field = (name: string) => ({
        name,
        description: null,
        stickiness: false,
        sortOrder: 1,
        legalValues: [],
        createdAt: at(1),
      });
      await store().contextFields.insert({ ...field('tenant'), project: 'alpha' });
      await store().contextFields.insert(field('region'));
      expect(await store().contextFields.get('tenant')).toEqual({ ...field('tenant'), project: 'alpha' });
      expect(await store().contextFields.get('region')).toEqual(field('region'));
    });

    test('feature links are listed per feature, replaced, deleted, and go with their feature', async () => {
      await seedAlpha(store());
      await store().features.insert(feature('linked', 'alpha'));
      const links = () => store().featureLinks;
      const link = (id: string, minutes: number) => ({
        id,
        featureName: 'linked',
        url: `https://x.example/${id}`,
        title: null,
        createdAt: at(minutes),
      });
      await links().insert(link('b', 2));
      await links().insert(link('a', 1));
      expect((await links().listForFeature('linked')).map((l) => l.id)).toEqual(['a', 'b']);
      expect(await links().update({ ...link('a', 1), title: 'A' })).toBe(true);
      expect(await links().get('a')).toEqual({ ...link('a', 1), title: 'A' });
      expect(await links().update(link('nope', 1))).toBe(false);
      expect(await links().delete('b')).toBe(true);
      expect(await links().delete('b')).toBe(false);
      await store().features.delete('linked');
      expect(await links().listForFeature('linked')).toEqual([]);
      expect(await links().get('a')).toBeNull();
    });
  });
}
