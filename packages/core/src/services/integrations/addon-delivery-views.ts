import { z } from 'zod';
import type { Caller } from '../../auth/caller.js';
import type { AddonDelivery, AddonDeliveryAttempt } from '../../domain/addon-delivery.js';
import type { FlagstaffEvent } from '../../domain/event.js';
import { parseWith } from '../../domain/parse.js';
import { FlagstaffError, notFound } from '../../errors.js';
import type { ReadRepositories } from '../../ports/store.js';
import { inTransaction, type ServiceDeps } from '../deps.js';

/** One attempt as `GET /addons/:id/events` shows it (the reference's integration event). */
export interface IntegrationEvent {
  id: string;
  integrationId: number;
  createdAt: string;
  state: 'success' | 'failed';
  stateDetails: string;
  /** The event delivered; only its id once it is no longer readable (hidden project, pruned). */
  event: FlagstaffEvent | { id: number };
  details: {
    eventId: number;
    attempt: number;
    statusCode: number | null;
    durationMs: number;
    error: string | null;
  };
}

/** A queued delivery as `GET /addons/:id/deliveries` shows it. */
export interface QueuedDeliveryView {
  eventId: number;
  state: AddonDelivery['state'];
  attempts: number;
  dueSince: string;
  nextAttemptAt: string | null;
  failingSince: string | null;
  lastError: string | null;
  event: FlagstaffEvent | { id: number };
}

const iso = (ms: number): string => new Date(ms).toISOString();

const limit = (max: number) =>
  z.coerce
    .number()
    .int('must be a whole number')
    .min(1, 'must be at least 1')
    .max(max, `must be at most ${max}`);

/** Query of `GET /addons/:id/events`. */
export const deliveryLogQuerySchema = z.object({
  limit: limit(500).optional(),
  offset: z.coerce.number().int('must be a whole number').min(0, 'must be at least 0').optional(),
});

/** Query of `GET /addons/:id/deliveries`. */
export const deliveryQueueQuerySchema = z.object({
  state: z.enum(['pending', 'parked']).optional(),
  limit: limit(1000).optional(),
});

/** The delivery log, the queues and replay of an addon (part of the addon service). */
export function createDeliveryViews(deps: ServiceDeps, delivery: { replayed(addonId: number): void }) {
  const { store } = deps;

  async function requireAddon(repos: ReadRepositories, id: number): Promise<void> {
    if (!(Number.isSafeInteger(id) && (await repos.addons.get(id)))) throw notFound('addon', id);
  }

  /** The events with these ids the caller may see (events of hidden projects are left out). */
  async function eventsFor(caller: Caller, ids: readonly number[]): Promise<Map<number, FlagstaffEvent>> {
    const hidden = await deps.policy.hiddenProjects(caller);
    const found = new Map<number, FlagstaffEvent>();
    for (const id of [...new Set(ids)].sort((a, b) => a - b)) {
      if (found.has(id)) continue;
      // One read also brings the ids that follow, which deliveries usually are.
      const run = await store.events.search({
        afterId: id - 1,
        maxId: id + 200,
        ascending: true,
        limit: 50,
        excludeProjects: hidden,
      });
      for (const e of run) found.set(e.id, e);
    }
    return found;
  }

  const toIntegrationEvent = (
    a: AddonDeliveryAttempt,
    events: Map<number, FlagstaffEvent>,
  ): IntegrationEvent => ({
    id: String(a.id),
    integrationId: a.addonId,
    createdAt: a.createdAt,
    state: a.error === null ? 'success' : 'failed',
    stateDetails:
      a.error === null
        ? `Delivered on attempt ${a.attempt} (HTTP ${a.statusCode}) in ${a.durationMs} ms.`
        : `Attempt ${a.attempt} failed after ${a.durationMs} ms: ${a.error}.`,
    event: events.get(a.eventId) ?? { id: a.eventId },
    details: {
      eventId: a.eventId,
      attempt: a.attempt,
      statusCode: a.statusCode,
      durationMs: a.durationMs,
      error: a.error,
    },
  });

  return {
    /**
     * The delivery log of an addon, newest attempt first (kept for the configured retention). Admins
     * only: its errors and status codes tell what answers where, which is an operator's business.
     */
    async deliveryLog(
      caller: Caller,
      id: number,
      query: unknown = {},
    ): Promise<{ integrationEvents: IntegrationEvent[] }> {
      await deps.policy.require(caller, 'ADMIN', {});
      const page = parseWith(deliveryLogQuerySchema, query);
      await requireAddon(store, id);
      const attempts = await store.addons.listAttempts(id, {
        limit: page.limit ?? 50,
        offset: page.offset ?? 0,
      });
      const events = await eventsFor(
        caller,
        attempts.map((a) => a.eventId),
      );
      return { integrationEvents: attempts.map((a) => toIntegrationEvent(a, events)) };
    },

    /** An addon's queue: what waits (`pending`, the head first) or gave up (`parked`); Admins only. */
    async deliveries(
      caller: Caller,
      id: number,
      query: unknown = {},
    ): Promise<{ deliveries: QueuedDeliveryView[] }> {
      await deps.policy.require(caller, 'ADMIN', {});
      const { state = 'pending', limit = 100 } = parseWith(deliveryQueueQuerySchema, query);
      await requireAddon(store, id);
      const queue = await store.addons.listDeliveries(id, state, limit);
      const events = await eventsFor(
        caller,
        queue.map((d) => d.eventId),
      );
      return {
        deliveries: queue.map((d) => ({
          eventId: d.eventId,
          state: d.state,
          attempts: d.attempts,
          dueSince: iso(d.dueSince),
          nextAttemptAt: d.state === 'pending' ? iso(d.nextAttemptAt) : null,
          failingSince: d.failingSince === null ? null : iso(d.failingSince),
          lastError: d.lastError,
          event: events.get(d.eventId) ?? { id: d.eventId },
        })),
      };
    },

    /**
     * Puts parked deliveries back in the addon's queue with a fresh retry window: one event, or all
     * (`eventId` null). NOT_FOUND when that event is not parked for the addon.
     */
    async replay(caller: Caller, id: number, eventId: number | null): Promise<{ replayed: number }> {
      await deps.policy.permit(caller, 'UPDATE_ADDON', {});
      const replayed = await inTransaction(deps, async (tx) => {
        await requireAddon(tx, id);
        const count = await tx.addons.replayParked(id, eventId, deps.clock.now().getTime());
        if (eventId !== null && count === 0)
          throw new FlagstaffError('NOT_FOUND', `Event ${eventId} is not parked for addon ${id}.`);
        return count;
      });
      if (replayed > 0) delivery.replayed(id);
      return { replayed };
    },
  };
}
