import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../api/client';
import type { paths } from '../../../api/schema';
import { answerOf } from '../../../lib/api-answer';

/** The filters changeRequests.search takes, as the client sends them. */
export type ChangeRequestSearch = NonNullable<
  paths['/api/admin/search/change-requests']['get']['parameters']['query']
>;

export const changeRequestKeys = {
  all: ['change-requests'] as const,
  config: (projectId: string) => ['change-requests', 'config', projectId] as const,
  project: (projectId: string) => ['change-requests', 'project', projectId] as const,
  search: (query: ChangeRequestSearch) => ['change-requests', 'search', query] as const,
  pending: (projectId: string, featureName: string) =>
    ['change-requests', 'pending', projectId, featureName] as const,
  one: (projectId: string, id: string) => ['change-request', projectId, id] as const,
};

/** changeRequests.config.get: per environment of the project, whether changes need a change request. */
export const getChangeRequestConfig = (projectId: string) =>
  answerOf(
    api.GET('/api/admin/projects/{projectId}/change-requests/config', { params: { path: { projectId } } }),
  );

/** One environment's change-request setting, as changeRequests.config.get answers it. */
export type ChangeRequestSetting = Awaited<ReturnType<typeof getChangeRequestConfig>>[number];

export const changeRequestConfigQueryOptions = (projectId: string) =>
  queryOptions({
    queryKey: changeRequestKeys.config(projectId),
    queryFn: () => getChangeRequestConfig(projectId),
  });

/** The project's change requests. */
export const listProjectChangeRequestsQueryOptions = (projectId: string) =>
  queryOptions({
    queryKey: changeRequestKeys.project(projectId),
    queryFn: () =>
      answerOf(
        api.GET('/api/admin/projects/{projectId}/change-requests', { params: { path: { projectId } } }),
      ),
  });

/** changeRequests.search: across the projects the caller may see. */
export const searchChangeRequestsQueryOptions = (query: ChangeRequestSearch) =>
  queryOptions({
    queryKey: changeRequestKeys.search(query),
    queryFn: () => answerOf(api.GET('/api/admin/search/change-requests', { params: { query } })),
  });

/** changeRequests.pendingForFeature: the open change requests touching the feature. */
export const pendingChangeRequestsQueryOptions = (projectId: string, featureName: string) =>
  queryOptions({
    queryKey: changeRequestKeys.pending(projectId, featureName),
    queryFn: () =>
      answerOf(
        api.GET('/api/admin/projects/{projectId}/change-requests/pending/{featureName}', {
          params: { path: { projectId, featureName } },
        }),
      ),
  });

/** changeRequests.get */
export const changeRequestQueryOptions = (projectId: string, id: string) =>
  queryOptions({
    queryKey: changeRequestKeys.one(projectId, id),
    queryFn: () =>
      answerOf(
        api.GET('/api/admin/projects/{projectId}/change-requests/{id}', {
          params: { path: { projectId, id } },
        }),
      ),
  });

/** changeRequests.config.set: one environment's setting. */
export const setChangeRequestConfig = (
  projectId: string,
  environment: string,
  body: { changeRequestsEnabled: boolean; requiredApprovals: number },
) =>
  answerOf(
    api.PUT('/api/admin/projects/{projectId}/environments/{environment}/change-requests/config', {
      params: { path: { projectId, environment } },
      body,
    }),
  );

/** The state change of a change request (submit, approve, reject, apply, schedule, cancel). */
export const setChangeRequestState = (
  projectId: string,
  id: string,
  body: paths['/api/admin/projects/{projectId}/change-requests/{id}/state']['put']['requestBody']['content']['application/json'],
) =>
  answerOf(
    api.PUT('/api/admin/projects/{projectId}/change-requests/{id}/state', {
      params: { path: { projectId, id } },
      body,
    }),
  );

/** changeRequests.addComment */
export const addChangeRequestComment = (projectId: string, id: string, text: string) =>
  answerOf(
    api.POST('/api/admin/projects/{projectId}/change-requests/{id}/comments', {
      params: { path: { projectId, id } },
      body: { text },
    }),
  );

/** changeRequests.addChanges: one change into the caller's draft for the environment (opened when absent). */
export const addDraftChange = (
  projectId: string,
  environment: string,
  body: paths['/api/admin/projects/{projectId}/environments/{environment}/change-requests']['post']['requestBody']['content']['application/json'],
) =>
  answerOf(
    api.POST('/api/admin/projects/{projectId}/environments/{environment}/change-requests', {
      params: { path: { projectId, environment } },
      body,
    }),
  );

/** changeRequests.revert: undoes a feature event, directly or (where required) into the caller's draft. */
export const revertEvent = (id: number) =>
  answerOf(api.POST('/api/admin/events/{id}/revert', { params: { path: { id: String(id) } } }));
