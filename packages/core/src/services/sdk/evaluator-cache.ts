import { CONFIGURATION_EVENT_TYPES } from '../../domain/event.js';
import type { ClientFeatures } from '../../evaluation/client-features.js';
import { type CompiledFeatureSet, compileFeatures } from '../../evaluation/compile-features.js';
import type { ServiceDeps } from '../deps.js';
import { type PatchedPayload, patchedPayload } from './client-features-patch.js';
import { loadClientFeatures } from './client-features-snapshot.js';
import type { PreparedPayload } from './client-payloads.js';

/** One environment's configuration at one revision; compiled on first demand. */
export interface EnvironmentSnapshot {
  readonly environment: string;
  /** Id of the latest configuration-changing event it reflects. */
  readonly revision: number;
  /**
   * The client-API payload, disabled strategies included. A feature unchanged since the previous
   * revision is the same object as in the previous snapshot: serialized forms keyed by it are reused.
   */
  readonly payload: ClientFeatures;
  /**
   * The evaluator, compiled when first read (frontend API, OFREP, playground, in-process checks):
   * SDKs that fetch JSON never wait for, nor hold, a compilation of every feature.
   */
  readonly compiled: CompiledFeatureSet;
  /** When it was patched from the snapshot at `since`: the features re-read (null: gone). */
  readonly patch?: Pick<PatchedPayload, 'since' | 'features'> | undefined;
  /**
   * The SDK answers prepared at this revision (client payloads with their ETags and compressed
   * forms, hydrations, deltas), by scope and query: they live and die with the snapshot, so no
   * cache of its own keys them by revision.
   */
  readonly answers: Map<string, Promise<PreparedPayload>>;
}

/** A snapshot whose evaluator is compiled on its first read, then kept. */
function lazySnapshot(
  environment: string,
  revision: number,
  payload: ClientFeatures,
  patch: PatchedPayload | null,
  compile: (payload: ClientFeatures) => CompiledFeatureSet,
): EnvironmentSnapshot {
  let compiled: CompiledFeatureSet | null = null;
  return {
    environment,
    revision,
    payload,
    patch: patch ? { since: patch.since, features: patch.features } : undefined,
    answers: new Map(),
    get compiled() {
      compiled ??= compile(payload);
      return compiled;
    },
  };
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
    const patch =
      previous && previous.revision < revision
        ? await patchedPayload(deps.store, previous.payload, previous.revision, revision, environment)
        : null;
    const payload = patch?.payload ?? (await loadClientFeatures(deps.store, environment));
    const snapshot = lazySnapshot(environment, revision, payload, patch, (p) =>
      compileFeatures(p, options.hostname ? { hostname: options.hostname } : {}),
    );
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
