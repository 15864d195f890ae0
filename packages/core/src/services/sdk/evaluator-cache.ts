import { CONFIGURATION_EVENT_TYPES } from '../../domain/event.js';
import type { ClientFeatures } from '../../evaluation/client-features.js';
import { type CompiledFeatureSet, compileFeatures } from '../../evaluation/compile-features.js';
import type { ServiceDeps } from '../deps.js';
import { patchedPayload } from './client-features-patch.js';
import { loadClientFeatures } from './client-features-snapshot.js';

/** One environment's configuration at one revision, loaded and compiled. */
export interface EnvironmentSnapshot {
  environment: string;
  /** Id of the latest configuration-changing event it reflects. */
  revision: number;
  /** The client-API payload, disabled strategies included. */
  payload: ClientFeatures;
  compiled: CompiledFeatureSet;
}

const configurationTypes = [...CONFIGURATION_EVENT_TYPES];

/**
 * Compiles each environment's configuration once per revision and shares it between the playground,
 * the client API and in-process evaluation. A revision check is one indexed query (two when an event
 * was written since the last check); concurrent callers of a stale environment wait for a single
 * reload.
 */
export function createEvaluatorCache(deps: ServiceDeps, options: { hostname?: string } = {}) {
  const cache = new Map<string, EnvironmentSnapshot>();
  const loading = new Map<string, Promise<EnvironmentSnapshot>>();

  async function load(environment: string, revision: number): Promise<EnvironmentSnapshot> {
    const previous = cache.get(environment);
    const payload =
      (previous && previous.revision < revision
        ? await patchedPayload(deps.store, previous.payload, previous.revision, revision, environment)
        : null) ?? (await loadClientFeatures(deps.store, environment, { includeDisabledStrategies: true }));
    const compiled = compileFeatures(payload, options.hostname ? { hostname: options.hostname } : {});
    const snapshot = { environment, revision, payload, compiled };
    cache.set(environment, snapshot);
    return snapshot;
  }

  // The newest event id seen, and the configuration revision read with it. Event ids are handed out
  // in commit order (the event-log port's guarantee on every store), so while the newest id stays
  // the same no configuration event can have been written: the revision is known without asking
  // for the newest event of some 30 types (a much dearer query, on PostgreSQL especially).
  let seen: { latestId: number; revision: number } | null = null;

  /** The current configuration revision: one cheap query while no event was written. */
  async function currentRevision(): Promise<number> {
    const latestId = await deps.store.events.latestId();
    if (seen !== null && seen.latestId === latestId) return seen.revision;
    // Read after `latestId`: it covers at least every event up to it.
    const revision = await deps.store.events.latestId({ types: configurationTypes });
    seen = { latestId, revision };
    return revision;
  }

  function snapshotAt(
    environment: string,
    revision: number,
  ): Promise<EnvironmentSnapshot> | EnvironmentSnapshot {
    const cached = cache.get(environment);
    if (cached && cached.revision === revision) return cached;
    const key = `${environment}\u0000${revision}`;
    let pending = loading.get(key);
    if (!pending) {
      pending = load(environment, revision).finally(() => loading.delete(key));
      loading.set(key, pending);
    }
    return pending;
  }

  return {
    revision: currentRevision,
    /** The current snapshot of an environment (reloaded when the configuration changed). */
    async snapshot(environment: string): Promise<EnvironmentSnapshot> {
      return snapshotAt(environment, await currentRevision());
    },
    /**
     * The snapshot of an environment at a revision just read with `revision()`, for callers that
     * read it alongside their other queries.
     */
    snapshotAt,
  };
}

export type EvaluatorCache = ReturnType<typeof createEvaluatorCache>;
