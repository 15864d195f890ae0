import type { ProjectVisibility } from '../../auth/principal.js';
import { seesProject } from '../../auth/principal.js';
import type { FeatureView } from '../../domain/feature.js';
import type { ReadRepositories } from '../../ports/store.js';
import { buildFeatureViews } from './feature-view.js';

/** Features read and assembled at a time: a few megabytes of views at most. */
export const FEATURE_VIEW_PAGE = 1000;

/**
 * The live features of a project as views, by name, one page after another: each page is read by
 * name after the last one's (an index walk, however deep) and assembled with a fixed number of reads,
 * so a 50,000-feature project is never held in memory at once. Pages are read as they are asked for;
 * a feature created or archived meanwhile shows up or not as the page that would hold it is read.
 */
export async function* featureViewPages(
  repos: ReadRepositories,
  project: string,
  visibility: ProjectVisibility,
  userId: number | null,
  pageSize = FEATURE_VIEW_PAGE,
): AsyncGenerator<FeatureView[]> {
  if (!seesProject(visibility, project)) return;
  let after: string | undefined;
  for (;;) {
    const page = await repos.features.list({ project, archived: false, after, limit: pageSize });
    if (page.length > 0) yield await buildFeatureViews(repos, page, { userId });
    if (page.length < pageSize) return;
    after = page.at(-1)!.name;
  }
}
