import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../api/client';
import { answerOf } from '../../../lib/api-answer';

export const contextFieldKeys = {
  all: ['context-fields'] as const,
  /** A project's own fields (under the instance's key, so a change to either refetches both). */
  project: (projectId: string) => ['context-fields', 'project', projectId] as const,
};

/** contextFields.list */
export const listContextFieldsQueryOptions = () =>
  queryOptions({
    queryKey: contextFieldKeys.all,
    queryFn: () => answerOf(api.GET('/api/admin/context')),
  });

/** projectContextFields.list: the project's own context fields. */
export const listProjectContextFieldsQueryOptions = (projectId: string) =>
  queryOptions({
    queryKey: contextFieldKeys.project(projectId),
    queryFn: () =>
      answerOf(api.GET('/api/admin/projects/{projectId}/context', { params: { path: { projectId } } })),
  });
