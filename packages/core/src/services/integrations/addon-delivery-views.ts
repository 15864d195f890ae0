import { z } from 'zod';
import type { Caller } from '../../auth/caller.js';
import {
  type AddonDeliveryAttempt,
  deliveryLogQuerySchema,
  deliveryQueueQuerySchema,
  type IntegrationEvent,
  integrationEventSchema,
  queuedDeliverySchema,
} from '../../domain/addon-delivery.js';
import type { FlagstaffEvent } from '../../domain/event.js';
import { FlagstaffError } from '../../errors.js';
import { defineOperation, type OperationDeps } from '../../operations/define-operation.js';
import type { ReadRepositories } from '../../ports/store.js';
import { requireAddon } from './addon-validation.js';

const id = z.number().int();
const iso = (ms: number): string => new Date(ms).toISOString();

/** The events with these ids the caller may see (events of hidden projects are left out). */
async function eventsFor(
  deps: OperationDeps,
  repos: ReadRepositories,
  caller: Caller,
  ids: readonly number[],
): Promise<Map<number, FlagstaffEvent>> {
  const hidden = await deps.policy.hiddenProjects(caller);
  const found = new Map<number, FlagstaffEvent>();
  for (const id of [...new Set(ids)].sort((a, b) => a - b)) {
    if (found.has(id)) continue;
    // One read also brings the ids that follow, which deliveries usually are.
    const run = await repos.events.search({
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

/**
 * The delivery log of an addon, newest attempt first (kept for the configured retention). Admins
 * only: its errors and status codes tell what answers where, which is an operator's business.
 */
export const addonDeliveryLog = defineOperation({
  id: 'addons.deliveryLog',
  summary: "An addon's delivery log: every attempt, newest first (kept 7 days by default)",
  kind: 'read',
  permission: 'ADMIN',
  input: deliveryLogQuerySchema.extend({ id }),
  output: z.strictObject({ integrationEvents: z.array(integrationEventSchema) }),
  run: async (input, { deps, repos, caller }) => {
    await requireAddon(repos, input.id);
    const attempts = await repos.addons.listAttempts(input.id, {
      limit: input.limit ?? 50,
      offset: input.offset ?? 0,
    });
    const events = await eventsFor(
      deps,
      repos,
      caller,
      attempts.map((a) => a.eventId),
    );
    return { integrationEvents: attempts.map((a) => toIntegrationEvent(a, events)) };
  },
});

/** An addon's queue: what waits (`pending`, the head first) or gave up (`parked`); Admins only. */
export const addonDeliveries = defineOperation({
  id: 'addons.deliveries',
  summary: "An addon's queue: events waiting (pending) or whose retries ran out (parked)",
  kind: 'read',
  permission: 'ADMIN',
  input: deliveryQueueQuerySchema.extend({ id }),
  output: z.strictObject({ deliveries: z.array(queuedDeliverySchema) }),
  run: async (input, { deps, repos, caller }) => {
    const { state = 'pending', limit = 100 } = input;
    await requireAddon(repos, input.id);
    const queue = await repos.addons.listDeliveries(input.id, state, limit);
    const events = await eventsFor(
      deps,
      repos,
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
});

/**
 * Puts parked deliveries back in the addon's queue with a fresh retry window: one event, or all
 * (`eventId` null). NOT_FOUND when that event is not parked for the addon.
 */
export const replayAddonDeliveries = defineOperation({
  id: 'addons.replay',
  summary: 'Replay parked events of an addon (each gets a fresh retry window)',
  kind: 'write',
  permission: 'UPDATE_ADDON',
  input: z.object({ id, eventId: id.nullable().default(null) }),
  output: z.strictObject({ replayed: z.number().int() }),
  run: async ({ id, eventId }, { deps, repos }) => {
    await requireAddon(repos, id);
    const replayed = await repos.addons.replayParked(id, eventId, deps.clock.now().getTime());
    if (eventId !== null && replayed === 0)
      throw new FlagstaffError('NOT_FOUND', `Event ${eventId} is not parked for addon ${id}.`);
    if (replayed > 0) deps.addons.noteReplayed(id);
    return { replayed };
  },
  settled: (deps) => deps.addons.settle(),
});
