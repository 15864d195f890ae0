import type { Addon } from '../../domain/addon.js';
import type { FlagstaffEvent } from '../../domain/event.js';
import type { HttpClient } from '../../ports/runtime-ports.js';
import type { ServiceDeps } from '../deps.js';
import { createDeliveryPosition } from './addon-delivery-lease.js';
import { ADDON_PROVIDERS } from './addon-providers.js';

export interface AddonDeliveryOptions {
  /** Poll for events other processes appended when the store cannot notify (default 10 s). */
  pollMs?: number;
  /** Per-request timeout (default 5 s). */
  timeoutMs?: number;
  /** Waits before each retry; its length is the number of retries (default 0.5 s, 2 s). */
  retryDelaysMs?: readonly number[];
  /** Events read per batch (default 100). */
  batchSize?: number;
  /** How long notices are gathered before the log is read (default 20 ms). */
  coalesceMs?: number;
  /**
   * How long they are gathered while no addon is enabled (default 1 s): each read then only skips
   * ahead, so a busy store does not pay two queries per 20 ms for nothing. An addon enabled by
   * another process starts receiving within this time; one enabled here, at once.
   */
  idleCoalesceMs?: number;
  /**
   * Term of the delivery lease (default 30 s): the longest another process waits to take over
   * after the holder died. The holder renews it while delivering and on polls past half its term.
   */
  leaseMs?: number;
}

/** Whether an addon's filters let the event through; empty lists and '*' mean all. */
export function addonMatches(addon: Addon, event: FlagstaffEvent): boolean {
  if (!addon.enabled || !addon.events.includes(event.type)) return false;
  // A lagging position must not send an addon what happened before it existed.
  if (event.createdAt < addon.createdAt) return false;
  const passes = (list: readonly string[], value: string | null) =>
    list.length === 0 || list.includes('*') || (value !== null && list.includes(value));
  return passes(addon.projects, event.project) && passes(addon.environments, event.environment);
}

/**
 * Tails the event log (the outbox) and POSTs matching events to enabled addons. The position is kept
 * in the store, so a restart resumes where the last run stopped and events appended while no process
 * ran are still delivered (at least once: an event being sent when a process dies is sent again).
 * The very first run starts at the newest event. Of the processes sharing a store, only the one
 * holding the delivery lease delivers (see `createDeliveryPosition`); the others stand by and take
 * over when it stops or its lease expires. Failures are logged, never thrown.
 */
export function createAddonDelivery(
  deps: ServiceDeps & { http: HttpClient },
  options: AddonDeliveryOptions = {},
) {
  const { store, logger, http } = deps;
  const timeoutMs = options.timeoutMs ?? 5_000;
  const retryDelays = options.retryDelaysMs ?? [500, 2_000];
  const batchSize = options.batchSize ?? 100;
  const leaseMs = options.leaseMs ?? 30_000;
  const position = createDeliveryPosition(deps, leaseMs);
  let stopped = false;
  let running: Promise<void> | null = null;
  let again = false;
  let renewing: Promise<void> = Promise.resolve();
  /** Whether the last read found no enabled addon. */
  let idle = false;
  const sleepers = new Set<() => void>();

  // Taken at once, so the very first run's starting point is the newest event at start-up.
  const ready = position
    .hold()
    .then(() => undefined)
    .catch((error: unknown) =>
      logger.error('addon delivery could not read its position in the event log', { error: String(error) }),
    );

  /** Waits, but wakes early when delivery stops so close() is not held up by backoff. */
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        sleepers.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      sleepers.add(done);
    });

  async function send(addon: Addon, event: FlagstaffEvent): Promise<void> {
    const provider = ADDON_PROVIDERS.get(addon.provider);
    const url = addon.parameters['url'];
    if (!provider || typeof url !== 'string') return;
    let request: { headers: Record<string, string>; body: string };
    try {
      request = provider.request(event, addon.parameters);
    } catch (error) {
      logger.warn('addon request could not be built', {
        addonId: addon.id,
        eventId: event.id,
        error: String(error),
      });
      return;
    }
    for (let attempt = 0; ; attempt++) {
      let failure: string;
      let retryable = true;
      try {
        const { status } = await http.post(url, { ...request, timeoutMs });
        if (status >= 200 && status < 300) return;
        failure = `HTTP ${status}`;
        // Other 4xx answers will not change on a retry (bad URL, bad credentials).
        retryable = status >= 500 || status === 408 || status === 429;
      } catch (error) {
        failure = error instanceof Error ? error.message : String(error);
      }
      const delay = retryDelays[attempt];
      if (!retryable || delay === undefined || stopped) {
        logger.warn('addon delivery failed', {
          addonId: addon.id,
          provider: addon.provider,
          eventId: event.id,
          eventType: event.type,
          attempts: attempt + 1,
          failure,
        });
        return;
      }
      await sleep(delay);
    }
  }

  async function drain(): Promise<void> {
    await ready;
    while (!stopped && (await position.hold())) {
      const addons = (await store.addons.list()).filter((a) => a.enabled);
      idle = addons.length === 0;
      if (addons.length === 0) {
        // Nothing to deliver to: skip ahead without reading the events themselves.
        await position.advance(await store.events.latestId(), 'lazily');
        return;
      }
      const events = await store.events.search({
        afterId: position.cursor(),
        ascending: true,
        limit: batchSize,
      });
      if (events.length === 0) return;
      for (const event of events) {
        if (stopped || !(await position.hold())) return;
        // Taking the lease back may have moved the position past events another process delivered.
        if (event.id <= position.cursor()) continue;
        // One event at a time keeps each addon's deliveries in log order.
        await Promise.all(addons.filter((a) => addonMatches(a, event)).map((a) => send(a, event)));
        if (!(await position.advance(event.id, 'now'))) return;
      }
    }
  }

  /** Runs one drain at a time; a trigger during a run schedules one more so nothing is missed. */
  function deliverPending(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = (async () => {
      // A slow receiver (timeouts, retries) must not let the lease lapse mid-delivery.
      const heartbeat = setInterval(() => {
        renewing = renewing
          .then(position.renew)
          .catch((error: unknown) =>
            logger.warn('addon delivery could not renew its lease', { error: String(error) }),
          );
      }, leaseMs / 3);
      heartbeat.unref?.();
      try {
        do {
          again = false;
          await drain();
        } while (again && !stopped);
      } catch (error) {
        logger.error('addon delivery failed to read events', { error: String(error) });
      } finally {
        clearInterval(heartbeat);
        running = null;
      }
    })();
    return running;
  }

  // Notices are coalesced: a burst of commands costs one read of the log, not one per command.
  let scheduled: ReturnType<typeof setTimeout> | null = null;
  const unsubscribe = store.onEventsAppended?.(() => {
    if (scheduled || stopped) return;
    scheduled = setTimeout(
      () => {
        scheduled = null;
        void deliverPending();
      },
      idle ? (options.idleCoalesceMs ?? 1_000) : (options.coalesceMs ?? 20),
    );
    scheduled.unref?.();
  });
  const poll = setInterval(() => void deliverPending(), options.pollMs ?? 10_000);
  poll.unref?.();

  return {
    deliverPending,
    /** Addons changed in this process: the next notice is read at the busy pace again. */
    addonsChanged(): void {
      idle = false;
      if (scheduled) {
        clearTimeout(scheduled);
        scheduled = null;
        void deliverPending();
      }
    },
    /** Stops triggers and polling, cuts backoff short, waits for the running batch, frees the lease. */
    async stop(): Promise<void> {
      stopped = true;
      clearInterval(poll);
      if (scheduled) clearTimeout(scheduled);
      unsubscribe?.();
      for (const wake of [...sleepers]) wake();
      await running;
      await renewing;
      await ready;
      await position
        .release()
        .catch((error: unknown) =>
          logger.warn('addon delivery could not save its position', { error: String(error) }),
        );
    },
  };
}
