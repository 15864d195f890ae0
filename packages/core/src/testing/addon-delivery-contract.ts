import { describe, expect, test } from 'vitest';
import { type StoreFactory, useStore } from './fixtures.js';

/** An instant, in epoch ms, as delivery processes pass them; `seconds` after 2026-01-01. */
const t = (seconds: number): number => Date.UTC(2026, 0, 1) + seconds * 1000;
const TERM = 30;

/** The addon delivery lease and the compare-and-set position (the injected "now" is the clock). */
export function describeAddonDeliveryContract(open: StoreFactory): void {
  describe('addon delivery lease', () => {
    const store = useStore(open);
    const addons = () => store().addons;

    test('a free lease is taken; the holder renews it; others are refused until it expires', async () => {
      expect(await addons().getDeliveryLease()).toBeNull();
      expect(await addons().acquireDeliveryLease('a', t(0), t(TERM))).toEqual({ deliveredThrough: null });
      expect(await addons().getDeliveryLease()).toEqual({ holder: 'a', expiresAt: t(TERM) });
      expect(await addons().acquireDeliveryLease('b', t(1), t(1 + TERM))).toBeNull();
      expect(await addons().acquireDeliveryLease('a', t(20), t(20 + TERM))).toEqual({
        deliveredThrough: null,
      });
      // Renewed: what would have been the expiry is now still a's.
      expect(await addons().acquireDeliveryLease('b', t(TERM), t(2 * TERM))).toBeNull();
      expect(await addons().getDeliveryLease()).toEqual({ holder: 'a', expiresAt: t(20 + TERM) });
      expect(await addons().getDeliveredThrough()).toBeNull();
    });

    test('an expired lease is taken over with the position its holder saved', async () => {
      await addons().acquireDeliveryLease('a', t(0), t(TERM));
      expect(await addons().advanceDeliveredThrough('a', 41, t(5 + TERM))).toBe(true);
      expect(await addons().acquireDeliveryLease('b', t(5 + TERM - 1), t(2 * TERM))).toBeNull();
      // Expired at the very instant it ends.
      expect(await addons().acquireDeliveryLease('b', t(5 + TERM), t(5 + 2 * TERM))).toEqual({
        deliveredThrough: 41,
      });
      expect(await addons().getDeliveryLease()).toEqual({ holder: 'b', expiresAt: t(5 + 2 * TERM) });
      expect(await addons().acquireDeliveryLease('a', t(40), t(40 + TERM))).toBeNull();
    });

    test('the position moves only for the holder, never backwards, and extends the lease', async () => {
      expect(await addons().advanceDeliveredThrough('a', 5, t(TERM))).toBe(false);
      expect(await addons().getDeliveredThrough()).toBeNull();
      await addons().acquireDeliveryLease('a', t(0), t(TERM));
      expect(await addons().advanceDeliveredThrough('b', 5, t(TERM))).toBe(false);
      expect(await addons().getDeliveredThrough()).toBeNull();
      expect(await addons().advanceDeliveredThrough('a', 2_000_000_123, t(10 + TERM))).toBe(true);
      expect(await addons().getDeliveredThrough()).toBe(2_000_000_123);
      expect(await addons().getDeliveryLease()).toEqual({ holder: 'a', expiresAt: t(10 + TERM) });
      expect(await addons().advanceDeliveredThrough('a', 2_000_000_122, t(11 + TERM))).toBe(false);
      expect(await addons().getDeliveredThrough()).toBe(2_000_000_123);
      // Staying put is a renewal.
      expect(await addons().advanceDeliveredThrough('a', 2_000_000_123, t(12 + TERM))).toBe(true);
      expect(await addons().getDeliveryLease()).toEqual({ holder: 'a', expiresAt: t(12 + TERM) });
    });

    test('a holder that lost its lease cannot move the position, even once the taker is gone', async () => {
      await addons().acquireDeliveryLease('a', t(0), t(TERM));
      await addons().advanceDeliveredThrough('a', 10, t(TERM));
      // a stalls past its term; b takes over, delivers further, and stops.
      await addons().acquireDeliveryLease('b', t(TERM + 1), t(2 * TERM + 1));
      expect(await addons().advanceDeliveredThrough('b', 12, t(2 * TERM + 2))).toBe(true);
      expect(await addons().advanceDeliveredThrough('a', 11, t(TERM + 3))).toBe(false);
      expect(await addons().releaseDeliveryLease('a')).toBe(false);
      expect(await addons().getDeliveryLease()).toEqual({ holder: 'b', expiresAt: t(2 * TERM + 2) });
      expect(await addons().releaseDeliveryLease('b')).toBe(true);
      expect(await addons().getDeliveryLease()).toBeNull();
      expect(await addons().advanceDeliveredThrough('a', 13, t(TERM + 4))).toBe(false);
      expect(await addons().advanceDeliveredThrough('b', 13, t(TERM + 4))).toBe(false);
      expect(await addons().getDeliveredThrough()).toBe(12);
      // Released: free for anyone at once, with the position as left.
      expect(await addons().acquireDeliveryLease('a', t(TERM + 5), t(2 * TERM + 5))).toEqual({
        deliveredThrough: 12,
      });
    });

    test('setting the position leaves the lease alone, and acquiring returns the set position', async () => {
      await addons().setDeliveredThrough(7);
      expect(await addons().getDeliveryLease()).toBeNull();
      expect(await addons().acquireDeliveryLease('a', t(0), t(TERM))).toEqual({ deliveredThrough: 7 });
      await addons().setDeliveredThrough(3);
      expect(await addons().getDeliveryLease()).toEqual({ holder: 'a', expiresAt: t(TERM) });
      expect(await addons().getDeliveredThrough()).toBe(3);
    });

    test('of holders racing for a free lease exactly one gets it', async () => {
      const holders = ['a', 'b', 'c', 'd', 'e', 'f'];
      const results = await Promise.all(
        holders.map((holder) => addons().acquireDeliveryLease(holder, t(0), t(TERM))),
      );
      expect(results.filter((r) => r !== null)).toEqual([{ deliveredThrough: null }]);
      const winner = holders[results.findIndex((r) => r !== null)];
      expect(await addons().getDeliveryLease()).toEqual({ holder: winner, expiresAt: t(TERM) });
      const advances = await Promise.all(
        holders.map((holder, i) => addons().advanceDeliveredThrough(holder, 100 + i, t(TERM))),
      );
      expect(advances.filter(Boolean)).toHaveLength(1);
      expect(await addons().getDeliveredThrough()).toBe(100 + holders.indexOf(winner ?? ''));
    });

    test('lease changes roll back with their transaction', async () => {
      await addons().acquireDeliveryLease('a', t(0), t(TERM));
      await expect(
        store().transaction(async (tx) => {
          expect(await tx.addons.releaseDeliveryLease('a')).toBe(true);
          expect(await tx.addons.acquireDeliveryLease('b', t(1), t(1 + TERM))).toEqual({
            deliveredThrough: null,
          });
          expect(await tx.addons.advanceDeliveredThrough('b', 9, t(1 + TERM))).toBe(true);
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      expect(await addons().getDeliveryLease()).toEqual({ holder: 'a', expiresAt: t(TERM) });
      expect(await addons().getDeliveredThrough()).toBeNull();
    });
  });
}
