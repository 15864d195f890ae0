import type { FeatureRecord } from '../../domain/feature.js';
import { notFound } from '../../errors.js';
import type { FeatureWithTags } from '../../ports/command-read-ports.js';
import type { LinkedEnvironment } from '../../ports/project-ports.js';
import type { ReadRepositories } from '../../ports/store.js';
import { missingProjectEnvironment, requireProject } from '../projects/project-service.js';

/** The NOT_FOUND for a feature missing from the project (or the project's own, when that is missing). */
async function missingFeature(repos: ReadRepositories, project: string | null, name: string): Promise<never> {
  if (project !== null) await requireProject(repos, project);
  throw notFound('feature', name);
}

const belongs = (feature: FeatureRecord, project: string | null, archived = false): boolean =>
  (project === null || feature.project === project) && (archived || feature.archivedAt === null);

/** Loads a feature (live unless `archived` is allowed) of the project, or throws NOT_FOUND. */
export async function requireFeature(
  repos: ReadRepositories,
  project: string | null,
  name: string,
  opts: { archived?: boolean } = {},
): Promise<FeatureRecord> {
  const feature = await repos.features.get(name);
  if (!feature || !belongs(feature, project, opts.archived)) return missingFeature(repos, project, name);
  return feature;
}

/**
 * What a command on a whole feature reads before it writes: the feature (live unless `archived` is
 * allowed) of the project with its tags, which its events carry; NOT_FOUND otherwise.
 */
export async function requireFeatureWithTags(
  repos: ReadRepositories,
  project: string | null,
  name: string,
  opts: { archived?: boolean } = {},
): Promise<FeatureWithTags> {
  const found = await repos.commandReads.feature(name);
  if (!found || !belongs(found.feature, project, opts.archived)) return missingFeature(repos, project, name);
  return found;
}

/**
 * What a command on a live feature in one environment reads before it writes, in one read: the
 * feature with its tags, and the environment with the project's link to it. NOT_FOUND names the
 * feature first, then the environment.
 */
export async function requireFeatureIn(
  repos: ReadRepositories,
  project: string,
  name: string,
  environment: string,
): Promise<FeatureWithTags & LinkedEnvironment> {
  const found = await repos.commandReads.featureInEnvironment(name, environment);
  if (!found || !belongs(found.feature, project)) return missingFeature(repos, project, name);
  if (!found.linked) return missingProjectEnvironment(repos, project, environment);
  return { feature: found.feature, tags: found.tags, ...found.linked };
}
