import type { ColumnType, Generated, RawBuilder } from 'kysely';
import type {
  ActionSetTable,
  AddonAttemptTable,
  AddonDeliveryTable,
  AddonQueueTable,
  AddonSecretTable,
  AddonTable,
  ApiTokenTable,
  ChangeRequestSettingTable,
  ChangeRequestTable,
  ClientApplicationTable,
  ClientMetricsTable,
  ClientMetricsVariantTable,
  FeatureLinkTable,
  GroupTable,
  GroupUserTable,
  LoginThrottleTable,
  PersonalAccessTokenTable,
  ProjectRoleTable,
  RoleTable,
  SessionTable,
  SettingTable,
  SignalEndpointTable,
  SignalEndpointTokenTable,
  SignalTable,
  SignupTokenTable,
  SignupTokenUserTable,
  UnknownFlagTable,
  UserTable,
} from './access-tables.js';
import type {
  ContextFieldTable,
  DependencyTable,
  EnvironmentTable,
  EventCreatorTable,
  EventTable,
  FavoriteTable,
  FeatureEnvironmentTable,
  FeatureStrategyTable,
  FeatureTable,
  FeatureTagTable,
  ProjectEnvironmentTable,
  ProjectTable,
  SegmentTable,
  StrategySegmentTable,
  TagTable,
  TagTypeTable,
} from './feature-tables.js';

export type * from './access-tables.js';
export type * from './feature-tables.js';

declare const jsonBrand: unique symbol;
/** What a JSON write evaluates to, for `sql<JsonValue>` in a dialect's `json`. */
export interface JsonValue {
  readonly [jsonBrand]: true;
}
/** A JSON value prepared for writing by `SqlDialect.json` (text on SQLite, jsonb on PostgreSQL). */
export type JsonWrite = RawBuilder<JsonValue>;
/** JSON columns read back as text (SQLite) or parsed (PostgreSQL); `SqlDialect.parseJson` evens it out. */
export type Json = ColumnType<unknown, JsonWrite, JsonWrite>;
export type NullableJson = ColumnType<unknown, JsonWrite | null, JsonWrite | null>;
/** SQLite returns 0/1, PostgreSQL true/false; read through `Boolean`. */
export type Bool = ColumnType<number | boolean, boolean, boolean>;
/** PostgreSQL returns int8 and counts as strings; read through `Number`. */
export type BigId = ColumnType<number | string | bigint, never, never>;
/** 64-bit counters (PostgreSQL returns bigint as text). */
export type Count = ColumnType<number | string, number, number>;
/** Store-assigned integer ids. */
export type Serial = Generated<number>;

/** Every table the shared queries use (dialect-only objects such as the SQLite FTS table are not here). */
export interface Database {
  projects: ProjectTable;
  environments: EnvironmentTable;
  project_environments: ProjectEnvironmentTable;
  features: FeatureTable;
  feature_environments: FeatureEnvironmentTable;
  feature_strategies: FeatureStrategyTable;
  strategy_segments: StrategySegmentTable;
  segments: SegmentTable;
  context_fields: ContextFieldTable;
  tag_types: TagTypeTable;
  tags: TagTable;
  feature_tags: FeatureTagTable;
  dependencies: DependencyTable;
  favorites: FavoriteTable;
  events: EventTable;
  event_creators: EventCreatorTable;
  addons: AddonTable;
  addon_delivery: AddonDeliveryTable;
  addon_queue: AddonQueueTable;
  addon_attempts: AddonAttemptTable;
  addon_secrets: AddonSecretTable;
  settings: SettingTable;
  personal_access_tokens: PersonalAccessTokenTable;
  feature_links: FeatureLinkTable;
  change_request_settings: ChangeRequestSettingTable;
  change_requests: ChangeRequestTable;
  api_tokens: ApiTokenTable;
  users: UserTable;
  roles: RoleTable;
  user_groups: GroupTable;
  group_users: GroupUserTable;
  project_roles: ProjectRoleTable;
  signup_tokens: SignupTokenTable;
  signup_token_users: SignupTokenUserTable;
  signal_endpoints: SignalEndpointTable;
  signal_endpoint_tokens: SignalEndpointTokenTable;
  signals: SignalTable;
  action_sets: ActionSetTable;
  client_metrics: ClientMetricsTable;
  client_metrics_variants: ClientMetricsVariantTable;
  client_applications: ClientApplicationTable;
  sessions: SessionTable;
  login_throttles: LoginThrottleTable;
  unknown_flags: UnknownFlagTable;
}
