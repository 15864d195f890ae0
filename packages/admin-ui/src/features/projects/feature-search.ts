import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import type { FeatureSearchItem, FeatureSearchQuery } from '../../api/pending-paths';
import type { FeatureView } from '../../api/types';
import { projectKeys } from './api';

export interface FeatureFilters {
  query: string;
  type: string;
  tag: string;
  state: '' | 'stale' | 'active';
  lifecycle: string;
  enabledSomewhere: boolean;
  sortBy: 'name' | 'createdAt' | 'type';
  sortOrder: 'asc' | 'desc';
  offset: number;
  limit: number;
}

export const defaultFilters: FeatureFilters = {
  query: '',
  type: '',
  tag: '',
  state: '',
  lifecycle: '',
  enabledSomewhere: false,
  sortBy: 'createdAt',
  sortOrder: 'desc',
  offset: 0,
  limit: 25,
};

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

// TEMPORARY FALLBACK (remove at merge, once GET /api/admin/search/features exists): the project's
// whole feature list, filtered, sorted and paged here with the same meaning as the search params.
function searchLocally(
  features: FeatureView[],
  f: FeatureFilters,
): { features: FeatureSearchItem[]; total: number } {
  const text = f.query.toLowerCase();
  const matches = features.filter(
    (x) =>
      (!text ||
        x.name.toLowerCase().includes(text) ||
        (x.description ?? '').toLowerCase().includes(text) ||
        x.tags.some((t) => `${t.type}:${t.value}`.toLowerCase().includes(text))) &&
      (!f.type || x.type === f.type) &&
      (!f.tag || x.tags.some((t) => `${t.type}:${t.value}` === f.tag)) &&
      (!f.state || (f.state === 'stale') === x.stale) &&
      (!f.lifecycle || x.lifecycle.stage === f.lifecycle) &&
      (!f.enabledSomewhere || x.environments.some((e) => e.enabled)),
  );
  const dir = f.sortOrder === 'asc' ? 1 : -1;
  matches.sort((a, b) => dir * String(a[f.sortBy] ?? '').localeCompare(String(b[f.sortBy] ?? '')));
  return { features: matches.slice(f.offset, f.offset + f.limit), total: matches.length };
}

async function searchFeatures(projectId: string, f: FeatureFilters, environments: readonly string[]) {
  const result = await api.GET('/api/admin/search/features', {
    params: { query: searchParams(projectId, f, environments) },
  });
  if (result.response.status !== 404)
    return unwrap<{ features: FeatureSearchItem[]; total: number }>(Promise.resolve(result));
  const all = await unwrap<{ features: FeatureView[] }>(
    api.GET('/api/admin/projects/{projectId}/features', { params: { path: { projectId } } }),
  );
  return searchLocally(all.features, f);
}

/** One page of a project's features, searched, filtered and sorted by the server. */
export const useFeatureSearch = (
  projectId: string,
  filters: FeatureFilters,
  environments: readonly string[],
) =>
  useQuery({
    queryKey: [...projectKeys.features(projectId), filters, environments],
    queryFn: () => searchFeatures(projectId, filters, environments),
    placeholderData: keepPreviousData,
  });
