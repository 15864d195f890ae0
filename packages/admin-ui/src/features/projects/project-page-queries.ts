import type { QueryClient } from '@tanstack/react-query';
import { getProjectQueryOptions, projectEnvironmentsQueryOptions } from './api';
import { defaultFilters, featureSearchQueryOptions } from './feature-search';

/**
 * Starts what the project page asks for when it opens (the project, its environments, the first page
 * of features with the default filters), under the keys the page's own queries use: opened from its
 * address, these start as the app's code starts, and the page finds them answered or under way.
 */
export function prefetchProjectPage(client: QueryClient, projectId: string): void {
  void client.prefetchQuery(getProjectQueryOptions(projectId));
  void client.prefetchQuery(projectEnvironmentsQueryOptions(projectId));
  void client.prefetchQuery(featureSearchQueryOptions(projectId, defaultFilters, []));
}
