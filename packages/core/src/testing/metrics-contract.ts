import { describe, expect, test } from 'vitest';
import type { MetricsBucket } from '../domain/metrics.js';
import { at, feature, featureEnvironment, type StoreFactory, seedAlpha, useStore } from './fixtures.js';

const bucket = (featureName: string, yes: number, variants: Record<string, number> = {}): MetricsBucket => ({
  featureName,
  appName: 'web',
  environment: 'production',
  timestamp: at(60),
  yes,
  no: 1,
  variants,
});

const unknown = (name: string, minutes: number, appName = 'web', environment = 'production') => ({
  name,
  appName,
  environment,
  lastSeenAt: at(minutes),
});

/** What the batched metrics flush relies on: bulk writes, unknown flags, one transaction. */
export function describeMetricsContract(open: StoreFactory): void {
  describe('metrics at volume', () => {
    const store = useStore(open);

    test('repeated keys within one addBuckets call add up, variants included', async () => {
      await store().metrics.addBuckets([
        bucket('checkout', 2, { blue: 1 }),
        bucket('checkout', 3, { blue: 2, red: 1 }),
        bucket('search', 1),
      ]);
      await store().metrics.addBuckets([bucket('checkout', 5, { red: 4 })]);
      const all = await store().metrics.listBuckets(at(0));
      expect(all).toEqual([{ ...bucket('checkout', 10, { blue: 3, red: 5 }), no: 3 }, bucket('search', 1)]);
    });

    test('a flush-sized batch (more rows than one statement takes) lands whole', async () => {
      const many = Array.from({ length: 1203 }, (_, i) =>
        bucket(`f-${String(i).padStart(4, '0')}`, i, { v: 1 }),
      );
      await store().metrics.addBuckets(many);
      await store().metrics.addBuckets(many.slice(0, 2));
      const all = await store().metrics.listBuckets(at(0));
      expect(all).toHaveLength(1203);
      expect(all[1]).toEqual({ ...bucket('f-0001', 2, { v: 2 }), no: 2 });
      expect(all[1202]).toEqual(bucket('f-1202', 1202, { v: 1 }));
    });

    test('buckets, lastSeenAt and unknown flags commit together or not at all', async () => {
      await seedAlpha(store());
      await store().features.insert(feature('checkout', 'alpha'));
      await store().featureEnvironments.upsert(featureEnvironment('checkout', 'production'));
      await expect(
        store().transaction(async (tx) => {
          await tx.metrics.addBuckets([bucket('checkout', 1)]);
          await tx.featureEnvironments.markSeen(
            [{ featureName: 'checkout', environment: 'production' }],
            at(61),
          );
          await tx.metrics.upsertUnknownFlags([unknown('typo', 61)]);
          throw new Error('flush failed');
        }),
      ).rejects.toThrow('flush failed');
      expect(await store().metrics.listBuckets(at(0))).toEqual([]);
      expect(await store().metrics.listUnknownFlags(10)).toEqual([]);
      expect(
        (await store().featureEnvironments.get('checkout', 'production'))?.lastSeenAt ?? null,
      ).toBeNull();
      await store().transaction(async (tx) => {
        await tx.metrics.addBuckets([bucket('checkout', 1)]);
        await tx.featureEnvironments.markSeen(
          [{ featureName: 'checkout', environment: 'production' }],
          at(61),
        );
        await tx.metrics.upsertUnknownFlags([unknown('typo', 61)]);
      });
      expect(await store().metrics.listBuckets(at(0))).toEqual([bucket('checkout', 1)]);
      expect(await store().metrics.listUnknownFlags(10)).toEqual([unknown('typo', 61)]);
      expect((await store().featureEnvironments.get('checkout', 'production'))?.lastSeenAt).toBe(at(61));
    });

    test('unknown flags: one row per name, app and environment, newest first, refreshed and pruned', async () => {
      await store().metrics.upsertUnknownFlags([
        unknown('b', 5),
        unknown('a', 5),
        unknown('a', 3, 'mobile'),
        unknown('a', 1, 'web', 'development'),
      ]);
      await store().metrics.upsertUnknownFlags([unknown('c', 2), unknown('c', 9), unknown('a', 7)]);
      expect(await store().metrics.listUnknownFlags(10)).toEqual([
        unknown('c', 9),
        unknown('a', 7),
        unknown('b', 5),
        unknown('a', 3, 'mobile'),
        unknown('a', 1, 'web', 'development'),
      ]);
      expect(await store().metrics.listUnknownFlags(2)).toEqual([unknown('c', 9), unknown('a', 7)]);
      expect(await store().metrics.deleteUnknownFlagsSeenBefore(at(5))).toBe(2);
      expect((await store().metrics.listUnknownFlags(10)).map((f) => f.name)).toEqual(['c', 'a', 'b']);
      await store().metrics.upsertUnknownFlags([]);
    });

    test('registrations are refreshed per instance and deleted per application', async () => {
      const app = (appName: string, instanceId: string, minutes: number) => ({
        appName,
        instanceId,
        sdkVersion: 'unleash-client-node:6.0.0',
        environment: 'production',
        strategies: ['default'],
        lastSeen: at(minutes),
      });
      await store().metrics.upsertApplication(app('web', 'a', 1));
      await store().metrics.upsertApplication(app('web', 'b', 2));
      await store().metrics.upsertApplication(app('api', 'a', 3));
      await store().metrics.upsertApplication(app('web', 'a', 4));
      expect(
        (await store().metrics.listApplications()).map((a) => [a.appName, a.instanceId, a.lastSeen]),
      ).toEqual([
        ['api', 'a', at(3)],
        ['web', 'a', at(4)],
        ['web', 'b', at(2)],
      ]);
      expect(await store().metrics.deleteApplication('web')).toBe(2);
      expect(await store().metrics.deleteApplication('web')).toBe(0);
      expect((await store().metrics.listApplications()).map((a) => a.appName)).toEqual(['api']);
    });
  });
}
