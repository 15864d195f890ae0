import type { Addon } from '../domain/addon.js';
import type { ClientApplication, MetricsBucket } from '../domain/metrics.js';
import type { ActionSet, Signal, SignalEndpoint, SignalEndpointToken } from '../domain/signal.js';

/** Addon configurations, and how far delivery has got through the event log. */
export interface AddonRepository {
  /** Id of the last event addon delivery dealt with; null before delivery first ran. */
  getDeliveredThrough(): Promise<number | null>;
  /** Records how far addon delivery got (the next run starts after this id). */
  setDeliveredThrough(eventId: number): Promise<void>;
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

/** Client metrics and registered applications. */
export interface MetricsRepository {
  /** Adds the counts to the bucket rows (same feature, app, environment, hour add up). */
  addBuckets(buckets: readonly MetricsBucket[]): Promise<void>;
  /** Buckets with timestamp ≥ since, ordered by timestamp. */
  listBuckets(since: string): Promise<MetricsBucket[]>;
  /** Inserts or refreshes a registration. */
  upsertApplication(app: ClientApplication): Promise<void>;
  listApplications(): Promise<ClientApplication[]>;
}
