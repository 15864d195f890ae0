import type { ColumnType, Generated, RawBuilder } from 'kysely';

declare const jsonBrand: unique symbol;
/** A JSON value prepared for writing by `SqlDialect.json` (text on SQLite, jsonb on PostgreSQL). */
export type JsonWrite = RawBuilder<{ readonly [jsonBrand]: true }>;
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

export interface ProjectTable {
  id: string;
  name: string;
  description: string | null;
  mode: string;
  default_stickiness: string;
  feature_limit: number | null;
  feature_naming: Json;
  created_at: string;
  updated_at: string | null;
}

export interface EnvironmentTable {
  name: string;
  type: string;
  enabled: Bool;
  protected: Bool;
  sort_order: number;
  created_at: string;
}

export interface ProjectEnvironmentTable {
  project_id: string;
  environment: string;
  default_strategy: NullableJson;
}

export interface FeatureTable {
  name: string;
  project: string;
  type: string;
  description: string | null;
  stale: Bool;
  impression_data: Bool;
  created_at: string;
  archived_at: string | null;
  created_by_user_id: number | null;
  lifecycle_stage: string;
  entered_stage_at: string;
}

export interface FeatureEnvironmentTable {
  feature_name: string;
  environment: string;
  enabled: Bool;
  variants: Json;
  last_seen_at: string | null;
}

export interface FeatureStrategyTable {
  id: string;
  feature_name: string;
  project_id: string;
  environment: string;
  strategy_name: string;
  title: string | null;
  disabled: Bool;
  sort_order: number;
  parameters: Json;
  constraints: Json;
  variants: Json;
  created_at: string;
}

/** Segment links of a strategy: a set, handed back ascending. */
export interface StrategySegmentTable {
  strategy_id: string;
  segment_id: number;
}

export interface SegmentTable {
  id: Serial;
  name: string;
  description: string | null;
  project: string | null;
  constraints: Json;
  created_at: string;
  created_by: string | null;
}

export interface ContextFieldTable {
  name: string;
  description: string | null;
  stickiness: Bool;
  sort_order: number;
  legal_values: Json;
  created_at: string;
}

export interface TagTypeTable {
  name: string;
  description: string | null;
  icon: string | null;
}

export interface TagTable {
  type: string;
  value: string;
}

export interface FeatureTagTable {
  feature_name: string;
  tag_type: string;
  tag_value: string;
}

export interface DependencyTable {
  child: string;
  parent: string;
  enabled: Bool;
  variants: Json;
}

export interface FavoriteTable {
  user_id: number;
  kind: string;
  name: string;
}

export interface EventTable {
  id: BigId;
  type: string;
  created_at: string;
  /** createdAt as epoch milliseconds: the created-time filters compare instants, whatever the offset. */
  created_time: number | null;
  created_by: string;
  created_by_user_id: number | null;
  environment: string | null;
  project: string | null;
  feature_name: string | null;
  data: NullableJson;
  pre_data: NullableJson;
  tags: Json;
  /** PostgreSQL only: the tsvector of search terms (see `EventSearchIndex.rowValues`). */
  search: ColumnType<never, RawBuilder<unknown> | undefined, never>;
}

/** Distinct event creators, so substring search on the creator reads a small table, not the log. */
export interface EventCreatorTable {
  id: Serial;
  name: string;
}

export interface AddonTable {
  id: Serial;
  provider: string;
  description: string | null;
  enabled: Bool;
  parameters: Json;
  events: Json;
  projects: Json;
  environments: Json;
  created_at: string;
}

export interface ApiTokenTable {
  secret_hash: string;
  display_secret: string;
  token_name: string;
  type: string;
  environment: string;
  projects: Json;
  expires_at: string | null;
  created_at: string;
  seen_at: string | null;
  alias: string | null;
}

export interface UserTable {
  id: Serial;
  name: string | null;
  email: string | null;
  /** The e-mail lower-cased in JS (SQLite's lower() only folds ASCII): the unique, case-insensitive key. */
  email_lower: string | null;
  username: string | null;
  image_url: string | null;
  root_role: number;
  account_type: string;
  login_attempts: number;
  email_sent: Bool;
  seen_at: string | null;
  created_at: string;
  scim_id: string | null;
  password_hash: string | null;
}

export interface RoleTable {
  id: number;
  type: string;
  name: string;
  description: string;
  project: string | null;
}

export interface GroupTable {
  id: Serial;
  name: string;
  description: string | null;
  root_role: number | null;
  created_at: string;
  created_by: string | null;
}

export interface GroupUserTable {
  group_id: number;
  user_id: number;
  created_at: string;
}

export interface ProjectRoleTable {
  id: Serial;
  project_id: string;
  role_id: number;
  user_id: number | null;
  group_id: number | null;
  created_at: string;
}

export interface SignupTokenTable {
  secret: string;
  name: string;
  enabled: Bool;
  expires_at: string;
  created_at: string;
  created_by: string | null;
  role_id: number;
}

export interface SignupTokenUserTable {
  secret: string;
  user_id: number;
  created_at: string;
}

export interface SignalEndpointTable {
  id: Serial;
  name: string;
  description: string | null;
  enabled: Bool;
  created_at: string;
  created_by_user_id: number | null;
}

export interface SignalEndpointTokenTable {
  id: Serial;
  signal_endpoint_id: number;
  name: string;
  token_hash: string;
  created_at: string;
  created_by_user_id: number | null;
}

export interface SignalTable {
  id: Serial;
  source: string;
  source_id: number;
  payload: NullableJson;
  created_at: string;
  token_name: string | null;
}

export interface ActionSetTable {
  id: Serial;
  name: string;
  description: string | null;
  enabled: Bool;
  project: string;
  actor_id: number | null;
  match: Json;
  actions: Json;
  created_at: string;
}

export interface ClientMetricsTable {
  feature_name: string;
  app_name: string;
  environment: string;
  timestamp: string;
  /** The timestamp as epoch milliseconds, for `since` comparisons by instant. */
  time: number | null;
  yes: Count;
  no: Count;
}

/** Variant counts of a metrics bucket, one row per variant so adding up stays a single upsert. */
export interface ClientMetricsVariantTable {
  feature_name: string;
  app_name: string;
  environment: string;
  timestamp: string;
  variant: string;
  count: Count;
}

export interface ClientApplicationTable {
  app_name: string;
  instance_id: string;
  sdk_version: string | null;
  environment: string;
  strategies: Json;
  last_seen: string;
}

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
}
