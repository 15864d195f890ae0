import { describe, expect, test } from 'vitest';
import type { AddonDelivery } from '../domain/addon-delivery.js';
import { at, type StoreFactory, useStore } from './fixtures.js';

/** An instant in epoch ms, `seconds` after 2026-01-01. */
const t = (seconds: number): number => Date.UTC(2026, 0, 1) + seconds * 1000;

/** Per-addon delivery queues, the delivery log and webhook signing secrets. */
export function describeAddonQueueContract(open: StoreFactory): void {
  describe('addon delivery queues', () => {
    const store = useStore(open);
    const addons = () => store().addons;
    const addAddon = async () =>
      (
        await addons().insert({
          provider: 'webhook',
          description: null,
          enabled: true,
          parameters: { url: 'http://127.0.0.1:9/hook' },
          events: ['feature-created'],
          projects: [],
          environments: [],
          createdAt: at(0),
        })
      ).id;
    const pending = (addonId: number, eventId: number, dueSince: number): AddonDelivery => ({
      addonId,
      eventId,
      state: 'pending',
      attempts: 0,
      dueSince,
      nextAttemptAt: dueSince,
      failingSince: null,
      lastError: null,
    });

    test('queues each (addon, event) once and lists a queue oldest event first', async () => {
      const a = await addAddon();
      const b = await addAddon();
      await addons().enqueueDeliveries([
        { addonId: a, eventId: 3_000_000_001, dueSince: t(3) },
        { addonId: a, eventId: 2, dueSince: t(2) },
        { addonId: b, eventId: 2, dueSince: t(2) },
      ]);
      // Queued again (a retried fan-out): left as it is.
      await addons().updateDelivery({
        ...pending(a, 2, t(2)),
        attempts: 4,
        failingSince: t(5),
        lastError: 'HTTP 500',
      });
      await addons().enqueueDeliveries([{ addonId: a, eventId: 2, dueSince: t(9) }]);
      expect(await addons().listDeliveries(a, 'pending', 10)).toEqual([
        { ...pending(a, 2, t(2)), attempts: 4, failingSince: t(5), lastError: 'HTTP 500' },
        pending(a, 3_000_000_001, t(3)),
      ]);
      expect(await addons().listDeliveries(a, 'pending', 1)).toHaveLength(1);
      expect(await addons().listDeliveries(b, 'pending', 10)).toEqual([pending(b, 2, t(2))]);
      expect(await addons().listDeliveries(a, 'parked', 10)).toEqual([]);
    });

    test('sums up each queue with the failing head, parks and replays one or all', async () => {
      const a = await addAddon();
      const b = await addAddon();
      await addons().enqueueDeliveries(
        [1, 2, 3, 4].map((eventId) => ({ addonId: a, eventId, dueSince: t(eventId) })),
      );
      await addons().enqueueDeliveries([{ addonId: b, eventId: 4, dueSince: t(4) }]);
      await addons().updateDelivery({
        ...pending(a, 1, t(1)),
        state: 'parked',
        attempts: 9,
        failingSince: t(1),
        lastError: 'old',
      });
      await addons().updateDelivery({
        ...pending(a, 2, t(2)),
        state: 'parked',
        attempts: 9,
        failingSince: t(2),
        lastError: 'old',
      });
      await addons().updateDelivery({
        ...pending(a, 3, t(3)),
        attempts: 2,
        nextAttemptAt: t(60),
        failingSince: t(10),
        lastError: 'HTTP 503',
      });
      await addons().updateDelivery({
        ...pending(a, 4, t(4)),
        attempts: 1,
        failingSince: t(20),
        lastError: 'later',
      });
      expect(await addons().summarizeDeliveries()).toEqual([
        { addonId: a, pending: 2, parked: 2, failingSince: t(10), lastError: 'HTTP 503' },
        { addonId: b, pending: 1, parked: 0, failingSince: null, lastError: null },
      ]);
      expect(await addons().replayParked(a, 2, t(100))).toBe(1);
      expect(await addons().replayParked(a, 2, t(100))).toBe(0);
      expect((await addons().listDeliveries(a, 'pending', 10))[0]).toEqual({
        ...pending(a, 2, t(100)),
        lastError: 'old',
      });
      expect(await addons().replayParked(a, null, t(200))).toBe(1);
      expect(await addons().listDeliveries(a, 'parked', 10)).toEqual([]);
      expect((await addons().listDeliveries(a, 'pending', 10)).map((d) => d.eventId)).toEqual([1, 2, 3, 4]);
      expect(await addons().deleteDelivery(a, 1)).toBe(true);
      expect(await addons().deleteDelivery(a, 1)).toBe(false);
      expect(await addons().updateDelivery(pending(a, 1, t(1)))).toBe(false);
      expect(await addons().listDeliveries(a, 'pending', 10)).toHaveLength(3);
    });

    test('keeps a delivery log newest first, pages it and prunes by age', async () => {
      const a = await addAddon();
      const b = await addAddon();
      const attempt = (addonId: number, n: number, minutes: number) => ({
        addonId,
        eventId: 7,
        attempt: n,
        statusCode: n < 3 ? 503 : 200,
        durationMs: 12,
        error: n < 3 ? 'HTTP 503' : null,
        createdAt: at(minutes),
      });
      await addons().recordAttempts([attempt(a, 1, 1), attempt(a, 2, 2), attempt(b, 1, 2), attempt(a, 3, 3)]);
      const log = await addons().listAttempts(a, { limit: 10, offset: 0 });
      expect(log.map(({ id: _, ...rest }) => rest)).toEqual([
        attempt(a, 3, 3),
        attempt(a, 2, 2),
        attempt(a, 1, 1),
      ]);
      expect(new Set(log.map((e) => e.id)).size).toBe(3);
      expect((await addons().listAttempts(a, { limit: 1, offset: 1 })).map((e) => e.attempt)).toEqual([2]);
      expect(await addons().pruneAttempts(at(2))).toBe(1);
      expect((await addons().listAttempts(a, { limit: 10, offset: 0 })).map((e) => e.attempt)).toEqual([
        3, 2,
      ]);
      expect(await addons().listAttempts(b, { limit: 10, offset: 0 })).toHaveLength(1);
    });

    test('stores signing secrets; deleting an addon takes its queue, log and secrets with it', async () => {
      const a = await addAddon();
      const b = await addAddon();
      expect(await addons().getSigningSecrets(a)).toBeNull();
      await addons().setSigningSecrets(a, { current: 'one', previous: null, previousExpiresAt: null });
      await addons().setSigningSecrets(a, { current: 'two', previous: 'one', previousExpiresAt: t(86_400) });
      expect(await addons().getSigningSecrets(a)).toEqual({
        current: 'two',
        previous: 'one',
        previousExpiresAt: t(86_400),
      });
      for (const id of [a, b]) {
        await addons().enqueueDeliveries([{ addonId: id, eventId: 1, dueSince: t(1) }]);
        await addons().recordAttempts([
          {
            addonId: id,
            eventId: 1,
            attempt: 1,
            statusCode: null,
            durationMs: 5,
            error: 'refused',
            createdAt: at(1),
          },
        ]);
      }
      await addons().setSigningSecrets(b, { current: 'b', previous: null, previousExpiresAt: null });
      expect(await addons().delete(a)).toBe(true);
      expect(await addons().getSigningSecrets(a)).toBeNull();
      expect(await addons().listDeliveries(a, 'pending', 10)).toEqual([]);
      expect(await addons().listAttempts(a, { limit: 10, offset: 0 })).toEqual([]);
      expect(await addons().summarizeDeliveries()).toEqual([
        { addonId: b, pending: 1, parked: 0, failingSince: null, lastError: null },
      ]);
      expect(await addons().getSigningSecrets(b)).toMatchObject({ current: 'b' });
    });

    test('queue writes roll back with their transaction', async () => {
      const a = await addAddon();
      await expect(
        store().transaction(async (tx) => {
          await tx.addons.enqueueDeliveries([{ addonId: a, eventId: 1, dueSince: t(1) }]);
          await tx.addons.recordAttempts([
            {
              addonId: a,
              eventId: 1,
              attempt: 1,
              statusCode: 200,
              durationMs: 1,
              error: null,
              createdAt: at(1),
            },
          ]);
          expect(await tx.addons.listDeliveries(a, 'pending', 10)).toHaveLength(1);
          throw new Error('roll back');
        }),
      ).rejects.toThrow('roll back');
      expect(await addons().listDeliveries(a, 'pending', 10)).toEqual([]);
      expect(await addons().listAttempts(a, { limit: 10, offset: 0 })).toEqual([]);
    });
  });
}
