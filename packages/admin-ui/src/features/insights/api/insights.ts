import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { answerOf } from '../../../lib/api-answer';

/** Instance-wide insights: users, flags and their trends (GET /insights). */
export const instanceInsightsQueryOptions = () =>
  queryOptions({
    queryKey: ['insights'],
    queryFn: () => answerOf(api.GET('/api/admin/insights')),
  });

/** A project's health, activity statistics and feature types (GET /projects/:p/overview). */
export const projectOverviewQueryOptions = (projectId: string) =>
  queryOptions({
    queryKey: ['projects', projectId, 'overview'],
    queryFn: () =>
      answerOf(api.GET('/api/admin/projects/{projectId}/overview', { params: { path: { projectId } } })),
  });

/** A project's DORA lead time (GET /projects/:p/dora). */
export const projectDoraQueryOptions = (projectId: string) =>
  queryOptions({
    queryKey: ['projects', projectId, 'dora'],
    queryFn: () =>
      answerOf(api.GET('/api/admin/projects/{projectId}/dora', { params: { path: { projectId } } })),
  });
