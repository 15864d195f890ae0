import type { Clock, HttpClient, IdGenerator, Logger } from './ports/runtime-ports.js';
import { silentLogger, systemClock } from './ports/runtime-ports.js';
import type { Store } from './ports/store.js';
import { createAccessService } from './services/access-service.js';
import { createAccountService } from './services/account-service.js';
import { createAddonService } from './services/addon-service.js';
import { createApiTokenService } from './services/api-token-service.js';
import { type ClientCacheOptions, createClientService } from './services/client-service.js';
import { createContextFieldService } from './services/context-field-service.js';
import { createDependencyService } from './services/dependency-service.js';
import { cryptoIds, type ServiceDeps } from './services/deps.js';
import { createEnvironmentService } from './services/environment-service.js';
import { createEvaluatorCache } from './services/evaluator-cache.js';
import { createEventService } from './services/event-service.js';
import { createExportService } from './services/export-service.js';
import { createFeatureEnvironmentService } from './services/feature-environment-service.js';
import { createFeatureSearchService } from './services/feature-search-service.js';
import { createFeatureService } from './services/feature-service.js';
import { createInsightsService } from './services/insights-service.js';
import type { LoginThrottleOptions } from './services/login-throttle.js';
import { createMetricsService, type MetricsOptions } from './services/metrics-service.js';
import { createPlaygroundService } from './services/playground-service.js';
import { createProjectService } from './services/project-service.js';
import { seedInstance } from './services/seed.js';
import { createSegmentService } from './services/segment-service.js';
import { createSessionService } from './services/session-service.js';
import { createSignalService } from './services/signal-service.js';
import { createSignupTokenService } from './services/signup-token-service.js';
import { createStrategyService } from './services/strategy-service.js';
import { createTagService } from './services/tag-service.js';
import { createUserService } from './services/user-service.js';

export interface FlagstaffOptions {
  store: Store;
  clock?: Clock;
  ids?: IdGenerator;
  logger?: Logger;
  /** Outbound HTTP for addons; defaults to global fetch. */
  http?: HttpClient;
  /** Public base URL of the service, used in invite links (default: none, links are relative). */
  baseUrl?: string;
  /** Host name `applicationHostname` strategies match in in-process evaluation. */
  hostname?: string;
  /** Signal endpoint limits (defaults: 5 endpoints, 5 tokens each, 1 request per second). */
  signalLimits?: { endpoints?: number; tokensPerEndpoint?: number; requestsPerSecond?: number };
  /** A login session unused this long ends (default 48 hours). */
  sessionIdleTtlMs?: number;
  /** Failed-login limits per username (defaults: 5 failures within 15 minutes lock it for 5 minutes). */
  loginThrottle?: LoginThrottleOptions;
  /** Bounds of the SDK-facing caches: prepared answers, the delta window, revision trust. */
  clientCache?: ClientCacheOptions;
  /**
   * How often SDK metrics, registrations and lastSeenAt, added up in memory, are written (default
   * 5000 ms; 0: only on `flagstaff.metrics.flush()` and `close()`). A crash loses at most this much.
   */
  metricsFlushIntervalMs?: number;
  /** Limits on SDK metrics requests and on what is held between flushes. */
  metricsLimits?: Omit<MetricsOptions, 'flushIntervalMs'>;
}

const fetchHttp: HttpClient = {
  async post(url, init) {
    const res = await fetch(url, {
      method: 'POST',
      headers: init.headers,
      body: init.body,
      signal: AbortSignal.timeout(init.timeoutMs),
    });
    return { status: res.status };
  },
};

/** Wires every service over one store. */
function createServices(deps: ServiceDeps, options: FlagstaffOptions) {
  const evaluators = createEvaluatorCache(deps, { hostname: options.hostname });
  return {
    access: createAccessService(deps),
    environments: createEnvironmentService(deps),
    projects: createProjectService(deps),
    features: createFeatureService(deps),
    featureSearch: createFeatureSearchService(deps),
    featureEnvironments: createFeatureEnvironmentService(deps),
    strategies: createStrategyService(deps),
    dependencies: createDependencyService(deps),
    tags: createTagService(deps),
    segments: createSegmentService(deps),
    contextFields: createContextFieldService(deps),
    events: createEventService(deps),
    apiTokens: createApiTokenService(deps),
    signupTokens: createSignupTokenService({ ...deps, baseUrl: options.baseUrl }),
    users: createUserService(deps),
    sessions: createSessionService({
      ...deps,
      sessions: { sessionIdleTtlMs: options.sessionIdleTtlMs, loginThrottle: options.loginThrottle },
    }),
    accounts: createAccountService(deps),
    addons: createAddonService({ ...deps, http: options.http ?? fetchHttp }),
    signals: createSignalService({ ...deps, limits: options.signalLimits }),
    metrics: createMetricsService(deps, {
      ...options.metricsLimits,
      flushIntervalMs: options.metricsFlushIntervalMs,
    }),
    insights: createInsightsService(deps),
    exports: createExportService(deps),
    playground: createPlaygroundService({ ...deps, evaluators }),
    client: createClientService({ ...deps, evaluators, cache: options.clientCache }),
  };
}

export type Flagstaff = ReturnType<typeof createServices> & {
  readonly store: Store;
  /** Stops background work (addon delivery), writes pending metrics and closes the store. */
  close(): Promise<void>;
};

/** Creates Flagstaff over a store: seeds a new instance (default project and environments) once. */
export async function createFlagstaff(options: FlagstaffOptions): Promise<Flagstaff> {
  const deps: ServiceDeps = {
    store: options.store,
    clock: options.clock ?? systemClock,
    ids: options.ids ?? cryptoIds,
    logger: options.logger ?? silentLogger,
  };
  await seedInstance(deps);
  const services = createServices(deps, options);
  return {
    ...services,
    store: options.store,
    async close() {
      // Metrics first: they need the store, and a failure must not keep the store open.
      await services.metrics.stop().catch((error: unknown) =>
        deps.logger.error('pending metrics were lost at close', {
          error: error instanceof Error ? error.message : String(error),
        }),
      );
      await services.addons.stop();
      // Streams end before the store goes: they would otherwise read a closed store.
      services.client.shutdown();
      await options.store.close();
    },
  };
}
