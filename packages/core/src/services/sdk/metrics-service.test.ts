import { beforeEach, describe, expect, it } from 'vitest';
import type { Flagstaff } from '../../flagstaff.js';
import { alice, createTestFlagstaff, type TestClock, tokenCaller } from '../test-support.js';

let flagstaff: Flagstaff;
let clock: TestClock;
beforeEach(async () => {
  ({ flagstaff, clock } = await createTestFlagstaff());
});

const metrics = (toggles: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  appName: 'shop',
  instanceId: 'i-1',
  bucket: { start: '2026-01-01T10:15:00Z', stop: '2026-01-01T10:16:00Z', toggles },
  ...extra,
});

describe('client registration', () => {
  it('upserts the application without writing events', async () => {
    clock.set('2026-01-01T10:00:00.000Z');
    await flagstaff.metrics.register(tokenCaller('client', 'production'), {
      appName: 'shop',
      instanceId: 'i-1',
      sdkVersion: 'unleash-client-node:6.1.0',
    });
    clock.set('2026-01-01T11:00:00.000Z');
    await flagstaff.metrics.register(tokenCaller('client', 'production'), {
      appName: 'shop',
      instanceId: 'i-1',
      strategies: ['default'],
    });
    const apps = await flagstaff.metrics.applications(alice);
    expect(apps).toHaveLength(1);
    expect(apps[0]).toMatchObject({
      appName: 'shop',
      instanceId: 'i-1',
      environment: 'production',
      strategies: ['default'],
      lastSeen: '2026-01-01T11:00:00.000Z',
    });
    expect(await flagstaff.store.events.latestId()).toBe(0);
    await expect(
      flagstaff.metrics.register(tokenCaller('client'), { instanceId: 'x' }),
    ).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('"appName"'),
    });
  });
});

describe('client metrics', () => {
  it('adds hourly buckets in the token environment and marks feature environments seen', async () => {
    await flagstaff.features.create(alice, 'default', { name: 'checkout' });
    clock.set('2026-01-01T10:20:00.000Z');
    await flagstaff.metrics.recordMetrics(
      tokenCaller('client', 'production'),
      metrics({ checkout: { yes: 3, no: 1, variants: { blue: 2 } }, idle: { yes: 0, no: 0 } }),
    );
    await flagstaff.metrics.recordMetrics(
      tokenCaller('client', 'production'),
      metrics({ checkout: { yes: 2, no: 0 } }, { environment: 'development' }),
    );
    const buckets = await flagstaff.metrics.bucketsSince(alice, '2026-01-01T00:00:00.000Z');
    expect(buckets).toEqual([
      {
        featureName: 'checkout',
        appName: 'shop',
        environment: 'production',
        timestamp: '2026-01-01T10:00:00.000Z',
        yes: 5,
        no: 1,
        variants: { blue: 2 },
      },
    ]);
    expect((await flagstaff.store.featureEnvironments.get('checkout', 'production'))?.lastSeenAt).toBe(
      '2026-01-01T10:20:00.000Z',
    );
    expect(
      (await flagstaff.store.featureEnvironments.get('checkout', 'development'))?.lastSeenAt ?? null,
    ).toBeNull();
    expect(await flagstaff.metrics.bucketsSince(alice, '2026-01-01T11:00:00.000Z')).toEqual([]);
    expect(await flagstaff.store.events.latestId()).toBe(1);
  });

  it('uses the reported environment (or "default") for all-environment tokens', async () => {
    await flagstaff.features.create(alice, 'default', { name: 'a' });
    await flagstaff.metrics.recordMetrics(
      tokenCaller('client', '*'),
      metrics({ a: { yes: 1 } }, { environment: 'development' }),
    );
    await flagstaff.metrics.recordMetrics(tokenCaller('client', '*'), metrics({ a: { no: 1 } }));
    const buckets = await flagstaff.metrics.bucketsSince(alice, '2026-01-01T00:00:00.000Z');
    expect(buckets.map((b) => [b.environment, b.yes, b.no]).sort()).toEqual([
      ['default', 0, 1],
      ['development', 1, 0],
    ]);
  });

  it('refuses malformed metrics naming the property', async () => {
    await expect(
      flagstaff.metrics.recordMetrics(tokenCaller('client', 'production'), metrics({ a: { yes: -1 } })),
    ).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('"bucket.toggles.a.yes"'),
    });
    await expect(
      flagstaff.metrics.recordMetrics(tokenCaller('client', 'production'), { appName: 'x' }),
    ).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('"bucket"'),
    });
  });
});
