import type { ColumnType, Generated, RawBuilder } from 'kysely';
import type { BigId, Bool, Json, NullableJson, Serial } from './database.js';

// Row types of projects, environments, features and the event log (see `Database`).

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
  /** The latest last_seen_at of its feature_environments rows (kept by that repository). */
  last_seen_at: Generated<string | null>;
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
  project: string | null;
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
