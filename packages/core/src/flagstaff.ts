import type { HashLimits } from './auth/hash-gate.js';
import { createPolicy, type Policy } from './auth/policy.js';
import { createOperationRunner, type OperationRunner } from './operations/run-operation.js';
import { createNodeHttpClient } from './outbound/node-http-client.js';
import type { Clock, HttpClient, IdGenerator, Logger } from './ports/runtime-ports.js';
import { silentLogger, systemClock } from './ports/runtime-ports.js';
import type { Store } from './ports/store.js';
import { type AccessService, createAccessService } from './services/access/access-service.js';
import { type AccountService, createAccountService } from './services/access/account-service.js';
import {
  type ApiTokenService,
  createApiTokenService,
  tokenSecretBox,
} from './services/access/api-token-service.js';
import { createEdgeService, type EdgeService } from './services/access/edge-operations.js';
import type { LoginThrottleOptions } from './services/access/login-throttle.js';
import { createPasswordResetService, type PasswordResetService } from './services/access/password-reset.js';
import {
  createPersonalTokenService,
  type PersonalTokenService,
} from './services/access/personal-token-service.js';
import { createResetLinks } from './services/access/reset-links.js';
import { createSessionRuntime } from './services/access/session-runtime.js';
import { createSessionService, type SessionService } from './services/access/session-service.js';
import { createSignupTokenService, type SignupTokenService } from './services/access/signup-token-service.js';
import { createUserDirectory, type UserDirectory } from './services/access/user-directory.js';
import { createUserService, type UserService } from './services/access/user-service.js';
import { type CatalogCompat, createCatalogCompat } from './services/catalog-compat.js';
import {
  type ChangeRequestScheduler,
  createChangeRequestScheduler,
  type ScheduleOptions,
} from './services/change-requests/change-request-scheduler.js';
import {
  type ChangeRequestService,
  createChangeRequestService,
} from './services/change-requests/change-request-service.js';
import { createRevertService, type RevertService } from './services/change-requests/revert.js';
import { cryptoIds, type ServiceDeps } from './services/deps.js';
import { createEventService, type EventService } from './services/events/event-service.js';
import { createDefinitionService, type DefinitionService } from './services/features/definitions.js';
import { createDependencyService, type DependencyService } from './services/features/dependency-service.js';
import {
  createFeatureEnvironmentService,
  type FeatureEnvironmentService,
} from './services/features/feature-environment-service.js';
import { createFeatureLinkService, type FeatureLinkService } from './services/features/feature-links.js';
import {
  createFeatureSearchService,
  type FeatureSearchService,
} from './services/features/feature-search-service.js';
import {
  createFeatureExtras,
  createFeatureService,
  type FeatureExtras,
  type FeatureService,
} from './services/features/feature-service.js';
import { createImportService, type ImportService } from './services/features/import-operations.js';
import { createStrategyService, type StrategyService } from './services/features/strategy-service.js';
import { createTagService, type TagService } from './services/features/tag-service.js';
import { createExportService, type ExportService } from './services/insights/export-operations.js';
import { createInsightsService, type InsightsService } from './services/insights/insights-service.js';
import { createAddonRuntime } from './services/integrations/addon-runtime.js';
import {
  type AddonService,
  type AddonServiceOptions,
  createAddonService,
} from './services/integrations/addon-service.js';
import { createOutboundPolicy } from './services/integrations/outbound-policy.js';
import { createSignalService, type SignalService } from './services/integrations/signal-service.js';
import { type BackupService, createBackupService } from './services/operations/backup-service.js';
import { createHealthService, type HealthService } from './services/operations/health-service.js';
import { createInstanceService, type InstanceService } from './services/operations/instance-service.js';
import { createInstanceState } from './services/operations/instance-state.js';
import {
  createMaintenanceService,
  createMaintenanceState,
  type MaintenanceService,
  type MaintenanceState,
} from './services/operations/maintenance.js';
import {
  type ContextFieldService,
  createContextFieldService,
} from './services/projects/context-field-service.js';
import {
  createEnvironmentService,
  type EnvironmentService,
} from './services/projects/environment-service.js';
import {
  createProjectContextFields,
  type ProjectContextFields,
} from './services/projects/project-context-fields.js';
import { createProjectService, type ProjectService } from './services/projects/project-service.js';
import { createProjectViews, type ProjectViews } from './services/projects/project-views.js';
import { seedInstance } from './services/projects/seed.js';
import { createSegmentService, type SegmentService } from './services/projects/segment-service.js';
import type { PlaygroundLimits } from './services/sdk/advanced-playground.js';
import { type ApplicationViews, createApplicationViews } from './services/sdk/application-views.js';
import {
  type ClientCacheOptions,
  type ClientService,
  createClientService,
} from './services/sdk/client-service.js';
import { createEvaluatorCache } from './services/sdk/evaluator-cache.js';
import {
  createMetricsService,
  type MetricsOptions,
  type MetricsService,
} from './services/sdk/metrics-service.js';
import { createPlaygroundService, type PlaygroundService } from './services/sdk/playground-service.js';

export interface FlagstaffOptions {
  store: Store;
  clock?: Clock;
  ids?: IdGenerator;
  logger?: Logger;
  /**
   * Outbound HTTP for addons. The default (node:http) applies the outbound policy to every
   * connection; a client given here must apply it itself (addons are still checked for refused IP
   * literals when saved and before each attempt).
   */
  http?: HttpClient;
  /**
   * Destinations addons may reach although the outbound policy refuses them by default (loopback,
   * private, link-local, CGNAT, multicast, unspecified): host names (exact), IP addresses or CIDR
   * ranges. The standalone server reads `FLAGSTAFF_WEBHOOK_ALLOWED_HOSTS` (comma-separated).
   */
  webhookAllowedHosts?: readonly string[];
  /**
   * Public base URL of the service, used in invite, set-password and reset links (default: none,
   * links are relative and the HTTP layer resolves them against the request's origin).
   */
  baseUrl?: string;
  /** Host name `applicationHostname` strategies match in in-process evaluation. */
  hostname?: string;
  /** Signal endpoint limits (defaults: 5 endpoints, 5 tokens each, 1 request per second). */
  signalLimits?: { endpoints?: number; tokensPerEndpoint?: number; requestsPerSecond?: number };
  /** A login session unused this long ends (default 48 hours). */
  sessionIdleTtlMs?: number;
  /** Failed-login limits per username (defaults: 5 failures within 15 minutes lock it for 5 minutes). */
  loginThrottle?: LoginThrottleOptions;
  /**
   * Password hashes sign-ins may have running or waiting (defaults: 4 running, 16 waiting, 2 per
   * client address); attempts past them get RATE_LIMITED at once, without hashing.
   */
  loginHashLimits?: HashLimits;
  /**
   * The server key. API token secrets are sealed with it (AES-256-GCM) so listings can show them
   * again to those allowed to read them; without it they are write-only (shown once, then masked).
   * Password reset links are signed with a key derived from it (never stored); without it that key
   * is random per process, so links work only on the process that made them, until it restarts.
   * Keep it stable: secrets sealed under another key show masked, links signed under it fail.
   */
  secretKey?: string;
  /** Furthest ahead a personal access token may expire, in days (default 365). */
  personalTokenMaxLifetimeDays?: number;
  /**
   * Addon delivery: retry window (default 24 hours), backoff, timeouts, delivery-log retention and
   * the lease term shared by processes on one store. Webhook signing secrets and sensitive addon
   * parameters are sealed under `secretKey` too when it is given.
   */
  addonDelivery?: Omit<AddonServiceOptions, 'secretKey' | 'outbound' | 'closeHttp'>;
  /** Keep token secrets write-only even with a `secretKey` (nothing sealed, listings masked). */
  tokenSecretsWriteOnly?: boolean;
  /** Bounds of the SDK-facing caches: prepared answers, the delta window, revision trust. */
  clientCache?: ClientCacheOptions;
  /**
   * How often SDK metrics, registrations and lastSeenAt, added up in memory, are written (default
   * 5000 ms; 0: only on `flagstaff.metrics.flush()` and `close()`). A crash loses at most this much.
   */
  metricsFlushIntervalMs?: number;
  /** Limits on SDK metrics requests and on what is held between flushes. */
  metricsLimits?: Omit<MetricsOptions, 'flushIntervalMs'>;
  /** Bounds of one advanced playground request (defaults: 10,000 evaluations, a 20 MB answer). */
  playgroundLimits?: PlaygroundLimits;
  /** How often scheduled change requests are looked for (default every 10 s; 0: never on its own). */
  changeRequestSchedule?: ScheduleOptions;
}

/** Wires every service over one store. */
function createServices(
  deps: ServiceDeps,
  options: FlagstaffOptions,
  maintenance: MaintenanceState,
  scheduler: ChangeRequestScheduler,
): Omit<Flagstaff, 'store' | 'close' | 'policy'> {
  const tokenSecrets = tokenSecretBox({
    secretKey: options.secretKey,
    writeOnly: options.tokenSecretsWriteOnly,
  });
  const resetLinks = createResetLinks({
    clock: deps.clock,
    baseUrl: options.baseUrl,
    secretKey: options.secretKey,
  });
  const sessions = createSessionRuntime({
    sessionIdleTtlMs: options.sessionIdleTtlMs,
    loginThrottle: options.loginThrottle,
    hashLimits: options.loginHashLimits,
  });
  const instance = createInstanceState(deps.store, maintenance, options.baseUrl);
  const outbound = createOutboundPolicy(options.webhookAllowedHosts);
  const evaluators = createEvaluatorCache(deps, { hostname: options.hostname });
  const addons = createAddonRuntime(
    { ...deps, http: options.http ?? createNodeHttpClient(outbound) },
    { ...options.addonDelivery, secretKey: options.secretKey, outbound, closeHttp: !options.http },
  );
  const run = createOperationRunner({
    ...deps,
    newUserLink: resetLinks.newUserLink,
    resetLinks,
    sessions,
    baseUrl: options.baseUrl,
    tokenSecrets,
    signalLimits: options.signalLimits,
    personalTokenMaxLifetimeDays: options.personalTokenMaxLifetimeDays,
    instance,
    addons,
    evaluators,
    playgroundLimits: options.playgroundLimits,
  });
  const users = createUserService(deps, { run });
  const features = createFeatureService(deps, run);
  const strategies = createStrategyService(deps, run);
  const insights = createInsightsService(run);
  const changeRequestService = createChangeRequestService(run);
  return {
    access: createAccessService(deps),
    environments: createEnvironmentService(run),
    projects: createProjectService(run),
    features,
    featureExtras: createFeatureExtras(run),
    featureLinks: createFeatureLinkService(run),
    projectContextFields: createProjectContextFields(run),
    featureSearch: createFeatureSearchService(run),
    featureEnvironments: createFeatureEnvironmentService(deps, run),
    strategies,
    catalog: createCatalogCompat(run),
    dependencies: createDependencyService(run),
    changeRequests: {
      ...changeRequestService,
      ...createRevertService(run),
      runDueSchedules: scheduler.runDueSchedules,
    },
    tags: createTagService(deps, run),
    segments: createSegmentService(run),
    contextFields: createContextFieldService(deps, run),
    events: createEventService(run),
    run,
    apiTokens: createApiTokenService(deps, run, tokenSecrets),
    signupTokens: createSignupTokenService(run),
    users,
    userDirectory: createUserDirectory(run),
    passwordReset: createPasswordResetService(run, resetLinks),
    sessions: createSessionService(deps, run, sessions),
    accounts: createAccountService(deps, run),
    addons: createAddonService(deps, run, addons),
    signals: createSignalService(run),
    metrics: createMetricsService(deps, {
      ...options.metricsLimits,
      flushIntervalMs: options.metricsFlushIntervalMs,
    }),
    insights,
    projectViews: createProjectViews(run),
    exports: createExportService(run),
    imports: createImportService(run),
    backups: createBackupService(run),
    maintenance: createMaintenanceService(run),
    health: createHealthService(run),
    personalTokens: createPersonalTokenService(run, {
      maxLifetimeDays: options.personalTokenMaxLifetimeDays,
    }),
    edge: createEdgeService(run),
    instance: createInstanceService(run, instance),
    definitions: createDefinitionService(deps, run),
    applications: createApplicationViews(run),
    playground: createPlaygroundService({ ...deps, evaluators }, run),
    client: createClientService({
      ...deps,
      evaluators,
      cache: options.clientCache,
      secretKey: options.secretKey,
    }),
  };
}

/** Everything Flagstaff offers in-process: one service per area, over one store. */
export interface Flagstaff {
  /**
   * Runs any operation (`defineOperation`) as a caller: input parsed and typed, the policy asked,
   * writes in one transaction. The areas below wrap the same operations.
   */
  readonly run: OperationRunner;
  readonly access: AccessService;
  readonly environments: EnvironmentService;
  readonly projects: ProjectService;
  readonly features: FeatureService;
  /** One environment of a feature, clone, parent variants, lifecycle, constraint checks. */
  readonly featureExtras: FeatureExtras;
  /** Links on features. */
  readonly featureLinks: FeatureLinkService;
  /** Context fields scoped to one project. */
  readonly projectContextFields: ProjectContextFields;
  readonly featureSearch: FeatureSearchService;
  readonly featureEnvironments: FeatureEnvironmentService;
  readonly strategies: StrategyService;
  /** Tags on their own, event creators and search, environment order, segments of a strategy. */
  readonly catalog: CatalogCompat;
  readonly dependencies: DependencyService;
  /** Change requests: settings per project environment, drafts, review, applying. */
  readonly changeRequests: ChangeRequestService &
    RevertService &
    Pick<ChangeRequestScheduler, 'runDueSchedules'>;
  readonly tags: TagService;
  readonly segments: SegmentService;
  readonly contextFields: ContextFieldService;
  readonly events: EventService;
  readonly apiTokens: ApiTokenService;
  readonly signupTokens: SignupTokenService;
  readonly users: UserService;
  /** Profile, roles, search, admin count and inactive users. */
  readonly userDirectory: UserDirectory;
  /** Password reset links (`/auth/reset/*`). */
  readonly passwordReset: PasswordResetService;
  readonly sessions: SessionService;
  readonly accounts: AccountService;
  readonly addons: AddonService;
  readonly signals: SignalService;
  readonly metrics: MetricsService;
  readonly insights: InsightsService;
  /** Project status, health report, insights, applications and flag creators. */
  readonly projectViews: ProjectViews;
  readonly exports: ExportService;
  readonly imports: ImportService;
  /** Consistent copies of a running SQLite store (the online backup API), for root Admins. */
  readonly backups: BackupService;
  /** Maintenance mode: while on, admin-API changes are refused and SDKs are served as usual. */
  readonly maintenance: MaintenanceService;
  /** Liveness and readiness for load balancers. */
  readonly health: HealthService;
  /** Users' personal access tokens, which act as their user on the admin API. */
  readonly personalTokens: PersonalTokenService;
  /** Token validation for Unleash Edge. */
  readonly edge: EdgeService;
  /** The UI configuration and instance statistics. */
  readonly instance: InstanceService;
  /** Strategy definitions and feature types with their lifetimes. */
  readonly definitions: DefinitionService;
  /** Applications SDKs registered, feature usage, unknown flags. */
  readonly applications: ApplicationViews;
  readonly playground: PlaygroundService;
  readonly client: ClientService;
  /** Who may do and see what: every operation above asks it with its caller. */
  readonly policy: Policy;
  readonly store: Store;
  /** Flushes pending metrics, stops background work (addon delivery, SDK streams) and closes the store. */
  close(): Promise<void>;
}

/** Creates Flagstaff over a store: seeds a new instance (default project and environments) once. */
export async function createFlagstaff(options: FlagstaffOptions): Promise<Flagstaff> {
  const maintenance = createMaintenanceState(options.store);
  const deps: ServiceDeps = {
    store: options.store,
    clock: options.clock ?? systemClock,
    ids: options.ids ?? cryptoIds,
    logger: options.logger ?? silentLogger,
    policy: createPolicy(options.store, { writesRefused: maintenance.isOn }),
  };
  await seedInstance(deps);
  const scheduler = createChangeRequestScheduler(deps, options.changeRequestSchedule);
  const services = createServices(deps, options, maintenance, scheduler);
  scheduler.start();
  // Rows written before sensitive parameters were sealed get sealed now, not on their next edit.
  await services.addons.sealStoredSecrets().then(
    (sealed) =>
      sealed > 0 && deps.logger.info('sealed sensitive addon parameters stored in clear', { sealed }),
    (error: unknown) =>
      deps.logger.warn('could not seal addon parameters stored in clear', { error: String(error) }),
  );
  return {
    ...services,
    policy: deps.policy,
    store: options.store,
    async close() {
      // Metrics first: they need the store, and a failure must not keep the store open.
      await services.metrics.stop().catch((error: unknown) =>
        deps.logger.error('pending metrics were lost at close', {
          error: error instanceof Error ? error.message : String(error),
        }),
      );
      await services.addons.stop();
      await scheduler.stop();
      // Streams end before the store goes: they would otherwise read a closed store.
      services.client.shutdown();
      await options.store.close();
    },
  };
}
