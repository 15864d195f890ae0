import type { ColumnType } from 'kysely';
import type { Bool, Count, Json, NullableJson, Serial } from './database.js';

// Row types of addons, tokens, users, groups, signals and metrics (see `Database`).

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

/**
 * One row (id 1): how far addon delivery has got through the event log, and who holds the delivery
 * lease until when (epoch ms). PostgreSQL returns the bigints as strings.
 */
export interface AddonDeliveryTable {
  id: number;
  delivered_through: ColumnType<number | string | null, number | null, number | null>;
  lease_holder: string | null;
  lease_expires_at: ColumnType<number | string | null, number | null, number | null>;
}

/** A stored epoch-ms instant; PostgreSQL returns bigints as strings. */
type Instant = ColumnType<number | string, number, number>;

/** One event queued for one addon (see `AddonDelivery`). */
export interface AddonQueueTable {
  addon_id: number;
  event_id: Instant;
  state: string;
  attempts: number;
  due_since: Instant;
  next_attempt_at: Instant;
  failing_since: ColumnType<number | string | null, number | null, number | null>;
  last_error: string | null;
}

/** The delivery log: one row per attempt. */
export interface AddonAttemptTable {
  id: Serial;
  addon_id: number;
  event_id: Instant;
  attempt: number;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  created_at: string;
}

/** A webhook's signing secrets (sealed when the server has a key). */
export interface AddonSecretTable {
  addon_id: number;
  current_secret: string;
  previous_secret: string | null;
  previous_expires_at: ColumnType<number | string | null, number | null, number | null>;
}

export interface SettingTable {
  name: string;
  value: Json;
}

export interface ChangeRequestSettingTable {
  project: string;
  environment: string;
  enabled: Bool;
  required_approvals: number;
}

export interface ChangeRequestTable {
  id: Serial;
  project: string;
  environment: string;
  state: string;
  created_by_user_id: number | null;
  due_at: string | null;
  document: Json;
}

export interface FeatureLinkTable {
  id: string;
  feature_name: string;
  url: string;
  title: string | null;
  created_at: string;
}

export interface PersonalAccessTokenTable {
  id: Serial;
  secret_hash: string;
  user_id: number;
  description: string;
  expires_at: string;
  created_at: string;
  seen_at: string | null;
}

export interface ApiTokenTable {
  secret_hash: string;
  display_secret: string;
  secret_ciphertext: string | null;
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

/** A login session; only the SHA-256 of the session id is kept. */
export interface SessionTable {
  id_hash: string;
  user_id: number;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  ip: string | null;
}

/** Failed logins of one lower-cased username. */
export interface LoginThrottleTable {
  username: string;
  failures: number;
  first_failure_at: string;
  last_failure_at: string;
  locked_until: string | null;
}

/** Feature names SDKs reported metrics for that no feature had, one row per name, app and environment. */
export interface UnknownFlagTable {
  name: string;
  app_name: string;
  environment: string;
  last_seen_at: string;
  /** last_seen_at as epoch milliseconds, so ordering and pruning compare instants. */
  last_seen_time: number | string;
}
