import type { FeatureRecord } from '../../domain/feature.js';
import type { Tag } from '../../domain/tag.js';
import { notFound } from '../../errors.js';
import type { ReadRepositories } from '../../ports/store.js';
import { requireProject } from '../projects/project-service.js';

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

/** Like `requireFeature` for a live feature, with its tags from the same read (for feature events). */
export async function requireFeatureWithTags(
  repos: ReadRepositories,
  project: string,
  name: string,
): Promise<{ feature: FeatureRecord; tags: Tag[] }> {
  const found = await repos.features.getWithTags(name);
  if (!found || !belongs(found.feature, project)) return missingFeature(repos, project, name);
  return found;
}
