import type { Addon } from '../domain/addon.js';
import type {
  AddonDelivery,
  AddonDeliveryAttempt,
  AddonQueueSummary,
  AddonSigningSecrets,
} from '../domain/addon-delivery.js';
import type { ClientApplication, MetricsBucket, UnknownFlag } from '../domain/metrics.js';
import type { ActionSet, Signal, SignalEndpoint, SignalEndpointToken } from '../domain/signal.js';

/** Who may deliver addon events now: one holder at a time across every process sharing the store. */
export interface AddonDeliveryLease {
  holder: string;
  /** Epoch milliseconds; from then on another holder may take the lease over. */
  expiresAt: number;
}

/**
 * Addon configurations, how far delivery has got through the event log, and the lease that lets
 * one process at a time deliver. Lease times are epoch milliseconds from the caller's clock (the
 * store does no arithmetic on them), so processes sharing a store need roughly synchronised clocks.
 */
export interface AddonRepository {
  /** Id of the last event addon delivery dealt with; null before delivery first ran. */
  getDeliveredThrough(): Promise<number | null>;
  /**
   * Sets the position whoever holds the lease (operators and tests); delivery itself moves it with
   * `advanceDeliveredThrough`.
   */
  setDeliveredThrough(eventId: number): Promise<void>;
  /** The lease as stored, even when already expired; null when no one holds it. */
  getDeliveryLease(): Promise<AddonDeliveryLease | null>;
  /**
   * Atomically gives `holder` the lease until `expiresAt` when it is free, already `holder`'s
   * (a renewal) or expired at `now`. Returns the position at that moment (null before delivery first
   * ran), or null when another holder's lease runs past `now`.
   */
  acquireDeliveryLease(
    holder: string,
    now: number,
    expiresAt: number,
  ): Promise<{ deliveredThrough: number | null } | null>;
  /**
   * Compare-and-set: moves the position to `eventId` and extends the lease to `expiresAt`, only when
   * `holder` still holds the lease (expired or not, as long as no one took it over and it was not
   * released) and `eventId` is not behind the position. Returns whether it did; a false means the
   * lease is lost (or the position is ahead) and the caller must stop delivering.
   */
  advanceDeliveredThrough(holder: string, eventId: number, expiresAt: number): Promise<boolean>;
  /** Frees the lease when `holder` holds it (the position stays); returns whether it did. */
  releaseDeliveryLease(holder: string): Promise<boolean>;
  /** Ordered by id. */
  list(): Promise<Addon[]>;
  get(id: number): Promise<Addon | null>;
  insert(addon: Omit<Addon, 'id'>): Promise<Addon>;
  update(addon: Addon): Promise<boolean>;
  /** Deletes the addon with its queue, its delivery log and its signing secrets. */
  delete(id: number): Promise<boolean>;

  /** Queues deliveries as pending, due now; an (addon, event) already queued is left as it is. */
  enqueueDeliveries(items: readonly { addonId: number; eventId: number; dueSince: number }[]): Promise<void>;
  /** An addon's queued deliveries in one state, oldest event first, at most `limit`. */
  listDeliveries(addonId: number, state: AddonDelivery['state'], limit: number): Promise<AddonDelivery[]>;
  /** Every addon with a non-empty queue, summed up; ordered by addon id. */
  summarizeDeliveries(): Promise<AddonQueueSummary[]>;
  /** Replaces a queued delivery's state and counters; false when it is no longer queued. */
  updateDelivery(delivery: AddonDelivery): Promise<boolean>;
  /** Takes a delivered event off the queue; false when it was not queued. */
  deleteDelivery(addonId: number, eventId: number): Promise<boolean>;
  /**
   * Puts parked deliveries back in the queue as pending, with no attempts, due from `now`: one event
   * (`eventId`) or all of the addon's (null). Returns how many.
   */
  replayParked(addonId: number, eventId: number | null, now: number): Promise<number>;
  /** Appends attempts to the delivery log. */
  recordAttempts(attempts: readonly Omit<AddonDeliveryAttempt, 'id'>[]): Promise<void>;
  /** An addon's delivery log, newest first. */
  listAttempts(addonId: number, page: { limit: number; offset: number }): Promise<AddonDeliveryAttempt[]>;
  /** Deletes attempts logged before `before` (ISO); returns how many. */
  pruneAttempts(before: string): Promise<number>;
  /** A webhook's signing secrets; null when it has none. */
  getSigningSecrets(addonId: number): Promise<AddonSigningSecrets | null>;
  setSigningSecrets(addonId: number, secrets: AddonSigningSecrets): Promise<void>;
}

/** The part of the addon repository behind per-addon delivery: queues, the delivery log, signing secrets. */
export type AddonQueueMethods = Pick<
  AddonRepository,
  | 'enqueueDeliveries'
  | 'listDeliveries'
  | 'summarizeDeliveries'
  | 'updateDelivery'
  | 'deleteDelivery'
  | 'replayParked'
  | 'recordAttempts'
  | 'listAttempts'
  | 'pruneAttempts'
  | 'getSigningSecrets'
  | 'setSigningSecrets'
>;

/** Signal endpoints, their tokens, received signals and the action sets reacting to them. */
export interface SignalRepository {
  listEndpoints(): Promise<SignalEndpoint[]>;
  getEndpoint(id: number): Promise<SignalEndpoint | null>;
  getEndpointByName(name: string): Promise<SignalEndpoint | null>;
  /** CONFLICT when the name exists. */
  insertEndpoint(endpoint: Omit<SignalEndpoint, 'id'>): Promise<SignalEndpoint>;
  updateEndpoint(endpoint: SignalEndpoint): Promise<boolean>;
  /** Deletes the endpoint with its tokens and signals. */
  deleteEndpoint(id: number): Promise<boolean>;
  listTokens(endpointId: number): Promise<SignalEndpointToken[]>;
  insertToken(token: Omit<SignalEndpointToken, 'id'>): Promise<SignalEndpointToken>;
  deleteToken(endpointId: number, tokenId: number): Promise<boolean>;
  insertSignal(signal: Omit<Signal, 'id'>): Promise<Signal>;
  /** Newest first. */
  listSignals(endpointId: number, limit: number): Promise<Signal[]>;
  listActionSets(): Promise<ActionSet[]>;
  insertActionSet(set: Omit<ActionSet, 'id'>): Promise<ActionSet>;
  deleteActionSet(id: number): Promise<boolean>;
}

/**
 * Client metrics, registered applications and unknown flags. The metrics service batches SDK traffic
 * in memory and writes it here in one transaction per flush, so these are bulk writes.
 */
export interface MetricsRepository {
  /**
   * Adds the counts to the bucket rows (same feature, app, environment, hour add up, also within one
   * call). Concurrent writers never lose counts: the addition happens in the store.
   */
  addBuckets(buckets: readonly MetricsBucket[]): Promise<void>;
  /** Buckets with timestamp ≥ since, ordered by timestamp. */
  listBuckets(since: string): Promise<MetricsBucket[]>;
  /** Inserts or refreshes a registration. */
  upsertApplication(app: ClientApplication): Promise<void>;
  listApplications(): Promise<ClientApplication[]>;
  /** Forgets every registration of the application; returns how many instances went. */
  deleteApplication(appName: string): Promise<number>;
  /** Inserts or refreshes (lastSeenAt) unknown flags, one row per name, app and environment. */
  upsertUnknownFlags(flags: readonly UnknownFlag[]): Promise<void>;
  /** Unknown flags, most recently seen first (then by name, app, environment), at most `limit`. */
  listUnknownFlags(limit: number): Promise<UnknownFlag[]>;
  /** Forgets unknown flags last seen before `before` (RFC 3339); returns how many went. */
  deleteUnknownFlagsSeenBefore(before: string): Promise<number>;
}
