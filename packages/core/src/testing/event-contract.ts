import { describe, expect, test } from 'vitest';
import type { FlagstaffEvent } from '../domain/event.js';
import { at, event, type StoreFactory, seedAlpha, user, useStore } from './fixtures.js';

/** Appending to the event log and reading its high-water marks. */
export function describeEventContract(open: StoreFactory): void {
  describe('events: append and latest ids', () => {
    const store = useStore(open);

    test('an empty log has no events and latest ids of 0', async () => {
      expect(await store().events.latestId()).toBe(0);
      expect(await store().events.latestId({ types: ['feature-created'] })).toBe(0);
      expect(await store().events.search({})).toEqual([]);
      expect(await store().events.count({})).toBe(0);
    });

    test('append returns the events with increasing ids and every field as written', async () => {
      await seedAlpha(store());
      const ann = await store().users.insert(user({ username: 'ann' }));
      const full = event('feature-strategy-add', {
        createdBy: 'ann',
        createdByUserId: ann.id,
        createdAt: at(3),
        project: 'alpha',
        featureName: 'checkout',
        environment: 'production',
        data: {
          id: 'abc',
          parameters: { rollout: '50' },
          constraints: [],
          disabled: false,
          weight: 1.5,
          note: null,
          text: 'Grüße aus Köln ✓ "quoted" \\ back',
          list: [1, 'two', true, null, { deep: ['x'] }],
        },
        preData: { parameters: { rollout: '25' } },
        tags: [
          { type: 'simple', value: 'beta' },
          { type: 'team', value: 'payments' },
        ],
      });
      const bare = event('segment-created', { createdAt: at(4) });
      const appended = await store().events.append([full, bare]);
      expect(appended).toHaveLength(2);
      const [first, second] = appended as [FlagstaffEvent, FlagstaffEvent];
      expect(first.id).toBeGreaterThan(0);
      expect(second.id).toBeGreaterThan(first.id);

      const expectedFull: FlagstaffEvent = {
        id: first.id,
        type: 'feature-strategy-add',
        createdAt: at(3),
        createdBy: 'ann',
        createdByUserId: ann.id,
        environment: 'production',
        project: 'alpha',
        featureName: 'checkout',
        data: full.data,
        preData: full.preData,
        tags: full.tags ?? [],
      };
      // Omitted optional fields come back as null (and tags as an empty list).
      const expectedBare: FlagstaffEvent = {
        id: second.id,
        type: 'segment-created',
        createdAt: at(4),
        createdBy: 'admin@example.com',
        createdByUserId: null,
        environment: null,
        project: null,
        featureName: null,
        data: null,
        preData: null,
        tags: [],
      };
      expect(appended).toEqual([expectedFull, expectedBare]);
      expect(await store().events.search({})).toEqual([expectedBare, expectedFull]);
    });

    test('later appends get larger ids; appending nothing is a no-op', async () => {
      const [a] = await store().events.append([event('feature-created')]);
      const [b, c] = await store().events.append([event('feature-created'), event('feature-deleted')]);
      expect(await store().events.append([])).toEqual([]);
      expect(b!.id).toBeGreaterThan(a!.id);
      expect(c!.id).toBeGreaterThan(b!.id);
      expect(await store().events.latestId()).toBe(c!.id);
      expect(await store().events.count({})).toBe(3);
    });

    test('latestId with types is the newest id among those types', async () => {
      const [created, , deleted, segment, newest] = await store().events.append([
        event('feature-created'),
        event('tag-created'),
        event('feature-deleted'),
        event('segment-created'),
        event('user-created'),
      ]);
      expect(await store().events.latestId({ types: ['feature-created'] })).toBe(created!.id);
      expect(await store().events.latestId({ types: ['feature-deleted', 'feature-created'] })).toBe(
        deleted!.id,
      );
      expect(await store().events.latestId({ types: ['segment-created', 'feature-created'] })).toBe(
        segment!.id,
      );
      expect(await store().events.latestId({ types: ['project-created'] })).toBe(0);
      expect(await store().events.latestId({ types: [] })).toBe(0);
      expect(await store().events.latestId()).toBe(newest!.id);
    });

    test('listCreators names everyone who wrote an event once, ordered by name, with distinct ids', async () => {
      expect(await store().events.listCreators()).toEqual([]);
      await store().events.append([
        event('feature-created', { createdBy: 'zoe@example.com' }),
        event('feature-created', { createdBy: 'ci-token' }),
        event('feature-updated', { createdBy: 'zoe@example.com' }),
      ]);
      const creators = await store().events.listCreators();
      expect(creators.map((c) => c.name)).toEqual(['ci-token', 'zoe@example.com']);
      expect(new Set(creators.map((c) => c.id)).size).toBe(2);
    });
  });
}
