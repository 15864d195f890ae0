import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { answerOf } from '../../../lib/api-answer';

export const featureKey = (projectId: string, name: string) => ['features', projectId, name] as const;

/** `features.get`: one feature with its environments, strategies, dependencies and links. */
export const featureQueryOptions = (projectId: string, featureName: string) =>
  queryOptions({
    queryKey: featureKey(projectId, featureName),
    queryFn: () =>
      answerOf(
        api.GET('/api/admin/projects/{projectId}/features/{featureName}', {
          params: { path: { projectId, featureName } },
        }),
      ),
  });

/** `features.search` for the parent picker: the project's features matching `query`, by name. */
export const parentSearchQueryOptions = (project: string, query: string, limit: number) =>
  queryOptions({
    queryKey: ['parent-search', project, query],
    staleTime: 10_000,
    queryFn: () =>
      answerOf(
        api.GET('/api/admin/search/features', {
          params: {
            query: {
              project: `IS:${project}`,
              ...(query ? { query } : {}),
              sortBy: 'name',
              sortOrder: 'asc',
              limit,
            },
          },
        }),
      ),
  });
