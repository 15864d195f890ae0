import { afterEach, describe, expect, it } from 'vitest';
import { createFlagstaff, type Flagstaff, type FlagstaffOptions } from '../../flagstaff.js';
import { createMemoryStore } from '../../memory/index.js';
import type { Store } from '../../ports/store.js';
import { alice, createTestClock, tokenCaller } from '../test-support.js';

const clock = createTestClock('2026-01-01T10:20:00.000Z');
const HOUR = '2026-01-01T10:00:00.000Z';
const open: Flagstaff[] = [];
afterEach(async () => {
  for (const f of open.splice(0)) await f.close();
});

/** A memory store whose transactions and close are observed (and can be made to fail). */
function observedStore() {
  const inner = createMemoryStore();
  const log: string[] = [];
  let failNext = false;
  const store: Store = {
    ...inner,
    name: inner.name,
    async transaction(fn) {
      log.push('transaction');
      if (failNext) {
        failNext = false;
        throw new Error('database is locked');
      }
      return inner.transaction(fn);
    },
    async close() {
      log.push(`close with ${(await inner.metrics.listBuckets(HOUR)).length} buckets`);
      await inner.close();
    },
  };
  return { store, inner, log, failOnce: () => (failNext = true) };
}

async function start(options: Partial<FlagstaffOptions> = {}, store: Store = createMemoryStore()) {
  const flagstaff = await createFlagstaff({ store, clock, metricsFlushIntervalMs: 0, ...options });
  open.push(flagstaff);
  for (const name of ['checkout', 'search']) await flagstaff.features.create(alice, 'default', { name });
  return flagstaff;
}

const report = (
  toggles: Record<string, { yes?: number; no?: number; variants?: Record<string, number> }>,
) => ({
  appName: 'shop',
  instanceId: 'i-1',
  bucket: { start: '2026-01-01T10:15:00Z', stop: '2026-01-01T10:16:00Z', toggles },
});

describe('batched metrics', () => {
  it('adds many reports up in memory and writes them in one transaction per flush', async () => {
    const { store, log } = observedStore();
    const flagstaff = await start({}, store);
    log.length = 0;
    for (let i = 0; i < 100; i++)
      await flagstaff.metrics.recordMetrics(
        tokenCaller('client', 'production'),
        report({ checkout: { yes: 1, variants: { blue: 1 } }, search: { no: 2 } }),
      );
    await flagstaff.metrics.register(tokenCaller('client', 'production'), {
      appName: 'shop',
      instanceId: 'i-1',
    });
    expect(await store.metrics.listBuckets(HOUR)).toEqual([]);
    expect(log).toEqual([]);
    await flagstaff.metrics.flush();
    expect(log).toEqual(['transaction']);
    const buckets = await store.metrics.listBuckets(HOUR);
    expect(buckets.map((b) => [b.featureName, b.yes, b.no, b.variants])).toEqual([
      ['checkout', 100, 0, { blue: 100 }],
      ['search', 0, 200, {}],
    ]);
    expect(await store.metrics.listApplications()).toHaveLength(1);
    await flagstaff.metrics.flush();
    expect(log).toEqual(['transaction']);
  });

  it('stamps lastSeenAt with the last report of each feature environment, at flush', async () => {
    const flagstaff = await start();
    await flagstaff.metrics.recordMetrics(
      tokenCaller('client', 'production'),
      report({ checkout: { yes: 1 } }),
    );
    clock.advance(60_000);
    await flagstaff.metrics.recordMetrics(
      tokenCaller('client', 'production'),
      report({ checkout: { no: 1 }, search: { yes: 0 } }),
    );
    const seen = async (name: string) =>
      (await flagstaff.store.featureEnvironments.get(name, 'production'))?.lastSeenAt ?? null;
    expect(await seen('checkout')).toBeNull();
    await flagstaff.metrics.flush();
    expect(await seen('checkout')).toBe(clock.now().toISOString());
    expect(await seen('search')).toBeNull();
  });

  it('writes on its own every metricsFlushIntervalMs', async () => {
    const flagstaff = await start({ metricsFlushIntervalMs: 20 });
    await flagstaff.metrics.recordMetrics(
      tokenCaller('client', 'production'),
      report({ checkout: { yes: 1 } }),
    );
    await expect
      .poll(() => flagstaff.store.metrics.listBuckets(HOUR), { timeout: 2000, interval: 10 })
      .toHaveLength(1);
  });

  it('close() writes what is pending before it closes the store', async () => {
    const { store, log } = observedStore();
    const flagstaff = await createFlagstaff({ store, clock, metricsFlushIntervalMs: 60_000 });
    await flagstaff.features.create(alice, 'default', { name: 'checkout' });
    await flagstaff.metrics.recordMetrics(
      tokenCaller('client', 'production'),
      report({ checkout: { yes: 1 } }),
    );
    log.length = 0;
    await flagstaff.close();
    // The flush (and the addon delivery's lease release) commit before the store closes, with the bucket.
    expect(log.at(-1)).toBe('close with 1 buckets');
    expect(log.slice(0, -1).every((entry) => entry === 'transaction')).toBe(true);
  });

  it('keeps a batch whose write failed for the next flush, added to what came meanwhile', async () => {
    const { store, failOnce } = observedStore();
    const flagstaff = await start({}, store);
    await flagstaff.metrics.recordMetrics(
      tokenCaller('client', 'production'),
      report({ checkout: { yes: 2 } }),
    );
    failOnce();
    await expect(flagstaff.metrics.flush()).rejects.toThrow('database is locked');
    await flagstaff.metrics.recordMetrics(
      tokenCaller('client', 'production'),
      report({ checkout: { yes: 3 } }),
    );
    await flagstaff.metrics.flush();
    expect((await store.metrics.listBuckets(HOUR)).map((b) => b.yes)).toEqual([5]);
  });

  it('starts a flush early once maxPendingKeys keys wait', async () => {
    const flagstaff = await start({ metricsLimits: { maxPendingKeys: 2 } });
    await flagstaff.metrics.recordMetrics(
      tokenCaller('client', 'production'),
      report({ checkout: { yes: 1 }, search: { yes: 1 } }),
    );
    await expect
      .poll(() => flagstaff.store.metrics.listBuckets(HOUR), { timeout: 2000, interval: 10 })
      .toHaveLength(2);
  });
});

describe('unknown flags', () => {
  it('remembers names no feature has, drops their counts, and forgets them once they exist', async () => {
    const flagstaff = await start();
    await flagstaff.metrics.recordMetrics(
      tokenCaller('client', 'production'),
      report({ checkout: { yes: 1 }, chekout: { yes: 4 } }),
    );
    await flagstaff.metrics.recordMetrics(
      tokenCaller('client', 'development'),
      report({ chekout: { no: 1 }, later: { yes: 1 } }),
    );
    expect(await flagstaff.metrics.unknownFlags(alice)).toEqual([
      { name: 'chekout', appName: 'shop', environment: 'development', lastSeenAt: clock.now().toISOString() },
      { name: 'chekout', appName: 'shop', environment: 'production', lastSeenAt: clock.now().toISOString() },
      { name: 'later', appName: 'shop', environment: 'development', lastSeenAt: clock.now().toISOString() },
    ]);
    expect((await flagstaff.metrics.bucketsSince(alice, HOUR)).map((b) => b.featureName)).toEqual([
      'checkout',
    ]);
    await flagstaff.features.create(alice, 'default', { name: 'later' });
    expect((await flagstaff.metrics.unknownFlags(alice)).map((f) => f.name)).toEqual(['chekout', 'chekout']);
  });
});

describe('limits and the bulk shape', () => {
  it('refuses a bucket with more toggles than maxTogglesPerBucket, naming the limit', async () => {
    const flagstaff = await start({ metricsLimits: { maxTogglesPerBucket: 2 } });
    await expect(
      flagstaff.metrics.recordMetrics(
        tokenCaller('client', 'production'),
        report({ a: { yes: 1 }, b: { yes: 1 }, c: { yes: 1 } }),
      ),
    ).rejects.toMatchObject({ code: 'LIMIT_EXCEEDED', message: expect.stringContaining('"bucket.toggles"') });
  });

  it('takes Edge bulk metrics, keeping to the token environment', async () => {
    const flagstaff = await start({ metricsLimits: { maxBulkEntries: 4 } });
    const entry = (environment: string, yes: number) => ({
      featureName: 'checkout',
      appName: 'edge-app',
      environment,
      timestamp: '2026-01-01T09:59:00.000Z',
      yes,
      no: 0,
    });
    const result = await flagstaff.metrics.recordBulk(tokenCaller('client', 'production'), {
      applications: [{ appName: 'edge-app', instanceId: 'pod-1', environment: 'production', strategies: [] }],
      metrics: [entry('production', 2), entry('development', 7), entry('production', 1)],
    });
    expect(result).toEqual({ applications: 1, metrics: 2 });
    expect(
      (await flagstaff.metrics.bucketsSince(alice, '2026-01-01T09:00:00.000Z')).map((b) => [
        b.timestamp,
        b.environment,
        b.yes,
      ]),
    ).toEqual([['2026-01-01T09:00:00.000Z', 'production', 3]]);
    expect((await flagstaff.metrics.applications(alice)).map((a) => a.instanceId)).toEqual(['pod-1']);
    await expect(
      flagstaff.metrics.recordBulk(tokenCaller('client', '*'), {
        applications: [],
        metrics: [1, 2, 3, 4, 5].map((n) => entry('x', n)),
      }),
    ).rejects.toMatchObject({ code: 'LIMIT_EXCEEDED' });
    await expect(
      flagstaff.metrics.recordBulk(tokenCaller('client', '*'), {
        applications: [],
        metrics: [{ ...entry('x', 1), featureName: 3 }],
      }),
    ).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('"metrics[0].featureName"'),
    });
  });
});
