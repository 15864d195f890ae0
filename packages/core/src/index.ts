export { createAddressRanges } from './auth/address-ranges.js';
export * from './auth/caller.js';
export { clientKey } from './auth/client-key.js';
export { createHashGate, DEFAULT_HASH_LIMITS, type HashGate, type HashLimits } from './auth/hash-gate.js';
export * from './auth/password.js';
export * from './auth/permissions.js';
export { type Audience, createPolicy, type PermissionScope, type Policy } from './auth/policy.js';
export * from './auth/principal.js';
export * from './domain/index.js';
export * from './errors.js';
export * from './evaluation/index.js';
export type { Flagstaff, FlagstaffOptions } from './flagstaff.js';
export { createFlagstaff } from './flagstaff.js';
export * from './memory/index.js';
export {
  type AnyOperation,
  type CommandContext,
  defineOperation,
  type Operation,
  type OperationContext,
  type OperationDeps,
  type OperationInput,
  type OperationKind,
  type OperationOutput,
  type PermissionInput,
  type PermissionRule,
} from './operations/define-operation.js';
export { createOperationRunner, type OperationRunner } from './operations/run-operation.js';
export * from './ports/index.js';
export { hashSecret } from './services/access/access-service.js';
export * from './services/access/account-operations.js';
export type { AccountService, AdminBootstrap } from './services/access/account-service.js';
export * from './services/access/api-token-operations.js';
export { type EdgeService, validateEdgeTokens } from './services/access/edge-operations.js';
export * from './services/access/group-operations.js';
export type { LoginThrottleOptions } from './services/access/login-throttle.js';
export { DEFAULT_LOGIN_THROTTLE } from './services/access/login-throttle.js';
export type { PasswordResetService } from './services/access/password-reset.js';
export * from './services/access/password-reset-operations.js';
export * from './services/access/personal-token-operations.js';
export type { PersonalTokenService } from './services/access/personal-token-service.js';
export * from './services/access/project-access-operations.js';
export { hashSessionId } from './services/access/session-ids.js';
export * from './services/access/session-operations.js';
export { DEFAULT_SESSION_IDLE_TTL_MS, type SessionOptions } from './services/access/session-runtime.js';
export type { SessionService } from './services/access/session-service.js';
export * from './services/access/signup-token-operations.js';
export { inactiveDeleteSchema, type UserDirectory } from './services/access/user-directory.js';
export * from './services/access/user-directory-operations.js';
export * from './services/access/user-operations.js';
export type { CatalogCompat } from './services/catalog-compat.js';
export * from './services/change-requests/change-request-commands.js';
export * from './services/change-requests/change-request-config.js';
export * from './services/change-requests/change-request-reads.js';
export type { ScheduleOptions, ScheduleRun } from './services/change-requests/change-request-scheduler.js';
export * from './services/change-requests/change-request-state-change.js';
export type {
  ChangeRequestView,
  ChangeView,
  ParticipantView,
} from './services/change-requests/change-request-view.js';
export {
  applyRevertChange,
  type RevertChange,
  type RevertResult,
  revertEvent,
} from './services/change-requests/revert.js';
export type { Actor } from './services/deps.js';
export { SYSTEM_ACTOR } from './services/deps.js';
export * from './services/events/event-operations.js';
export * from './services/events/event-search-operations.js';
export * from './services/features/constraint-operations.js';
export * from './services/features/definition-operations.js';
export type { DefinitionService, StrategyDefinitionInput } from './services/features/definitions.js';
export * from './services/features/dependency-operations.js';
export * from './services/features/feature-archive-operations.js';
export * from './services/features/feature-clone-operations.js';
export * from './services/features/feature-environment-operations.js';
export * from './services/features/feature-lifecycle-operations.js';
export * from './services/features/feature-link-operations.js';
export type { FeatureLinkService } from './services/features/feature-links.js';
export * from './services/features/feature-operations.js';
export * from './services/features/feature-read-operations.js';
export {
  type FeatureSearchService,
  searchFeatures,
} from './services/features/feature-search-service.js';
export type { FeatureExtras } from './services/features/feature-service.js';
export {
  type ImportService,
  importFeatures,
  validateFeatureImport,
} from './services/features/import-operations.js';
export * from './services/features/strategy-copy-operations.js';
export * from './services/features/strategy-operations.js';
export * from './services/features/tag-operations.js';
export { type ExportService, exportFeatures } from './services/insights/export-operations.js';
export { isPotentiallyStale, type Lifetimes } from './services/insights/health.js';
export * from './services/insights/insights-operations.js';
export * from './services/integrations/addon-delivery-views.js';
export * from './services/integrations/addon-operations.js';
export type { AddonRuntime, AddonServiceOptions } from './services/integrations/addon-runtime.js';
export { signatureOf as webhookSignature } from './services/integrations/addon-signing.js';
export {
  createOutboundPolicy,
  type OutboundPolicy,
  parseAllowedHosts,
} from './services/integrations/outbound-policy.js';
export * from './services/integrations/signal-action-sets.js';
export * from './services/integrations/signal-operations.js';
export { receiveSignal } from './services/integrations/signal-receipt.js';
export { type BackupService, createBackup } from './services/operations/backup-service.js';
export { setFrontendOrigins } from './services/operations/frontend-origins.js';
export { checkHealth, checkReady, type HealthService } from './services/operations/health-service.js';
export type { InstanceService } from './services/operations/instance-service.js';
export type { InstanceState } from './services/operations/instance-state.js';
export {
  getInstanceStatistics,
  getInstanceStatisticsCsv,
  statisticsCsv,
} from './services/operations/instance-statistics.js';
export {
  getMaintenanceMode,
  MAINTENANCE_SETTING,
  type MaintenanceService,
  setMaintenanceMode,
} from './services/operations/maintenance.js';
export { FLAGSTAFF_VERSION, getUiConfig } from './services/operations/ui-config.js';
export * from './services/projects/context-field-operations.js';
export * from './services/projects/environment-operations.js';
export * from './services/projects/environment-order-operations.js';
export * from './services/projects/project-context-field-operations.js';
export type { ProjectContextFields } from './services/projects/project-context-fields.js';
export * from './services/projects/project-environment-operations.js';
export * from './services/projects/project-operations.js';
export * from './services/projects/project-status-operations.js';
export type { ProjectViews } from './services/projects/project-views.js';
export * from './services/projects/segment-operations.js';
export * from './services/projects/segment-strategy-operations.js';
export {
  DEFAULT_PLAYGROUND_LIMITS,
  type PlaygroundLimits,
} from './services/sdk/advanced-playground.js';
export * from './services/sdk/application-operations.js';
export type { ApplicationViews } from './services/sdk/application-views.js';
export { etagMatches } from './services/sdk/client-etag.js';
export type {
  ClientCacheOptions,
  ClientFeaturesQuery,
  ClientScope,
  DeltaAnswer,
  FeaturesAnswer,
  PayloadEncoding,
  PreparedPayload,
} from './services/sdk/client-service.js';
export type { MetricsOptions, SdkAudience } from './services/sdk/metrics-service.js';
export {
  type OfrepBulk,
  type OfrepEvaluation,
  type OfrepFailure,
  type OfrepReason,
  type OfrepService,
  ofrepAudience,
} from './services/sdk/ofrep-service.js';
export * from './services/sdk/playground-operations.js';
