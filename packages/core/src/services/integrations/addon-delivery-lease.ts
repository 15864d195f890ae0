import { randomUUID } from 'node:crypto';
import type { Repositories } from '../../ports/store.js';
import type { ServiceDeps } from '../deps.js';

const SAVE_INTERVAL_MS = 5_000;

/**
 * Addon delivery's place in the event log, held under the store's delivery lease so that one
 * process at a time delivers. The lease is checked locally while more than half its term is left
 * (no I/O on the common path), renewed by every saved position, and taken over by another process
 * once it expires. Every save is a compare-and-set on the holder, so a process that lost the lease
 * can neither move the position back nor advance it twice.
 */
export function createDeliveryPosition(deps: Pick<ServiceDeps, 'store' | 'clock'>, leaseMs: number) {
  const { store } = deps;
  // Not from `deps.ids`: a deterministic test generator could hand two processes one identity.
  const holder = randomUUID();
  const now = (): number => deps.clock.now().getTime();
  /** Expiry of the lease as this process last wrote it; 0 while it does not hold the lease. */
  let leaseUntil = 0;
  /** The next event to consider comes after this id. */
  let cursor = 0;
  /** The position as stored by this process; null until it has held the lease. */
  let saved: number | null = null;
  let savedAt = 0;

  const lose = (): void => {
    leaseUntil = 0;
  };

  /**
   * Saves the position if it moved: after a delivery at once (so a restart does not send the event
   * again); when it only skips events no addon wants, at most every few seconds (and on release),
   * which keeps a write transaction off the path of every command. False when the lease is lost.
   */
  async function advance(eventId: number, save: 'now' | 'lazily'): Promise<boolean> {
    if (eventId > cursor) cursor = eventId;
    if (cursor === saved) return true;
    const at = now();
    if (save === 'lazily' && saved !== null && at - savedAt < SAVE_INTERVAL_MS) return true;
    const target = cursor;
    const expiresAt = at + leaseMs;
    if (!(await store.transaction((tx) => tx.addons.advanceDeliveredThrough(holder, target, expiresAt)))) {
      lose();
      return false;
    }
    saved = target;
    savedAt = at;
    leaseUntil = Math.max(leaseUntil, expiresAt);
    return true;
  }

  /**
   * Moves the position to `eventId` and runs `work` in the same transaction (the fan-out into the
   * addons' queues), so the events are queued exactly once. False, with nothing written, when the
   * lease is lost.
   */
  async function commit(eventId: number, work: (tx: Repositories) => Promise<void>): Promise<boolean> {
    const at = now();
    const expiresAt = at + leaseMs;
    const done = await store.transaction(async (tx) => {
      if (!(await tx.addons.advanceDeliveredThrough(holder, eventId, expiresAt))) return false;
      await work(tx);
      return true;
    });
    if (!done) {
      lose();
      return false;
    }
    if (eventId > cursor) cursor = eventId;
    saved = cursor;
    savedAt = at;
    leaseUntil = Math.max(leaseUntil, expiresAt);
    return true;
  }

  /**
   * Whether this process holds the lease, taking or renewing it when needed. A process that does
   * not hold it reads before it writes, so waiting processes add no write per command.
   */
  async function hold(): Promise<boolean> {
    const at = now();
    if (leaseUntil - at > leaseMs / 2) return true;
    if (leaseUntil === 0) {
      const lease = await store.addons.getDeliveryLease();
      if (lease && lease.holder !== holder && lease.expiresAt > at) return false;
    }
    const expiresAt = at + leaseMs;
    const taken = await store.transaction((tx) => tx.addons.acquireDeliveryLease(holder, at, expiresAt));
    if (!taken) {
      lose();
      return false;
    }
    leaseUntil = expiresAt;
    const stored = taken.deliveredThrough;
    if (stored === null) {
      // The very first run on this store starts at the newest event.
      saved = null;
      cursor = 0;
      return advance(await store.events.latestId(), 'now');
    }
    // Someone else delivered while this process did not hold the lease: continue from there.
    if (stored !== saved) {
      cursor = saved = stored;
      savedAt = at;
    }
    return true;
  }

  /**
   * Inside a delivery's transaction: whether this process still holds the lease as stored. A holder
   * that stalled past its term (a paused VM) and was taken over learns it here, before it records a
   * delivery or sends another, and stops.
   */
  async function stillHeld(tx: Repositories): Promise<boolean> {
    const lease = await tx.addons.getDeliveryLease();
    if (lease?.holder === holder) return true;
    lose();
    return false;
  }

  /** Extends a held lease while one slow delivery runs; never takes a lease it lost. */
  async function renew(): Promise<void> {
    const target = saved;
    if (leaseUntil === 0 || target === null) return;
    const expiresAt = now() + leaseMs;
    if (await store.transaction((tx) => tx.addons.advanceDeliveredThrough(holder, target, expiresAt)))
      leaseUntil = Math.max(leaseUntil, expiresAt);
    // A save that ran meanwhile moved the position past `target` and renewed the lease itself.
    else if (saved === target) lose();
  }

  /** Saves the position and frees the lease, so another process can take over at once. */
  async function release(): Promise<void> {
    if (leaseUntil === 0) return;
    try {
      if (await advance(cursor, 'now'))
        await store.transaction((tx) => tx.addons.releaseDeliveryLease(holder));
    } finally {
      lose();
    }
  }

  return {
    hold,
    advance,
    commit,
    stillHeld,
    renew,
    release,
    /** Events up to this id are dealt with. */
    cursor: (): number => cursor,
  };
}
