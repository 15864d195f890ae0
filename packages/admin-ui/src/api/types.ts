// Narrow local response types for routes whose OpenAPI response schema is loose: built from the
// core domain types, never with fields the server does not send.
import type { FlagstaffEvent, Project } from '@flagstaff/core';

export type {
  Addon,
  AddonProviderDefinition,
  AddonView,
  ApiTokenView,
  ChangeRequestView,
  ChangeView,
  Constraint,
  ConstraintOperator,
  ContextField,
  CreatedAddon,
  Dependency,
  DoraMetrics,
  Environment,
  FeatureEnvironmentView,
  FeatureStrategy,
  FeatureView,
  FlagstaffEvent,
  InstanceInsights,
  IntegrationEvent,
  Payload,
  PlaygroundFeature,
  PlaygroundResponse,
  PlaygroundStrategy,
  Project,
  ProjectEnvironmentView,
  ProjectOverview,
  QueuedDeliveryView,
  Role,
  Segment,
  SignalEndpoint,
  SignupTokenView,
  StrategyVariant,
  Tag,
  TagType,
  UserView,
  Variant,
} from '@flagstaff/core';

export interface ProjectList {
  version: number;
  projects: Project[];
}

export interface EventPage {
  version: number;
  events: FlagstaffEvent[];
  totalEvents?: number;
}
