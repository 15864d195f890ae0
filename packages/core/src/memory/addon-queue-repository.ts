import type { AddonQueueSummary } from '../domain/addon-delivery.js';
import type { AddonQueueMethods as Queue } from '../ports/integration-ports.js';

import { copy } from './copy.js';
import type { Session } from './database.js';
import { compare, type Sync } from './support.js';

/** The queue methods, synchronous over a session. */
export type AddonQueueMethods = Sync<Queue>;

const key = (addonId: number, eventId: number): string => `${addonId}:${eventId}`;

/** Delivery queue, delivery log and signing secrets over a session. */
export function createAddonQueueMethods(s: Session): AddonQueueMethods & { forget(addonId: number): void } {
  const queue = s.table('addonQueue');
  const attempts = s.table('addonAttempts');
  const secrets = s.table('addonSecrets');
  const byEvent = (a: { eventId: number }, b: { eventId: number }) => compare(a.eventId, b.eventId);
  return {
    enqueueDeliveries(items) {
      for (const { addonId, eventId, dueSince } of items) {
        if (queue.has(key(addonId, eventId))) continue;
        queue.set(key(addonId, eventId), {
          addonId,
          eventId,
          state: 'pending',
          attempts: 0,
          dueSince,
          nextAttemptAt: dueSince,
          failingSince: null,
          lastError: null,
        });
      }
    },
    listDeliveries: (addonId, state, limit) =>
      queue
        .rows()
        .filter((d) => d.addonId === addonId && d.state === state)
        .sort(byEvent)
        .slice(0, limit)
        .map(copy),
    summarizeDeliveries() {
      const summaries = new Map<number, AddonQueueSummary & { headId: number }>();
      for (const d of queue.rows()) {
        let summary = summaries.get(d.addonId);
        if (!summary) {
          summary = {
            addonId: d.addonId,
            pending: 0,
            parked: 0,
            failingSince: null,
            lastError: null,
            headId: 0,
          };
          summaries.set(d.addonId, summary);
        }
        if (d.state === 'parked') summary.parked++;
        else {
          summary.pending++;
          if (d.failingSince !== null && (summary.headId === 0 || d.eventId < summary.headId)) {
            summary.headId = d.eventId;
            summary.failingSince = d.failingSince;
            summary.lastError = d.lastError;
          }
        }
      }
      return [...summaries.values()]
        .sort((a, b) => compare(a.addonId, b.addonId))
        .map(({ headId: _, ...summary }) => summary);
    },
    updateDelivery(delivery) {
      const k = key(delivery.addonId, delivery.eventId);
      if (!queue.has(k)) return false;
      queue.set(k, copy(delivery));
      return true;
    },
    deleteDelivery: (addonId, eventId) => queue.delete(key(addonId, eventId)),
    replayParked(addonId, eventId, now) {
      let count = 0;
      for (const d of queue.rows()) {
        if (d.addonId !== addonId || d.state !== 'parked') continue;
        if (eventId !== null && d.eventId !== eventId) continue;
        queue.set(key(d.addonId, d.eventId), {
          ...d,
          state: 'pending',
          attempts: 0,
          dueSince: now,
          nextAttemptAt: now,
          failingSince: null,
        });
        count++;
      }
      return count;
    },
    recordAttempts(list) {
      for (const attempt of list) {
        const id = s.nextId('addonAttempts');
        attempts.set(id, { ...copy(attempt), id });
      }
    },
    listAttempts: (addonId, { limit, offset }) =>
      attempts
        .rows()
        .filter((a) => a.addonId === addonId)
        .sort((a, b) => compare(b.id, a.id))
        .slice(offset, offset + limit)
        .map(copy),
    pruneAttempts: (before) => attempts.deleteWhere((a) => a.createdAt < before),
    getSigningSecrets: (addonId) => copy(secrets.get(addonId) ?? null),
    setSigningSecrets(addonId, value) {
      secrets.set(addonId, copy(value));
    },
    forget(addonId) {
      queue.deleteWhere((d) => d.addonId === addonId);
      attempts.deleteWhere((a) => a.addonId === addonId);
      secrets.delete(addonId);
    },
  };
}
