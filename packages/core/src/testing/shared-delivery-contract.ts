import { afterEach, describe, expect, test } from 'vitest';
import { SYSTEM } from '../auth/caller.js';
import { createFlagstaff, type Flagstaff } from '../flagstaff.js';
import type { Store } from '../ports/store.js';
import { startWebhookReceiver } from './webhook-receiver.js';
import { withWriteTransactions } from './write-transactions.js';

/**
 * Opens two handles on one fresh, empty database, as two server processes would (one SQLite file
 * opened twice, two pools on one PostgreSQL schema). They are closed second first, then first.
 */
export type SharedStoreFactory = () => Promise<readonly [Store, Store]>;

const actor = SYSTEM;

/** A clock at real time plus an offset the test moves. */
function offsetClock() {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    advance: (ms: number) => {
      offset += ms;
    },
  };
}

/**
 * Two Flagstaff instances on one shared store with a webhook addon: each event reaches the receiver
 * exactly once, whichever instance wrote it and whichever tried to deliver it.
 */
export function describeSharedAddonDelivery(name: string, openPair: SharedStoreFactory): void {
  describe(`${name}: addon delivery shared by two instances`, () => {
    let cleanup: (() => Promise<void>)[] = [];
    afterEach(async () => {
      for (const fn of cleanup.reverse()) await fn();
      cleanup = [];
    });

    /** Two instances; `a` is created and holds the delivery lease before `b` exists. */
    async function setup(clocks: { a?: { now(): Date }; b?: { now(): Date } } = {}) {
      // Quick retries, so a receiver that refuses for a moment is retried within the test.
      const addonDelivery = { retryBaseDelayMs: 10, retryMaxDelayMs: 50 };
      // The receiver listens on loopback, which the outbound policy refuses unless allow-listed.
      const webhookAllowedHosts = ['127.0.0.1'];
      const receiver = await startWebhookReceiver();
      const names = (): string[] => receiver.delivered().map((r) => String(r.featureName));
      cleanup.push(receiver.close);
      const [first, second] = await openPair();
      const instances: Flagstaff[] = [];
      cleanup.push(async () => {
        for (const instance of [...instances].reverse()) await instance.addons.stop();
        await second.close();
        await first.close();
      });
      const a = await createFlagstaff({
        store: first,
        addonDelivery,
        webhookAllowedHosts,
        ...(clocks.a && { clock: clocks.a }),
      });
      instances.push(a);
      await a.addons.deliverPending();
      const b = await createFlagstaff({
        store: second,
        addonDelivery,
        webhookAllowedHosts,
        ...(clocks.b && { clock: clocks.b }),
      });
      instances.push(b);
      await b.addons.deliverPending();
      await a.addons.create(actor, {
        provider: 'webhook',
        parameters: { url: receiver.url },
        events: ['feature-created'],
      });
      /** Lets both instances deliver until `count` arrived, then once more, so extras would show. */
      const deliverAll = async (count: number): Promise<void> => {
        for (let i = 0; i < 250 && names().length < count; i++) {
          await Promise.all([a.addons.deliverPending(), b.addons.deliverPending()]);
          if (names().length < count) await new Promise((r) => setTimeout(r, 20));
        }
        await new Promise((r) => setTimeout(r, 100));
        await Promise.all([a.addons.deliverPending(), b.addons.deliverPending()]);
      };
      /** Feature names of feature-created events, in log order. */
      const logged = async (): Promise<string[]> =>
        (await a.store.events.search({ type: 'feature-created', ascending: true })).map((e) =>
          String(e.featureName),
        );
      return { a, b, receiver, names, deliverAll, logged };
    }

    test('each event is delivered once, in log order, while both instances write and deliver', async () => {
      const { a, b, names, deliverAll, logged } = await setup();
      const written = Array.from({ length: 12 }, (_, i) => `feature-${i}`);
      await Promise.all(
        written.map(async (feature, i) => {
          await (i % 2 === 0 ? a : b).features.create(actor, 'default', { name: feature });
          await Promise.all([a.addons.deliverPending(), b.addons.deliverPending()]);
        }),
      );
      await deliverAll(written.length);
      expect([...names()].sort()).toEqual([...written].sort());
      expect(names()).toEqual(await logged());
    });

    test('a receiver that refuses for a while gets every event once, in log order, from either instance', async () => {
      const { a, b, receiver, names, deliverAll, logged } = await setup();
      // Down for the first 15 requests, whichever instance sends them.
      receiver.answerWith(({ index }) => (index < 15 ? 503 : 200));
      const written = Array.from({ length: 30 }, (_, i) => `flaky-${i}`);
      for (const [i, name] of written.entries()) {
        await (i % 2 === 0 ? a : b).features.create(actor, 'default', { name });
        if (i % 5 === 0) await Promise.all([a.addons.deliverPending(), b.addons.deliverPending()]);
      }
      await deliverAll(written.length);
      expect(receiver.received.filter((r) => r.status === 503).length).toBe(15);
      expect(names()).toEqual(await logged());
      expect(new Set(receiver.delivered().map((r) => r.eventId)).size).toBe(written.length);
    });

    test('when the delivering instance stops, the other takes over where it left off', async () => {
      const { a, b, names, deliverAll } = await setup();
      await b.features.create(actor, 'default', { name: 'before' });
      await deliverAll(1);
      expect(names()).toEqual(['before']);
      const holder = (await b.store.addons.getDeliveryLease())?.holder;
      expect(holder).toBeDefined();
      await a.addons.stop();
      expect((await b.store.addons.getDeliveryLease())?.holder).not.toBe(holder);
      await b.features.create(actor, 'default', { name: 'after-1' });
      await a.features.create(actor, 'default', { name: 'after-2' });
      await deliverAll(3);
      expect(names()).toEqual(['before', 'after-1', 'after-2']);
    });

    test('a lease whose holder died is taken over once it expires, nothing lost or repeated', async () => {
      const clock = offsetClock();
      const { a, b, names, deliverAll } = await setup({ b: clock });
      await b.features.create(actor, 'default', { name: 'first' });
      await deliverAll(1);
      // What a process that took the lease and then died leaves behind: a lease no one renews.
      await a.addons.stop();
      const now = clock.now().getTime();
      expect(
        await withWriteTransactions(b.store).addons.acquireDeliveryLease('crashed', now, now + 30_000),
      ).not.toBeNull();
      await b.features.create(actor, 'default', { name: 'while-held' });
      await b.addons.deliverPending();
      await new Promise((r) => setTimeout(r, 100));
      await b.addons.deliverPending();
      expect(names()).toEqual(['first']);
      clock.advance(30_000);
      await b.features.create(actor, 'default', { name: 'after-expiry' });
      await deliverAll(3);
      expect(names()).toEqual(['first', 'while-held', 'after-expiry']);
      expect((await b.store.addons.getDeliveryLease())?.holder).not.toBe('crashed');
    });
  });
}
