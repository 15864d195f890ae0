import { z } from 'zod';

/**
 * Per-addon delivery: the queue each addon works through in event-log order, the log of every
 * attempt, and the signing secrets of webhooks. Instants the delivery worker computes with are epoch
 * milliseconds from the service clock; what the API shows is ISO text.
 */

/** One event waiting for one addon, or parked after its retries ran out. */
export interface AddonDelivery {
  addonId: number;
  eventId: number;
  state: 'pending' | 'parked';
  /** Failed attempts so far in this run (a replay starts a new run at 0). */
  attempts: number;
  /** Epoch ms the retry window counts from: the event's time, or when it was replayed. */
  dueSince: number;
  /** Epoch ms before which it is not tried (backoff). */
  nextAttemptAt: number;
  /** Epoch ms of the run's first failure; null while none failed. */
  failingSince: number | null;
  lastError: string | null;
}

/** One attempt to deliver one event to one addon, as the delivery log keeps it. */
export interface AddonDeliveryAttempt {
  id: number;
  addonId: number;
  eventId: number;
  /** 1 for the first try of a run. */
  attempt: number;
  /** The receiver's HTTP status; null when no answer came (refused, timed out). */
  statusCode: number | null;
  durationMs: number;
  /** Why it failed; null on success. */
  error: string | null;
  createdAt: string;
}

/** The queue of one addon, summed up (addons with an empty queue have none). */
export interface AddonQueueSummary {
  addonId: number;
  pending: number;
  parked: number;
  /** Epoch ms the oldest pending delivery started failing; null when none is failing. */
  failingSince: number | null;
  /** The last error of the failing delivery at the head of the queue. */
  lastError: string | null;
}

/**
 * A webhook's signing secrets as stored (sealed when the server has a key). During a rotation the
 * previous secret keeps signing beside the new one until `previousExpiresAt` (epoch ms).
 */
export interface AddonSigningSecrets {
  current: string;
  previous: string | null;
  previousExpiresAt: number | null;
}

/** An addon's delivery state as `GET /addons` shows it. */
export interface AddonDeliveryStatus {
  /** healthy: nothing failing; retrying: the head event is being retried; parked: events gave up. */
  state: 'healthy' | 'retrying' | 'parked';
  /** Events waiting (including one being retried). */
  pending: number;
  /** Events whose retries ran out; replay them through the API. */
  parked: number;
  retryingSince: string | null;
  lastError: string | null;
}

export const addonDeliveryStatusSchema = z.strictObject({
  state: z.enum(['healthy', 'retrying', 'parked']),
  pending: z.number().int(),
  parked: z.number().int(),
  retryingSince: z.string().nullable(),
  lastError: z.string().nullable(),
});

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

/** An event as delivery views show it: whole where the caller may read it, else only its id. */
const deliveredEventSchema = z.union([
  z.strictObject({
    id: z.number().int(),
    type: z.string(),
    createdAt: z.string(),
    createdBy: z.string(),
    createdByUserId: z.number().int().nullable(),
    environment: z.string().nullable(),
    project: z.string().nullable(),
    featureName: z.string().nullable(),
    data: z.unknown(),
    preData: z.unknown(),
    tags: z.array(z.strictObject({ type: z.string(), value: z.string() })),
  }),
  z.strictObject({ id: z.number().int() }),
]);

/** One attempt as `GET /addons/:id/events` shows it (the reference's integration event). */
export const integrationEventSchema = z.strictObject({
  id: z.string(),
  integrationId: z.number().int(),
  createdAt: z.string(),
  state: z.enum(['success', 'failed']),
  stateDetails: z.string(),
  event: deliveredEventSchema,
  details: z.strictObject({
    eventId: z.number().int(),
    attempt: z.number().int(),
    statusCode: z.number().int().nullable(),
    durationMs: z.number(),
    error: z.string().nullable(),
  }),
});
export type IntegrationEvent = z.infer<typeof integrationEventSchema>;

/** A queued delivery as `GET /addons/:id/deliveries` shows it. */
export const queuedDeliverySchema = z.strictObject({
  eventId: z.number().int(),
  state: z.enum(['pending', 'parked']),
  attempts: z.number().int(),
  dueSince: z.string(),
  nextAttemptAt: z.string().nullable(),
  failingSince: z.string().nullable(),
  lastError: z.string().nullable(),
  event: deliveredEventSchema,
});
export type QueuedDeliveryView = z.infer<typeof queuedDeliverySchema>;
