import type { Addon } from '../domain/addon.js';
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
  delete(id: number): Promise<boolean>;
}

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
  /** Inserts or refreshes (lastSeenAt) unknown flags, one row per name, app and environment. */
  upsertUnknownFlags(flags: readonly UnknownFlag[]): Promise<void>;
  /** Unknown flags, most recently seen first (then by name, app, environment), at most `limit`. */
  listUnknownFlags(limit: number): Promise<UnknownFlag[]>;
  /** Forgets unknown flags last seen before `before` (RFC 3339); returns how many went. */
  deleteUnknownFlagsSeenBefore(before: string): Promise<number>;
}
