import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Flagstaff } from '../../flagstaff.js';
import { createMemoryStore } from '../../memory/index.js';
import { createOperationRunner } from '../../operations/run-operation.js';
import type { HttpClient } from '../../ports/runtime-ports.js';
import { type Logger, silentLogger } from '../../ports/runtime-ports.js';
import { withWriteTransactions } from '../../testing/write-transactions.js';
import { createResetLinks } from '../access/reset-links.js';
import { createSessionRuntime } from '../access/session-runtime.js';
import type { ServiceDeps } from '../deps.js';
import { cryptoIds } from '../deps.js';
import { createInstanceState } from '../operations/instance-state.js';
import { createMaintenanceState } from '../operations/maintenance.js';
import { createEvaluatorCache } from '../sdk/evaluator-cache.js';
import { alice, createTestFlagstaff, type TestClock } from '../test-support.js';
import { type AddonServiceOptions, createAddonRuntime } from './addon-runtime.js';
import { createAddonService } from './addon-service.js';
import { fetchHttp, loopbackAllowed, startReceiver, webhook } from './addon-test-receiver.js';

/** An addon service of its own over `deps`: in effect another process's. */
function addonServiceOver(deps: ServiceDeps & { http: HttpClient }, options: AddonServiceOptions) {
  const runtime = createAddonRuntime(deps, options);
  const instance = createInstanceState(deps.store, createMaintenanceState(deps.store), undefined);
  const evaluators = createEvaluatorCache(deps);
  const run = createOperationRunner({
    ...deps,
    tokenSecrets: null,
    instance,
    addons: runtime,
    evaluators,
    resetLinks: createResetLinks({ clock: deps.clock }),
    sessions: createSessionRuntime(),
  });
  return createAddonService(deps, run, runtime);
}

let flagstaff: Flagstaff;
let clock: TestClock;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeEach(async () => {
  ({ flagstaff, clock } = await createTestFlagstaff());
  receiver = await startReceiver();
});
afterEach(async () => {
  await flagstaff.close();
  await receiver.close();
});

describe('webhook delivery over time', () => {
  it('resumes where the last run stopped, retries failures with backoff, and parks what outlives its retry window', async () => {
    await flagstaff.addons.stop(); // only the service under test delivers here
    await flagstaff.addons.create(alice, webhook({ url: receiver.url() }));
    await flagstaff.features.create(alice, 'default', { name: 'while-stopped' });
    const logger: Logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const deps = {
      store: flagstaff.store,
      clock,
      ids: cryptoIds,
      policy: flagstaff.policy,
      logger,
      http: fetchHttp,
    };
    const addons = addonServiceOver(deps, {
      outbound: loopbackAllowed,
      pollMs: 60_000,
      retryBaseDelayMs: 5,
      retryMaxDelayMs: 20,
      retryWindowMs: 60_000,
    });
    const bodies = (name: string) => receiver.received.filter((r) => r.body.includes(`"${name}"`));
    try {
      await addons.deliverPending();
      // Appended while no delivery ran: delivered by the next run (regression: it used to be skipped).
      expect(bodies('while-stopped')).toHaveLength(1);
      receiver.statuses.push(503, 404);
      await flagstaff.features.create(alice, 'default', { name: 'flaky' });
      // Each retry waits for the (test) clock to pass its backoff.
      await vi.waitFor(
        async () => {
          clock.advance(100);
          await addons.deliverPending();
          expect(bodies('flaky')).toHaveLength(3);
        },
        { timeout: 5_000, interval: 10 },
      );
      expect(bodies('flaky').map((r) => r.headers['flagstaff-delivery-attempt'])).toEqual(['1', '2', '3']);
      expect(logger.warn).toHaveBeenCalledWith(
        'addon delivery failed; retrying with backoff',
        expect.objectContaining({ attempts: 1, failure: 'HTTP 503' }),
      );
      const [addon] = (await addons.list(alice)).addons;
      await vi.waitFor(async () =>
        expect((await addons.deliveryLog(alice, addon?.id ?? 0)).integrationEvents).toHaveLength(4),
      );
      const log = (await addons.deliveryLog(alice, addon?.id ?? 0)).integrationEvents;
      expect(log.map((e) => [e.state, e.details.statusCode, e.details.attempt])).toEqual([
        ['success', 200, 3],
        ['failed', 404, 2],
        ['failed', 503, 1],
        ['success', 200, 1],
      ]);
      expect(log[0]?.event).toMatchObject({ type: 'feature-created', featureName: 'flaky' });
    } finally {
      await addons.stop();
    }
  });

  it('a receiver down for two hours (on a controllable clock) gets everything, in order, once it is back', async () => {
    await flagstaff.addons.stop();
    const deps = {
      store: flagstaff.store,
      clock,
      ids: cryptoIds,
      policy: flagstaff.policy,
      logger: silentLogger,
      http: fetchHttp,
    };
    const addons = addonServiceOver(deps, {
      outbound: loopbackAllowed,
      pollMs: 60_000,
    });
    try {
      await addons.create(alice, webhook({ url: receiver.url() }));
      receiver.statuses.push(...Array.from({ length: 1_000 }, () => 503));
      const names: string[] = [];
      // Two hours of outage, an event written every ten minutes, delivery tried as backoff allows.
      for (let minute = 0; minute < 120; minute += 2) {
        if (minute % 10 === 0) {
          names.push(`outage-${minute}`);
          await flagstaff.features.create(alice, 'default', { name: `outage-${minute}` });
        }
        await addons.deliverPending();
        clock.advance(2 * 60_000);
      }
      expect(receiver.received.length).toBeGreaterThan(5);
      expect((await addons.list(alice)).addons[0]?.delivery).toMatchObject({
        state: 'retrying',
        pending: 12,
      });
      receiver.statuses.length = 0;
      // Back: the next retry (at most the 10-minute backoff ceiling away) drains the queue.
      for (let minute = 0; minute <= 10; minute += 2) {
        clock.advance(2 * 60_000);
        await addons.deliverPending();
      }
      const delivered = receiver.received.slice(-names.length).map((r) => JSON.parse(r.body).featureName);
      expect(delivered).toEqual(names);
      expect((await addons.list(alice)).addons[0]?.delivery).toMatchObject({
        state: 'healthy',
        pending: 0,
        parked: 0,
      });
    } finally {
      await addons.stop();
    }
  });

  it('parks an event once its retry window has passed, and delivers it again on replay', async () => {
    await flagstaff.addons.stop();
    const logger: Logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const deps = {
      store: flagstaff.store,
      clock,
      ids: cryptoIds,
      policy: flagstaff.policy,
      logger,
      http: fetchHttp,
    };
    const addons = addonServiceOver(deps, {
      outbound: loopbackAllowed,
      pollMs: 60_000,
      retryWindowMs: 60 * 60_000,
    });
    try {
      const { id } = await addons.create(alice, webhook({ url: receiver.url() }));
      receiver.statuses.push(...Array.from({ length: 20 }, () => 500));
      await flagstaff.features.create(alice, 'default', { name: 'down' });
      for (let minute = 0; minute <= 60; minute += 10) {
        await addons.deliverPending();
        clock.advance(10 * 60_000);
      }
      await addons.deliverPending();
      expect(logger.warn).toHaveBeenCalledWith(
        'addon delivery gave up on an event and parked it',
        expect.objectContaining({ failure: 'HTTP 500' }),
      );
      const status = (await addons.get(alice, id)).delivery;
      expect(status).toMatchObject({ state: 'parked', parked: 1, pending: 0 });
      const { deliveries } = await addons.deliveries(alice, id, { state: 'parked' });
      expect(deliveries.map((d) => [d.event, d.lastError])).toEqual([
        [expect.objectContaining({ featureName: 'down' }), 'HTTP 500'],
      ]);
      receiver.statuses.length = 0;
      const tries = receiver.received.length;
      expect(await addons.replay(alice, id, deliveries[0]?.eventId ?? 0)).toEqual({ replayed: 1 });
      await vi.waitFor(() => expect(receiver.received).toHaveLength(tries + 1));
      await vi.waitFor(async () => expect((await addons.get(alice, id)).delivery.state).toBe('healthy'));
      await expect(addons.replay(alice, id, deliveries[0]?.eventId ?? 0)).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
    } finally {
      await addons.stop();
    }
  });

  it('starts at the newest event the very first time it runs on a store', async () => {
    const store = createMemoryStore();
    const event = (featureName: string) => ({
      type: 'feature-created' as const,
      createdBy: 'x',
      createdByUserId: null,
      createdAt: new Date().toISOString(),
      project: 'default',
      featureName,
      data: { name: featureName },
    });
    await withWriteTransactions(store).addons.insert({
      provider: 'webhook',
      description: null,
      enabled: true,
      parameters: { url: receiver.url() },
      events: ['feature-created'],
      projects: [],
      environments: [],
      createdAt: new Date().toISOString(),
    });
    await store.transaction((tx) => tx.events.append([event('history')]));
    expect(await store.addons.getDeliveredThrough()).toBeNull();
    const deps = {
      store,
      clock: { now: () => new Date() },
      ids: cryptoIds,
      policy: flagstaff.policy,
      logger: silentLogger,
      http: fetchHttp,
    };
    const addons = addonServiceOver(deps, {
      outbound: loopbackAllowed,
      pollMs: 60_000,
    });
    try {
      await addons.deliverPending();
      await store.transaction((tx) => tx.events.append([event('news')]));
      await addons.deliverPending();
      expect(receiver.received.map((r) => JSON.parse(r.body).featureName)).toEqual(['news']);
      expect(await store.addons.getDeliveredThrough()).toBe(2);
    } finally {
      await addons.stop();
    }
  });

  it('does not write its position after every command when no addon is enabled, but saves it on stop', async () => {
    await flagstaff.addons.stop();
    const store = flagstaff.store;
    const deps = {
      store,
      clock: { now: () => new Date() },
      ids: cryptoIds,
      policy: flagstaff.policy,
      logger: silentLogger,
      http: fetchHttp,
    };
    const addons = addonServiceOver(deps, {
      outbound: loopbackAllowed,
      pollMs: 60_000,
    });
    await addons.deliverPending();
    const start = await store.addons.getDeliveredThrough();
    for (const name of ['a1', 'a2', 'a3']) {
      await flagstaff.features.create(alice, 'default', { name });
      await addons.deliverPending();
    }
    expect(await store.addons.getDeliveredThrough()).toBe(start);
    await addons.stop();
    expect(await store.addons.getDeliveredThrough()).toBe(await store.events.latestId());
  });

  it('never sends an addon events from before it existed', async () => {
    await flagstaff.addons.stop();
    await flagstaff.features.create(alice, 'default', { name: 'older' });
    const deps = {
      store: flagstaff.store,
      clock: { now: () => new Date() },
      ids: cryptoIds,
      policy: flagstaff.policy,
      logger: silentLogger,
      http: fetchHttp,
    };
    // A position that lags behind (as after a crash with nothing enabled) must not leak history.
    await flagstaff.store.transaction((tx) => tx.addons.setDeliveredThrough(0));
    clock.advance(1000);
    await flagstaff.addons.create(alice, webhook({ url: receiver.url() }));
    await flagstaff.features.create(alice, 'default', { name: 'newer' });
    const addons = addonServiceOver(deps, {
      outbound: loopbackAllowed,
      pollMs: 60_000,
    });
    try {
      await addons.deliverPending();
      expect(receiver.received.map((r) => JSON.parse(r.body).featureName)).toEqual(['newer']);
    } finally {
      await addons.stop();
    }
  });

  it('logs unreachable receivers instead of throwing, and stops delivering after stop()', async () => {
    const logger: Logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn() };
    const deps = {
      store: flagstaff.store,
      clock,
      ids: cryptoIds,
      policy: flagstaff.policy,
      logger,
      http: fetchHttp,
    };
    const addons = addonServiceOver(deps, {
      outbound: loopbackAllowed,
      pollMs: 60_000,
      timeoutMs: 500,
    });
    await addons.deliverPending();
    await flagstaff.addons.stop();
    await flagstaff.addons.create(alice, webhook({ url: 'http://127.0.0.1:9/unreachable' }));
    await flagstaff.features.create(alice, 'default', { name: 'nobody-home' });
    await expect(addons.deliverPending()).resolves.toBeUndefined();
    expect(logger.warn).toHaveBeenCalledWith(
      'addon delivery failed; retrying with backoff',
      expect.objectContaining({ attempts: 1, failure: expect.stringContaining('fetch failed') }),
    );
    await addons.stop();
    await flagstaff.addons.create(alice, webhook({ url: receiver.url() }));
    await flagstaff.features.create(alice, 'default', { name: 'after-stop' });
    await addons.deliverPending();
    await flagstaff.addons.deliverPending();
    expect(receiver.received).toEqual([]);
  });
});
