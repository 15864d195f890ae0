import { createHash } from 'node:crypto';
import type { Caller } from '../../auth/caller.js';
import type { VariantResult } from '../../domain/variant.js';
import type { ClientFeatures } from '../../evaluation/client-features.js';
import type { CompiledFeatureSet } from '../../evaluation/compile-features.js';
import type { EvaluationContext } from '../../evaluation/evaluation-context.js';
import type { ServiceDeps } from '../deps.js';
import { createDeltaLog, type DeltaState, deltaEventsSince, type FeatureFilter } from './client-delta.js';
import { etagMatches } from './client-etag.js';
import { type FrontendToggle, frontendEtag, frontendToggles } from './client-frontend.js';
import { featuresPayloadBytes, hydrationBytes } from './client-payload-assembly.js';
import { DEFAULT_PAYLOAD_CACHE_ENTRIES, type PreparedPayload, preparePayload } from './client-payloads.js';
import { createRevisionWatch } from './client-revision.js';
import type { EvaluatorCache } from './evaluator-cache.js';
import { createOfrepService } from './ofrep-service.js';

export type { FrontendToggle } from './client-frontend.js';
export type { PayloadEncoding, PreparedPayload } from './client-payloads.js';

/** What an SDK token may see: its projects (`*` for all) in one environment. */
export interface ClientScope {
  projects: readonly string[];
  environment: string;
}

/** Filters SDKs may add to `GET /api/client/features` (and the delta and streaming APIs). */
export interface ClientFeaturesQuery {
  project?: string[] | undefined;
  namePrefix?: string | undefined;
  inlineSegmentConstraints?: boolean | undefined;
}

/** Tuning of the SDK-facing caches; every bound has a default. */
export interface ClientCacheOptions {
  /** Prepared answers kept per revision (token scopes × queries × kinds), oldest evicted first (default 512). */
  maxEntries?: number;
  /** Revisions of changes kept per environment for delta and streaming clients (default 100). */
  deltaWindow?: number;
  /** Longest a revision is trusted without reading the store (default 1000 ms). */
  revalidateMs?: number;
}

/** A client-features answer: unchanged for the client's ETag, or the payload to send. */
export type FeaturesAnswer =
  | { kind: 'not-modified'; etag: string }
  | { kind: 'payload'; etag: string; payload: PreparedPayload };

/** A delta-API answer: nothing newer than the client's revision, or events to apply. */
export type DeltaAnswer =
  | { kind: 'unchanged'; revision: number }
  | { kind: 'events'; revision: number; hydration: boolean; payload: PreparedPayload; changed: boolean };

interface Resolved {
  environment: string;
  revision: number;
  /** Identifies the scope and query, independent of the process: ETags derive from it. */
  key: string;
  hash: string;
  filter: FeatureFilter;
  query: Record<string, unknown>;
}

const sorted = (list: readonly string[] | undefined): string[] | undefined =>
  list?.length ? [...new Set(list)].sort() : undefined;

/** The SDK-facing API: client features with ETags, deltas, streams' changes, frontend and in-process evaluation. */
const ALL_ENVIRONMENTS_SCOPE: ClientScope = Object.freeze({ projects: ['*'], environment: '*' });

export function createClientService(
  deps: ServiceDeps & {
    evaluators: EvaluatorCache;
    cache?: ClientCacheOptions;
    secretKey?: string | undefined;
  },
) {
  const { evaluators } = deps;
  const options = deps.cache ?? {};
  const watch = createRevisionWatch(deps.store, evaluators.revision, { revalidateMs: options.revalidateMs });
  const maxAnswers = Math.max(1, options.maxEntries ?? DEFAULT_PAYLOAD_CACHE_ENTRIES);
  const deltas = createDeltaLog({ window: options.deltaWindow });
  const hashes = new Map<string, string>();
  let defaultEnvironment: { revision: number; name: string } | null = null;
  const shutdownListeners = new Set<() => void>();

  /** `*` means the first environment: client tokens for all environments read the default one. */
  async function environmentOf(scope: ClientScope, revision: number): Promise<string> {
    if (scope.environment !== '*') return scope.environment;
    if (defaultEnvironment?.revision !== revision) {
      const name = (await deps.store.environments.list())[0]?.name ?? 'development';
      defaultEnvironment = { revision, name };
    }
    return defaultEnvironment.name;
  }

  function hashOf(key: string): string {
    let hash = hashes.get(key);
    if (hash === undefined) {
      hash = createHash('sha256').update(key).digest('hex').slice(0, 8);
      // Keys are few (scopes × queries); the bound only guards against a flood of distinct queries.
      if (hashes.size >= 4096) hashes.clear();
      hashes.set(key, hash);
    }
    return hash;
  }

  /**
   * What the caller may read on an SDK API (the policy decides): its token's projects and
   * environment; everything for Flagstaff itself and hosts that turned authentication off.
   */
  async function scopeOf(caller: Caller, audience: 'client' | 'frontend'): Promise<ClientScope> {
    await deps.policy.require(caller, 'NONE', {}, audience);
    const { principal } = caller;
    return principal.kind === 'api-token'
      ? { projects: principal.projects, environment: principal.environment }
      : ALL_ENVIRONMENTS_SCOPE;
  }

  async function resolve(scope: ClientScope, query: ClientFeaturesQuery): Promise<Resolved> {
    const revision = await watch.current();
    const environment = await environmentOf(scope, revision);
    const projects = scope.projects.includes('*') ? undefined : sorted(scope.projects);
    const queryProjects = sorted(query.project);
    const namePrefix = query.namePrefix || undefined;
    const key = JSON.stringify([environment, projects ?? '*', queryProjects ?? null, namePrefix ?? null]);
    return {
      environment,
      revision,
      key,
      hash: hashOf(key),
      filter: {
        projects: projects ? new Set(projects) : null,
        queryProjects: queryProjects ? new Set(queryProjects) : null,
        namePrefix,
      },
      query: {
        ...(query.project ? { project: query.project } : {}),
        ...(namePrefix ? { namePrefix } : {}),
        environment,
      },
    };
  }

  /**
   * The answer under `key` at the resolved revision, kept on that revision's environment snapshot
   * and built once however many callers ask at the same time.
   */
  async function prepared(
    r: Resolved,
    key: string,
    build: () => Promise<PreparedPayload> | PreparedPayload,
  ): Promise<PreparedPayload> {
    const { answers } = await evaluators.snapshotAt(r.environment, r.revision);
    let answer = answers.get(key);
    if (answer === undefined) {
      // Scopes × queries × kinds are few; the bound only guards against a flood of distinct ones.
      if (answers.size >= maxAnswers) answers.delete(answers.keys().next().value ?? '');
      const building = Promise.resolve().then(build);
      answers.set(key, building);
      // A failed build is retried by the next request instead of failing every later one.
      building.catch(() => {
        if (answers.get(key) === building) answers.delete(key);
      });
      answer = building;
    }
    return answer;
  }

  async function stateAt(environment: string, revision: number): Promise<DeltaState> {
    return deltas.advance(await evaluators.snapshotAt(environment, revision));
  }

  const featuresEtag = (r: Resolved) => `"${r.hash}:${r.revision}"`;

  async function featuresPayload(r: Resolved): Promise<PreparedPayload> {
    return prepared(r, `features\u0000${r.key}`, async () => {
      const state = await stateAt(r.environment, r.revision);
      const etag = featuresEtag(r);
      const meta = { revisionId: r.revision, etag, queryHash: r.hash };
      return preparePayload(r.revision, etag, featuresPayloadBytes(state, r.filter, r.query, meta));
    });
  }

  return {
    /**
     * The ETag `GET /api/client/features` would answer with now: revision + scope + query, the same
     * on every process sharing the store. While the revision is known it reads no store.
     */
    async featuresEtag(caller: Caller, query: ClientFeaturesQuery = {}): Promise<string> {
      const scope = await scopeOf(caller, 'client');
      return featuresEtag(await resolve(scope, query));
    },

    /** GET /api/client/features as prepared bytes (compressed variants on demand), built once per revision. */
    async featuresPayload(caller: Caller, query: ClientFeaturesQuery = {}): Promise<PreparedPayload> {
      const scope = await scopeOf(caller, 'client');
      return featuresPayload(await resolve(scope, query));
    },

    /**
     * GET /api/client/features in one call: scope, environment and revision resolved once. A
     * matching `ifNoneMatch` answers `notModified` on the ETag alone (no store read while the
     * revision is known, nothing serialized); otherwise the prepared bytes, built once per revision.
     */
    async featuresAnswer(
      caller: Caller,
      query: ClientFeaturesQuery = {},
      ifNoneMatch?: string,
    ): Promise<FeaturesAnswer> {
      const scope = await scopeOf(caller, 'client');
      const r = await resolve(scope, query);
      const etag = featuresEtag(r);
      if (etagMatches(ifNoneMatch, etag)) return { kind: 'not-modified', etag };
      return { kind: 'payload', etag, payload: await featuresPayload(r) };
    },

    /** GET /api/client/features as an object, for in-process callers. */
    async features(
      caller: Caller,
      query: ClientFeaturesQuery = {},
    ): Promise<{ body: ClientFeatures; etag: string }> {
      const scope = await scopeOf(caller, 'client');
      const payload = await featuresPayload(await resolve(scope, query));
      return { body: JSON.parse(Buffer.from(payload.bytes).toString('utf8')), etag: payload.etag };
    },

    /** GET /api/client/features/:name: one feature's JSON, or null when absent or outside the scope. */
    async feature(caller: Caller, name: string): Promise<{ json: string; etag: string } | null> {
      const scope = await scopeOf(caller, 'client');
      const r = await resolve(scope, {});
      const state = await stateAt(r.environment, r.revision);
      const entry = state.features.get(name);
      if (!entry || (r.filter.projects !== null && !r.filter.projects.has(entry.project))) return null;
      return { json: entry.json, etag: `"${hashOf(`${r.key}\u0000${name}`)}:${r.revision}"` };
    },

    /**
     * GET /api/client/delta and streams: what a client at revision `since` (null: none) needs. Older
     * than the change window kept in memory, it gets a hydration.
     */
    async delta(
      caller: Caller,
      query: ClientFeaturesQuery,
      since: number | null,
      audience: 'client' | 'frontend' = 'client',
    ): Promise<DeltaAnswer> {
      const scope = await scopeOf(caller, audience);
      const r = await resolve(scope, query);
      if (since !== null && since >= r.revision) return { kind: 'unchanged', revision: r.revision };
      const state = await stateAt(r.environment, r.revision);
      const from = since ?? -1;
      const events = since === null ? null : deltaEventsSince(state, since, r.filter);
      if (events === null) {
        const payload = await prepared(r, `hydration\u0000${r.key}`, () =>
          preparePayload(r.revision, `"${r.revision}"`, hydrationBytes(state, r.filter)),
        );
        return { kind: 'events', revision: r.revision, hydration: true, payload, changed: true };
      }
      const payload = await prepared(r, `delta\u0000${r.key}\u0000${from}`, () =>
        preparePayload(r.revision, `"${r.revision}"`, `{"events":[${events.join(',')}]}`),
      );
      return { kind: 'events', revision: r.revision, hydration: false, payload, changed: events.length > 0 };
    },

    /**
     * Calls `onRevision` with each new configuration revision, whichever process wrote it, and
     * `onShutdown` once when the service shuts down. Returns an unsubscribe function.
     */
    watch(onRevision: (revision: number) => void, onShutdown: () => void): () => void {
      const unsubscribe = watch.subscribe(onRevision);
      shutdownListeners.add(onShutdown);
      return () => {
        unsubscribe();
        shutdownListeners.delete(onShutdown);
      };
    },

    /** Ends every watch (open streams finish) and stops listening to the store. */
    shutdown(): void {
      watch.stop();
      const listeners = [...shutdownListeners];
      shutdownListeners.clear();
      for (const listener of listeners) listener();
    },

    /** OFREP evaluation within a client or frontend token's scope (`/ofrep/v1`). */
    ofrep: createOfrepService({
      ...deps,
      scopeOf,
      snapshotOf: async (scope) => {
        const revision = await watch.current();
        return evaluators.snapshotAt(await environmentOf(scope, revision), revision);
      },
    }),

    /** GET|POST /api/frontend: features that are on for the context, with their variants. */
    async frontend(caller: Caller, context: EvaluationContext): Promise<{ toggles: FrontendToggle[] }> {
      const scope = await scopeOf(caller, 'frontend');
      const revision = await watch.current();
      const { compiled } = await evaluators.snapshotAt(await environmentOf(scope, revision), revision);
      return frontendToggles(compiled, scope.projects, context);
    },

    /**
     * The frontend answer with its ETag (revision + scope + context); with a matching `ifNoneMatch`
     * nothing is evaluated and `toggles` is null. The ETag is null when the answer may change between
     * identical requests (random stickiness, the clock).
     */
    async frontendWithEtag(
      caller: Caller,
      context: EvaluationContext,
      ifNoneMatch?: string,
    ): Promise<{ etag: string | null; toggles: FrontendToggle[] | null }> {
      const scope = await scopeOf(caller, 'frontend');
      const revision = await watch.current();
      const environment = await environmentOf(scope, revision);
      const { compiled, payload } = await evaluators.snapshotAt(environment, revision);
      const scopeKey = JSON.stringify([environment, sorted(scope.projects) ?? []]);
      const etag = frontendEtag(payload, revision, scopeKey, context);
      if (etag !== null && etagMatches(ifNoneMatch, etag)) {
        return { etag, toggles: null };
      }
      return { etag, toggles: frontendToggles(compiled, scope.projects, context).toggles };
    },

    /**
     * The compiled flags of an environment for in-process evaluation: call `isEnabled` and
     * `getVariant` on the result synchronously; call this again to pick up later changes.
     */
    async evaluator(environment: string): Promise<CompiledFeatureSet> {
      return (await evaluators.snapshot(environment)).compiled;
    },

    /** One-shot in-process check of a flag in an environment. */
    async isEnabled(environment: string, name: string, context: EvaluationContext = {}): Promise<boolean> {
      return (await evaluators.snapshot(environment)).compiled.isEnabled(name, context);
    },

    /** One-shot in-process variant of a flag in an environment. */
    async getVariant(
      environment: string,
      name: string,
      context: EvaluationContext = {},
    ): Promise<Readonly<VariantResult>> {
      return (await evaluators.snapshot(environment)).compiled.getVariant(name, context);
    },
  };
}

export type ClientService = ReturnType<typeof createClientService>;
