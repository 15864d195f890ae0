import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import type { FeatureSearchQuery } from '../../api/types';
import { answerOf } from '../../lib/api-answer';
import { projectKeys } from './api';
import type { FeatureFilters } from './default-filters';

export { defaultFilters, type FeatureFilters } from './default-filters';

/** The filters in Unleash's `searchFeatures` query syntax. */
function searchParams(
  projectId: string,
  f: FeatureFilters,
  environments: readonly string[],
): FeatureSearchQuery {
  const q: FeatureSearchQuery = {
    project: `IS:${projectId}`,
    sortBy: f.sortBy,
    sortOrder: f.sortOrder,
    offset: f.offset,
    limit: f.limit,
  };
  if (f.query) q.query = f.query;
  if (f.type) q.type = `IS:${f.type}`;
  if (f.tag) q.tag = `INCLUDE:${f.tag}`;
  if (f.state) q.state = `IS:${f.state}`;
  if (f.lifecycle) q.lifecycle = `IS:${f.lifecycle}`;
  if (f.enabledSomewhere && environments.length)
    q.status = `IS_ANY_OF:${environments.map((e) => `${e}:enabled`).join(',')}`;
  return q;
}

/**
 * How long typing must pause before the search box's text is searched (`typingPause`): twice the
 * typist's rhythm, so a word typed at speed is one request, but at least `min` and at most `max`:
 * at 30-40 ms a key the search goes out ~70 ms after the last one (it was a fixed 100 ms).
 */
export const SEARCH_PAUSE_MS = { min: 50, max: 100 } as const;

/**
 * One page of a project's features, searched, filtered and sorted by the server. The project's
 * environments matter only to "enabled somewhere": they are in the query (and waited for) only then,
 * so the first page is asked for once, not again when the environments arrive. A request a newer one
 * replaces is aborted.
 */
export function useFeatureSearch(
  projectId: string,
  filters: FeatureFilters,
  environments: readonly string[],
) {
  return useQuery(featureSearchQueryOptions(projectId, filters, environments));
}

/** `features.search` of one project with the table's filters (see `useFeatureSearch`). */
export function featureSearchQueryOptions(
  projectId: string,
  filters: FeatureFilters,
  environments: readonly string[],
) {
  const envs = filters.enabledSomewhere ? environments : [];
  return queryOptions({
    queryKey: [...projectKeys.features(projectId), filters, envs],
    queryFn: ({ signal }) =>
      answerOf(
        api.GET('/api/admin/search/features', {
          params: { query: searchParams(projectId, filters, envs) },
          signal,
        }),
      ),
    enabled: !filters.enabledSomewhere || environments.length > 0,
    placeholderData: keepPreviousData,
  });
}
