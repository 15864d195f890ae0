import type { SecretBox } from '../../auth/secret-box.js';
import type { Addon } from '../../domain/addon.js';
import type { FlagstaffEvent } from '../../domain/event.js';
import type { HttpClient } from '../../ports/runtime-ports.js';
import type { ServiceDeps } from '../deps.js';
import { createDeliveryPosition } from './addon-delivery-lease.js';
import { createSecretCodec, type SecretCodec } from './addon-signing.js';
import { type AddonWorker, createAddonWorker, type RetryPolicy } from './addon-worker.js';
import { createOutboundPolicy, type OutboundPolicy } from './outbound-policy.js';

export interface AddonDeliveryOptions {
  /** Poll for events other processes appended when the store cannot notify (default 10 s). */
  pollMs?: number;
  /** Per-request timeout (default 5 s). */
  timeoutMs?: number;
  /**
   * How long an event is retried, counted from the event's time (or its replay), before it is
   * parked as failed and delivery moves on (default 24 hours).
   */
  retryWindowMs?: number;
  /** The first retry waits about this long, each next one twice as long (default 1 s). */
  retryBaseDelayMs?: number;
  /** The longest wait between two attempts (default 10 minutes). */
  retryMaxDelayMs?: number;
  /** How long the delivery log keeps attempts (default 7 days). */
  logRetentionMs?: number;
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
  /** The jitter's source, in [0, 1) (default Math.random). */
  random?: () => number;
}

const HOUR = 60 * 60 * 1000;
/** Recent events kept for the workers, so fan-out and delivery read the log once. */
const EVENT_CACHE_SIZE = 5_000;

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
 * Forwards the event log (the outbox) to addons. The process holding the delivery lease (see
 * `createDeliveryPosition`) tails the log and fans each event out into the queue of every addon it
 * matches, moving the shared position in the same transaction; a worker per addon then delivers its
 * queue in order with retries (see `createAddonWorker`). Queues and positions live in the store, so
 * a restart or a takeover by another process resumes where delivery stopped: at least once, and
 * exactly once while nothing crashes. The very first run starts at the newest event.
 */
export function createAddonDelivery(
  deps: ServiceDeps & { http: HttpClient },
  options: AddonDeliveryOptions & { outbound?: OutboundPolicy } = {},
  codec: SecretCodec = createSecretCodec(null),
  box: SecretBox | null = null,
) {
  const { store, logger, clock } = deps;
  const batchSize = options.batchSize ?? 100;
  const leaseMs = options.leaseMs ?? 30_000;
  const retentionMs = options.logRetentionMs ?? 7 * 24 * HOUR;
  const policy: RetryPolicy = {
    timeoutMs: options.timeoutMs ?? 5_000,
    retryWindowMs: options.retryWindowMs ?? 24 * HOUR,
    baseDelayMs: options.retryBaseDelayMs ?? 1_000,
    maxDelayMs: options.retryMaxDelayMs ?? 10 * 60 * 1000,
    batchSize,
    random: options.random ?? Math.random,
  };
  const position = createDeliveryPosition(deps, leaseMs);
  const workers = new Map<number, AddonWorker>();
  const recent = new Map<number, FlagstaffEvent>();
  let stopped = false;
  let fanning: Promise<void> | null = null;
  let again = false;
  let renewing: Promise<void> = Promise.resolve();
  let prunedAt = 0;
  /** Whether the last read found no enabled addon. */
  let idle = false;

  // Taken at once, so the very first run's starting point is the newest event at start-up.
  const ready = position
    .hold()
    .then(() => undefined)
    .catch((error: unknown) =>
      logger.error('addon delivery could not read its position in the event log', { error: String(error) }),
    );

  const remember = (event: FlagstaffEvent): void => {
    recent.set(event.id, event);
    if (recent.size > EVENT_CACHE_SIZE) recent.delete(recent.keys().next().value as number);
  };

  async function event(id: number): Promise<FlagstaffEvent | null> {
    const cached = recent.get(id);
    if (cached) return cached;
    // Read a run of the log from there: the next deliveries of the queue are likely in it.
    for (const e of await store.events.search({ afterId: id - 1, ascending: true, limit: batchSize }))
      remember(e);
    return recent.get(id) ?? null;
  }

  // While a fan-out or a delivery runs, a heartbeat renews the lease: one slow receiver (timeouts)
  // must not let it lapse mid-delivery.
  let active = 0;
  let heartbeat: ReturnType<typeof setInterval> | null = null;
  function busy(delta: 1 | -1): void {
    active += delta;
    if (active > 0 && !heartbeat) {
      heartbeat = setInterval(() => {
        renewing = renewing
          .then(position.renew)
          .catch((error: unknown) =>
            logger.warn('addon delivery could not renew its lease', { error: String(error) }),
          );
      }, leaseMs / 3);
      heartbeat.unref?.();
    } else if (active === 0 && heartbeat) {
      clearInterval(heartbeat);
      heartbeat = null;
    }
  }

  const context = {
    deps,
    policy,
    codec,
    box,
    outbound: options.outbound ?? createOutboundPolicy(),
    hold: () => position.hold(),
    stillHeld: position.stillHeld,
    event,
    busy,
  };
  const worker = (addonId: number): AddonWorker => {
    let w = workers.get(addonId);
    if (!w) {
      w = createAddonWorker(context, addonId);
      workers.set(addonId, w);
    }
    return w;
  };

  /** Moves new events of the log into the queues of the addons they match. */
  async function fanOut(): Promise<void> {
    await ready;
    while (!stopped && (await position.hold())) {
      const addons = (await store.addons.list()).filter((a) => a.enabled);
      idle = addons.length === 0;
      if (idle) {
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
      const items: { addonId: number; eventId: number; dueSince: number }[] = [];
      for (const e of events) {
        remember(e);
        for (const addon of addons)
          if (addonMatches(addon, e))
            items.push({ addonId: addon.id, eventId: e.id, dueSince: Date.parse(e.createdAt) });
      }
      const last = events[events.length - 1] as FlagstaffEvent;
      const queued = await position.commit(last.id, async (tx) => {
        if (items.length > 0) await tx.addons.enqueueDeliveries(items);
      });
      if (!queued) return;
      for (const addonId of new Set(items.map((i) => i.addonId))) void worker(addonId).kick();
      if (events.length < batchSize) return;
    }
  }

  /** Runs one fan-out at a time; a trigger during a run schedules one more so nothing is missed. */
  function fanOutPending(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (fanning) {
      again = true;
      return fanning;
    }
    fanning = (async () => {
      busy(1);
      try {
        do {
          again = false;
          await fanOut();
        } while (again && !stopped);
      } catch (error) {
        logger.error('addon delivery failed to read events', { error: String(error) });
      } finally {
        busy(-1);
        fanning = null;
      }
    })();
    return fanning;
  }

  /** Drops delivery-log entries past their retention, at most once an hour. */
  async function prune(): Promise<void> {
    const at = clock.now().getTime();
    if (at - prunedAt < HOUR) return;
    prunedAt = at;
    const before = new Date(at - retentionMs).toISOString();
    await store.transaction((tx) => tx.addons.pruneAttempts(before));
  }

  /**
   * Fans out what the log holds, then runs the worker of every addon with pending deliveries until
   * each is empty or waiting on backoff (tests await this; so does the poll).
   */
  async function deliverPending(): Promise<void> {
    if (stopped) return;
    await fanOutPending();
    if (stopped || !(await position.hold().catch(() => false))) return;
    try {
      await prune();
      const queues = await store.addons.summarizeDeliveries();
      await Promise.all(queues.filter((q) => q.pending > 0).map((q) => worker(q.addonId).kick()));
    } catch (error) {
      logger.error('addon delivery failed to read its queues', { error: String(error) });
    }
  }

  // Notices are coalesced: a burst of commands costs one read of the log, not one per command.
  let scheduled: ReturnType<typeof setTimeout> | null = null;
  const unsubscribe = store.onEventsAppended?.(() => {
    if (scheduled || stopped) return;
    scheduled = setTimeout(
      () => {
        scheduled = null;
        void fanOutPending();
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
        void fanOutPending();
      }
    },
    /** Parked deliveries of an addon were replayed here: its worker starts at once. */
    replayed(addonId: number): void {
      void worker(addonId).kick();
    },
    /** Stops triggers, polling and retries, waits for attempts under way, frees the lease. */
    async stop(): Promise<void> {
      stopped = true;
      clearInterval(poll);
      if (scheduled) clearTimeout(scheduled);
      unsubscribe?.();
      await fanning;
      await Promise.all([...workers.values()].map((w) => w.stop()));
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
