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
