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
export type { AccountService, AdminBootstrap } from './services/access/account-service.js';
export * from './services/access/api-token-operations.js';
export { type EdgeService, type EdgeToken, edgeValidateSchema } from './services/access/edge-service.js';
export type { LoginThrottleOptions } from './services/access/login-throttle.js';
export { DEFAULT_LOGIN_THROTTLE } from './services/access/login-throttle.js';
export {
  type PasswordResetService,
  passwordCheckSchema,
  resetLinkSchema,
  resetWithTokenSchema,
} from './services/access/password-reset.js';
export type { PersonalTokenService } from './services/access/personal-token-service.js';
export type { SessionOptions, SessionService } from './services/access/session-service.js';
export { DEFAULT_SESSION_IDLE_TTL_MS, hashSessionId } from './services/access/session-service.js';
export { inactiveDeleteSchema, type UserDirectory } from './services/access/user-directory.js';
export {
  type CatalogExtras,
  environmentSortOrderSchema,
  eventSearchQuerySchema,
  strategySegmentsSchema,
} from './services/catalog-extras.js';
export type { ScheduleOptions, ScheduleRun } from './services/change-requests/change-request-scheduler.js';
export type {
  ChangeRequestView,
  ChangeView,
  ParticipantView,
} from './services/change-requests/change-request-view.js';
export type { RevertChange, RevertResult } from './services/change-requests/revert.js';
export type { Actor } from './services/deps.js';
export { SYSTEM_ACTOR } from './services/deps.js';
export * from './services/events/event-operations.js';
export {
  type DefinitionService,
  featureTypeLifetimeSchema,
  type StrategyDefinition,
  strategyDefinitionSchema,
} from './services/features/definitions.js';
export {
  cloneFeatureSchema,
  completeFeatureSchema,
  type FeatureExtras,
  validateConstraintSchema,
} from './services/features/feature-extras.js';
export type { FeatureLinkService } from './services/features/feature-links.js';
export type { FeatureSearchService } from './services/features/feature-search-service.js';
export {
  type ImportBody,
  type ImportIssue,
  type ImportValidation,
  importBodySchema,
} from './services/features/import-schema.js';
export type { ImportService } from './services/features/import-service.js';
export { isPotentiallyStale, type Lifetimes } from './services/insights/health.js';
export * from './services/insights/insights-operations.js';
export type { ProjectViews } from './services/insights/project-views.js';
export {
  deliveryLogQuerySchema,
  deliveryQueueQuerySchema,
  type IntegrationEvent,
  type QueuedDeliveryView,
} from './services/integrations/addon-delivery-views.js';
export type { AddonServiceOptions, AddonView, CreatedAddon } from './services/integrations/addon-service.js';
export { signatureOf as webhookSignature } from './services/integrations/addon-signing.js';
export {
  createOutboundPolicy,
  type OutboundPolicy,
  parseAllowedHosts,
} from './services/integrations/outbound-policy.js';
export * from './services/integrations/signal-action-sets.js';
export * from './services/integrations/signal-operations.js';
export type { BackupService } from './services/operations/backup-service.js';
export type { HealthService } from './services/operations/health-service.js';
export { frontendOriginsSchema, type InstanceViews } from './services/operations/instance-views.js';
export {
  MAINTENANCE_SETTING,
  type MaintenanceService,
  maintenanceInputSchema,
} from './services/operations/maintenance.js';
export type { ProjectContextFields } from './services/projects/project-context-fields.js';
export {
  DEFAULT_PLAYGROUND_LIMITS,
  type PlaygroundLimits,
} from './services/sdk/advanced-playground.js';
export * from './services/sdk/application-operations.js';
export type { ApplicationViews } from './services/sdk/application-views.js';
export type {
  ClientCacheOptions,
  ClientFeaturesQuery,
  ClientScope,
  DeltaAnswer,
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
