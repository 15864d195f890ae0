import type { FeatureRecord } from '../domain/feature.js';
import type { Tag } from '../domain/tag.js';
import type { LinkedEnvironment } from './project-ports.js';

/** A feature with its tags, ordered by type then value: every feature event carries them. */
export interface FeatureWithTags {
  feature: FeatureRecord;
  tags: Tag[];
}

/** A feature with its tags and its project's link to one environment (null when not linked). */
export interface FeatureInEnvironment extends FeatureWithTags {
  linked: LinkedEnvironment | null;
}

/**
 * The read models of the write side: what a command reads before it writes, each in one read.
 * Every other repository holds one domain concept; a command that needs rows of several asks here,
 * so the joins that keep commands fast sit in one place per store instead of widening those ports.
 */
export interface CommandReadRepository {
  /** Commands on a whole feature (tags, links, lifecycle, variants): the feature and its tags; null when unknown. */
  feature(name: string): Promise<FeatureWithTags | null>;
  /**
   * Commands on a feature in one environment (strategies, the switch, variants there): the feature,
   * its tags and its project's link to the environment; null when the feature is unknown.
   */
  featureInEnvironment(name: string, environment: string): Promise<FeatureInEnvironment | null>;
  /** Commands on a project's environment: the environment and the project's link; null when either is missing. */
  projectEnvironment(projectId: string, environment: string): Promise<LinkedEnvironment | null>;
  /** Creating a feature: every environment the project uses, with its link, by sortOrder then name. */
  projectEnvironments(projectId: string): Promise<LinkedEnvironment[]>;
}
