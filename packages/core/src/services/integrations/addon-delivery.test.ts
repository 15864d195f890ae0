import { describe, expect, it } from 'vitest';
import { createPolicy } from '../../auth/policy.js';
import type { NewEvent } from '../../domain/event.js';
import { createMemoryStore } from '../../memory/index.js';
import type { HttpClient } from '../../ports/runtime-ports.js';
import { silentLogger } from '../../ports/runtime-ports.js';
import type { Repositories, Store } from '../../ports/store.js';
import { describeSharedAddonDelivery } from '../../testing/shared-delivery-contract.js';
import { withWriteTransactions } from '../../testing/write-transactions.js';
import { cryptoIds } from '../deps.js';
import { createTestClock, type TestClock } from '../test-support.js';
import { createAddonDelivery } from './addon-delivery.js';
import { createOutboundPolicy } from './outbound-policy.js';

describeSharedAddonDelivery('memory', async () => {
  const store = createMemoryStore();
  return [store, store] as const;
});

const event = (featureName: string, clock: TestClock): NewEvent => ({
  type: 'feature-created',
  createdBy: 'x',
  createdByUserId: null,
  createdAt: clock.now().toISOString(),
  project: 'default',
  featureName,
  data: { name: featureName },
});

/** An HTTP client recording feature names; a request to a held name waits until released. */
function recordingHttp() {
  const sent: string[] = [];
  const held = new Map<string, () => void>();
  const waiting = new Map<string, Promise<void>>();
  const http: HttpClient = {
    async post(_url, init) {
      const name = String(JSON.parse(init.body).featureName);
      sent.push(name);
      await waiting.get(name);
      return { status: 200 };
    },
  };
  return {
    http,
    sent,
    hold(name: string) {
      waiting.set(name, new Promise<void>((resolve) => held.set(name, resolve)));
    },
    release: (name: string) => held.get(name)?.(),
  };
}

async function withAddon(store: Store, clock: TestClock): Promise<void> {
  await withWriteTransactions(store).addons.insert({
    provider: 'webhook',
    description: null,
    enabled: true,
    parameters: { url: 'http://127.0.0.1:9/hook' },
    events: ['feature-created'],
    projects: [],
    environments: [],
    createdAt: clock.now().toISOString(),
  });
}

/** Counts the calls to each `store.addons` method. */
function countingAddons(store: Store) {
  const calls: Record<string, number> = {};
  // Over an empty target: repositories may be frozen, and a proxy may not change a frozen answer.
  const counted = <R extends object>(repository: R): R =>
    new Proxy({} as R, {
      get(_target, name) {
        const fn: unknown = Reflect.get(repository, name);
        if (typeof fn !== 'function' || typeof name !== 'string') return fn;
        return (...args: unknown[]) => {
          calls[name] = (calls[name] ?? 0) + 1;
          return Reflect.apply(fn, repository, args);
        };
      },
    });
  const withCountedAddons = (tx: Repositories): Repositories =>
    new Proxy(tx, { get: (t, name) => (name === 'addons' ? counted(t.addons) : Reflect.get(t, name)) });
  const counting: Store = {
    ...store,
    addons: counted(store.addons),
    // Writes happen in transactions: count the lease calls made there too.
    transaction: (fn) => store.transaction((tx) => fn(withCountedAddons(tx))),
  };
  return { store: counting, calls };
}

// The addon's URL is on loopback, which the outbound policy refuses unless allow-listed.
const options = { pollMs: 60_000, leaseMs: 30_000, outbound: createOutboundPolicy(['127.0.0.1']) };

describe('addon delivery lease', () => {
  it('takes no lease round trip per command while more than half its term is left', async () => {
    const clock = createTestClock();
    const memory = createMemoryStore();
    await withAddon(memory, clock);
    const { store, calls } = countingAddons(memory);
    const { http, sent } = recordingHttp();
    const delivery = createAddonDelivery(
      { store, clock, ids: cryptoIds, logger: silentLogger, policy: createPolicy(store), http },
      options,
    );
    try {
      await delivery.deliverPending();
      // Starting up: one look at the lease, then taking it.
      expect(calls).toMatchObject({ getDeliveryLease: 1, acquireDeliveryLease: 1 });
      for (const name of ['a', 'b', 'c']) {
        await memory.transaction((tx) => tx.events.append([event(name, clock)]));
        clock.advance(4_000);
        await delivery.deliverPending();
      }
      expect(sent).toEqual(['a', 'b', 'c']);
      // No lease round trip of its own: each delivery reads the lease inside the transaction that
      // records it (so a holder that was taken over stops), and that is all.
      expect(calls).toMatchObject({ getDeliveryLease: 1 + 3, acquireDeliveryLease: 1 });
      // Each delivery's compare-and-set save renewed the lease, so none is due yet.
      clock.advance(14_000);
      await delivery.deliverPending();
      expect(calls['acquireDeliveryLease']).toBe(1);
      // Idle past half the term: the next run renews before it reads the log.
      clock.advance(2_000);
      await delivery.deliverPending();
      expect(calls['acquireDeliveryLease']).toBe(2);
    } finally {
      await delivery.stop();
    }
  });

  it('a process whose lease was taken over mid-delivery stops without moving the position', async () => {
    const clockA = createTestClock();
    const clockB = createTestClock();
    const store = createMemoryStore();
    await withAddon(store, clockA);
    const a = recordingHttp();
    const b = recordingHttp();
    const deps = { store, ids: cryptoIds, logger: silentLogger, policy: createPolicy(store) };
    const first = createAddonDelivery({ ...deps, clock: clockA, http: a.http }, options);
    await first.deliverPending();
    const second = createAddonDelivery({ ...deps, clock: clockB, http: b.http }, options);
    try {
      await store.transaction((tx) => tx.events.append([event('slow', clockA), event('next', clockA)]));
      a.hold('slow');
      const stalled = first.deliverPending();
      await expect.poll(() => a.sent).toEqual(['slow']);
      // b's lease check finds a's lease running: it stands by.
      await second.deliverPending();
      expect(b.sent).toEqual([]);
      // a stalls past its term (a paused VM, say); b takes over and delivers both.
      clockB.advance(31_000);
      await second.deliverPending();
      expect(b.sent).toEqual(['slow', 'next']);
      const position = await store.addons.getDeliveredThrough();
      // a's clock moved on through the stall too, as wall clocks do: its next lease check asks the store.
      clockA.advance(31_000);
      a.release('slow');
      await stalled;
      // a's save was refused: it sent nothing more and left the position where b put it.
      expect(a.sent).toEqual(['slow']);
      expect(await store.addons.getDeliveredThrough()).toBe(position);
      await store.transaction((tx) => tx.events.append([event('later', clockA)]));
      await Promise.all([first.deliverPending(), second.deliverPending()]);
      expect(a.sent).toEqual(['slow']);
      expect(b.sent).toEqual(['slow', 'next', 'later']);
    } finally {
      await first.stop();
      await second.stop();
    }
  });

  it('renews the lease while one slow delivery outlasts it', async () => {
    const clock = createTestClock();
    const store = createMemoryStore();
    await withAddon(store, clock);
    const { http, sent, hold, release } = recordingHttp();
    const delivery = createAddonDelivery(
      { store, clock, ids: cryptoIds, logger: silentLogger, policy: createPolicy(store), http },
      { ...options, leaseMs: 300 },
    );
    try {
      await delivery.deliverPending();
      await store.transaction((tx) => tx.events.append([event('slow', clock)]));
      hold('slow');
      const running = delivery.deliverPending();
      await expect.poll(() => sent).toEqual(['slow']);
      const before = await store.addons.getDeliveryLease();
      clock.advance(250);
      // The heartbeat (every third of the term) extends it from the clock's new time.
      await expect
        .poll(async () => (await store.addons.getDeliveryLease())?.expiresAt)
        .toBe(clock.now().getTime() + 300);
      expect((await store.addons.getDeliveryLease())?.holder).toBe(before?.holder);
      release('slow');
      await running;
    } finally {
      await delivery.stop();
    }
    expect(await store.addons.getDeliveryLease()).toBeNull();
  });
});

describe('addon delivery pace', () => {
  it('with no addon enabled, a burst of commands is not read per notice; an addon enabled here is served at once', async () => {
    const clock = createTestClock();
    const memory = createMemoryStore();
    const { store, calls } = countingAddons(memory);
    const { http, sent } = recordingHttp();
    const delivery = createAddonDelivery(
      { store, clock, ids: cryptoIds, logger: silentLogger, policy: createPolicy(store), http },
      { ...options, coalesceMs: 1, idleCoalesceMs: 60_000 },
    );
    try {
      await delivery.deliverPending();
      expect(calls['list']).toBe(1);
      for (const name of ['a', 'b', 'c', 'd', 'e']) {
        await memory.transaction((tx) =>
          tx.events.append([{ ...event(name, clock), type: 'feature-archived' }]),
        );
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      // At the busy pace (1 ms) each of these notices would have read the addons again.
      expect(calls['list']).toBe(1);
      await withAddon(memory, clock);
      delivery.addonsChanged();
      await memory.transaction((tx) => tx.events.append([event('x', clock)]));
      await expect.poll(() => sent).toEqual(['x']);
    } finally {
      await delivery.stop();
    }
  });
});
