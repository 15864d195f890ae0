import type { ProjectVisibility } from '../auth/principal.js';
import type { Dependency, FeatureEnvironmentRecord, FeatureRecord } from '../domain/feature.js';
import type { FeatureSearchQuery } from '../domain/feature-search.js';
import type { FeatureStrategy } from '../domain/strategy.js';
import type { FeatureTag, Tag, TagType } from '../domain/tag.js';

export interface FeatureFilter {
  project?: string | undefined;
  /** true: only archived; false: only live; undefined: both. */
  archived?: boolean | undefined;
  names?: readonly string[] | undefined;
  /** Only features whose name sorts after this one: the next page after a page that ended with it. */
  after?: string | undefined;
  /** At most this many (the first by name): with `after`, reads a large list page by page. */
  limit?: number | undefined;
}

/** Features. Names are unique across projects and the archive. */
export interface FeatureRepository {
  /** Features matching the filter, ordered by name. */
  list(filter?: FeatureFilter): Promise<FeatureRecord[]>;
  get(name: string): Promise<FeatureRecord | null>;
  /**
   * Inserts a new feature with a row, switched off and without variants, in each of `environments`
   * (a new feature starts off everywhere its project is used). CONFLICT when the name exists (live
   * or archived).
   */
  insert(feature: FeatureRecord, environments?: readonly string[]): Promise<void>;
  /** Replaces every field of the named feature; returns false when it does not exist. */
  update(feature: FeatureRecord): Promise<boolean>;
  /** Deletes the feature and, by cascade, its environments, strategies, tags, dependencies and favorites. */
  delete(name: string): Promise<boolean>;
  /** Number of non-archived features in the project. */
  countLive(project: string): Promise<number>;
}

/** Per-environment state of features. */
export interface FeatureEnvironmentRepository {
  get(featureName: string, environment: string): Promise<FeatureEnvironmentRecord | null>;
  /** Rows of one feature, ordered by environment name. */
  listForFeature(featureName: string): Promise<FeatureEnvironmentRecord[]>;
  /** Rows of many features in one call (any order). */
  listForFeatures(featureNames: readonly string[]): Promise<FeatureEnvironmentRecord[]>;
  /** Inserts or replaces the row for (featureName, environment). */
  upsert(row: FeatureEnvironmentRecord): Promise<void>;
  delete(featureName: string, environment: string): Promise<boolean>;
  /**
   * How many live features of the project are enabled in each environment (environments with none
   * left out): counted by the store, not by reading every feature of a large project.
   */
  countEnabled(project: string): Promise<Record<string, number>>;
  /** Stamps lastSeenAt on existing rows (metrics); unknown pairs are ignored. */
  markSeen(pairs: readonly { featureName: string; environment: string }[], at: string): Promise<void>;
}

export interface StrategyFilter {
  featureName?: string | undefined;
  featureNames?: readonly string[] | undefined;
  environment?: string | undefined;
  projectId?: string | undefined;
  segmentId?: number | undefined;
}

/** A strategy to insert: without a sortOrder, it goes after the others of its feature environment. */
export type NewStrategy = Omit<FeatureStrategy, 'sortOrder'> & { sortOrder?: number | undefined };

/** Strategies of features in environments, each with its segment ids. */
export interface StrategyRepository {
  /** Matching strategies ordered by featureName, environment, sortOrder, createdAt, id. */
  list(filter: StrategyFilter): Promise<FeatureStrategy[]>;
  get(id: string): Promise<FeatureStrategy | null>;
  /**
   * Inserts the strategy and its segment links and returns its sortOrder: the given one, or, when
   * none is given, one past the highest in its feature environment (0 when none), so it runs last.
   * CONFLICT on a duplicate id.
   */
  insert(strategy: NewStrategy): Promise<number>;
  /** Replaces the strategy (and its segment links); false when the id is unknown. */
  update(strategy: FeatureStrategy): Promise<boolean>;
  delete(id: string): Promise<boolean>;
  /** Deletes every strategy of a feature in an environment; returns how many. */
  deleteForFeatureEnvironment(featureName: string, environment: string): Promise<number>;
}

/** Tag types, tags and feature tags. */
export interface TagRepository {
  listTypes(): Promise<TagType[]>;
  getType(name: string): Promise<TagType | null>;
  /** CONFLICT when the name exists. */
  insertType(type: TagType): Promise<void>;
  updateType(type: TagType): Promise<boolean>;
  /** Deletes the type and every tag of it. */
  deleteType(name: string): Promise<boolean>;
  /** All tags, ordered by type then value. */
  listTags(type?: string): Promise<Tag[]>;
  /** Creates the tag if missing; returns true when it was created. */
  ensureTag(tag: Tag): Promise<boolean>;
  deleteTag(tag: Tag): Promise<boolean>;
  /** Tags of the given features (all when omitted), ordered by feature, type, value. */
  listFeatureTags(featureNames?: readonly string[]): Promise<FeatureTag[]>;
  /** Adds the tag to the feature; returns false when it was already there. The tag must exist. */
  addFeatureTag(featureName: string, tag: Tag): Promise<boolean>;
  removeFeatureTag(featureName: string, tag: Tag): Promise<boolean>;
  /** Names of features carrying the tag. */
  featuresWithTag(tag: Tag): Promise<string[]>;
}

export interface DependencyRecord extends Dependency {
  child: string;
}

/** Parent dependencies of features. */
export interface DependencyRepository {
  /** All dependencies, or those of the given children; ordered by child then parent. */
  list(children?: readonly string[]): Promise<DependencyRecord[]>;
  /** Dependencies whose parent is one of the given features. */
  listByParents(parents: readonly string[]): Promise<DependencyRecord[]>;
  /** Inserts or replaces the (child, parent) link. */
  upsert(dependency: DependencyRecord): Promise<void>;
  delete(child: string, parent: string): Promise<boolean>;
  /** Deletes every dependency of the child; returns how many. */
  deleteAll(child: string): Promise<number>;
}

/** Per-user favorites. */
export interface FavoriteRepository {
  list(userId: number): Promise<{ features: string[]; projects: string[] }>;
  set(userId: number, kind: 'feature' | 'project', name: string, favorite: boolean): Promise<boolean>;
}

/**
 * The admin UI's feature table: filtering, ordering and paging of features in one query, so a page
 * costs the same at 10 features or 10,000.
 */
export interface FeatureSearchRepository {
  /**
   * The page of features matching every filter of the query, among projects the visibility
   * includes, and how many match in all. Ordered by the query's sort (lastSeenAt: the latest of
   * the feature's environments, features never seen last in either order; environment: disabled
   * before enabled in that environment), ties broken by name ascending.
   *
   * `knownTotal`: how many match, as the caller counted before for the same filters with nothing
   * written since; the store then answers it as the total instead of counting again (counting every
   * match is what grows with the table: the page itself is read in index order and stops early).
   */
  search(
    query: FeatureSearchQuery,
    visibility: ProjectVisibility,
    options?: { knownTotal?: number | undefined },
  ): Promise<{ features: FeatureRecord[]; total: number }>;
}
