import { CONFIGURATION_EVENT_TYPES } from '../domain/event.js';
import type { ClientFeatures } from '../evaluation/client-features.js';
import { type CompiledFeatureSet, compileFeatures } from '../evaluation/compile-features.js';
import { loadClientFeatures } from './client-features-snapshot.js';
import type { ServiceDeps } from './deps.js';

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
 * the client API and in-process evaluation. A revision check is one indexed query; concurrent
 * callers of a stale environment wait for a single reload.
 */
export function createEvaluatorCache(deps: ServiceDeps, options: { hostname?: string } = {}) {
  const cache = new Map<string, EnvironmentSnapshot>();
  const loading = new Map<string, Promise<EnvironmentSnapshot>>();

  async function load(environment: string, revision: number): Promise<EnvironmentSnapshot> {
    const payload = await loadClientFeatures(deps.store, environment, { includeDisabledStrategies: true });
    const compiled = compileFeatures(payload, options.hostname ? { hostname: options.hostname } : {});
    const snapshot = { environment, revision, payload, compiled };
    cache.set(environment, snapshot);
    return snapshot;
  }

  return {
    /** The current snapshot of an environment (reloaded when the configuration changed). */
    async snapshot(environment: string): Promise<EnvironmentSnapshot> {
      const revision = await deps.store.events.latestIdOfTypes(configurationTypes);
      const cached = cache.get(environment);
      if (cached && cached.revision === revision) return cached;
      const key = `${environment}\u0000${revision}`;
      let pending = loading.get(key);
      if (!pending) {
        pending = load(environment, revision).finally(() => loading.delete(key));
        loading.set(key, pending);
      }
      return pending;
    },
  };
}

export type EvaluatorCache = ReturnType<typeof createEvaluatorCache>;
